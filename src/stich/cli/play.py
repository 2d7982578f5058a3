"""``stich play``: one human against bots, a whole match, in plain terminal output.

The loop only uses the public protocol: the human's view, the legal actions, ``apply``,
``record`` and ``stich.replay``.  Bots are asked through :func:`stich.arena.table.ask`: they get
only a private copy of their seat's view and the legal texts; a bot fault (an exception, an
illegal answer, a broken outside program) is reported and a random legal action is played.
"""

from __future__ import annotations

import os
import random
import secrets
import shlex
import shutil
import signal
import sys
from dataclasses import dataclass, field

from rich.markup import escape

import stich
from stich.arena.table import ask, fallback_rng, private_view
from stich.bots import DEFAULT_BUDGET, Bot, Budget, default_bot_name, make_bot
from stich.bots.seeds import new_key, one_way_seed
from stich.cli.prompt import (  # noqa: F401 - the prompt's interface, used here and by callers of this module
    HELP_LINES,
    N_,
    Choice,
    forced_action,
    options_table,
    resolve_input,
    rules_text,
    tr,
)
from stich.cli.render import (
    LANGS,
    action_lines,
    default_lang,
    explain_tricks,
    hand_line,
    legal_list,
    make_console,
    match_result_text,
    optional_rows,
    variant_title,
    view_table,
)
from stich.cli.words import Standing, is_raise_poll
from stich.engine import StichError, member
from stich.engine.recordfile import load_record, quote, save_record
from stich.engine.turns import WAIT
from stich.narration import Names, describe_event, hand_result


def _budget_text(budget, names=None) -> str:
    """``thinking budget 0.5s``, or the bots' own default when none is set."""
    _ = tr(names)
    return _("thinking budget %(budget)s") % {"budget": escape(str(budget))} if budget \
        else _("each bot's own thinking budget")


class Stopped(BaseException):
    """SIGTERM or SIGHUP arrived: the match is saved and the command ends (raised between actions)."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def stich_command() -> str:
    """How the user ran ``stich``, as a command that works again: ``stich`` when that is on the PATH,
    else the path typed (``.venv/bin/stich``), else ``python -m stich.cli.main``."""
    argv0 = sys.argv[0] if sys.argv and sys.argv[0] else ""
    if os.path.basename(argv0) == "stich":
        found = shutil.which("stich")
        if found and os.path.realpath(found) == os.path.realpath(argv0):
            return "stich"
        return shlex.quote(argv0)
    return f"{shlex.quote(sys.executable)} -m stich.cli.main"


@dataclass
class Match:
    """One interactive match: the state, the human seat and the bots."""

    state: object
    human: int
    bots: dict[int, Bot]
    bot_names: list[str]
    lang: str
    record_path: str
    console: object = field(default_factory=make_console)
    seen: int = 0
    hints: bool = False
    budget: str | None = None
    hint_name: str | None = None
    #: the secret that seeds the bots one way (kept in the record's ``cli`` part, never shown to a bot)
    key: str = field(default_factory=new_key)
    autoplay: bool = True   # play the human's forced moves for them (forced_action)
    #: the standing orders: raise polls answered without a prompt, actions armed for the next chance
    standing: Standing = field(default_factory=Standing)

    def __post_init__(self):
        self.names = Names(self.state.game, self.lang, self.human)
        self.rngs = {s: fallback_rng(self.state.seed, s) for s in self.bots}
        self._hint_bot = None
        self._applying = False  # inside state.apply: a signal waits until the action is complete
        self._pending: int | None = None
        self.cut_rng = random.Random()   # 'cut' alone: a real cutter does not count the cards either
        self._ = self.names._
        self._polled_at = -1   # the history length at which the human last waited out of turn
        self._told_standing = False
        if self.hint_name is None:
            self.hint_name = default_bot_name(self.state.game.name)

    # --- hints ----------------------------------------------------------------------------------
    def hint(self) -> str | None:
        """What the default bot would play for the human, from the human's own view only."""
        if self._hint_bot is None:
            self._hint_bot = make_bot(self.hint_name, seed=one_way_seed(self.key, "hint", len(self.state.history)),
                                      budget=self.budget or DEFAULT_BUDGET)
        legal = [str(a) for a in self.state.legal_actions(self.human)]
        if self.state.current_player != self.human:
            legal.append(WAIT)   # out of turn: a poll, as bots are asked (stich.engine.turns)
        try:
            action = self._hint_bot.choose(private_view(self.state, self.human), list(legal))
        except Exception as exc:  # noqa: BLE001 - a hint must never stop the game
            self.say("[red]" + self._("No hint: the %(bot)s bot failed (%(error)s)") % {
                "bot": escape(self.hint_name), "error": escape(f"{type(exc).__name__}: {exc}")} + "[/red]")
            return None
        if action not in legal:
            self.say("[red]" + self._("No hint: the %(bot)s bot suggested %(action)s, which is not legal") % {
                "bot": escape(self.hint_name), "action": escape(repr(action))} + "[/red]")
            return None
        self.say(self._("Hint (%(bot)s, %(budget)s): %(action)s") % {
            "bot": escape(self.hint_name), "budget": _budget_text(self._hint_bot.budget, self.names),
            "action": self.names.action(action)})
        return action

    def close(self) -> None:
        """Release the bots (outside programs are stopped)."""
        for bot in [*self.bots.values(), self._hint_bot]:
            if bot is not None:
                try:
                    bot.close()
                except Exception:  # noqa: BLE001
                    pass

    # --- output ----------------------------------------------------------------------------
    def say(self, text: str) -> None:
        self.console.print(text, soft_wrap=True)

    def new_events(self) -> list[dict]:
        """The events the human may see that were not narrated yet.

        Reads the state's event log (``(audience, payload)`` pairs, kept by the engine's base
        State) incrementally, with the same audience rule as ``view``; without one, falls back
        to the view's ``events`` list."""
        log = getattr(self.state, "events", None)
        if not isinstance(log, list):
            events = self.state.view(self.human)["events"]
            new, self.seen = events[self.seen:], len(events)
            return new
        bit = 1 << self.human
        new = [dict(ev) for aud, ev in log[self.seen:] if aud is None or aud & bit]
        self.seen = len(log)
        return new

    def narrate(self, events: list[dict]) -> None:
        for ev in events:
            line = describe_event(ev, self.names)
            if line:
                self.say(line)

    def show_table(self, fit: bool = True, legal: list[str] | None = None) -> None:
        """The title, the table and the numbered legal actions (``legal``: those offered out of turn, else
        the view's); on a terminal (``fit``), within its height: the actions lose their long card names,
        then the table its last optional rows ('table' shows all)."""
        view = self.state.view(self.human)
        g = self.state.game
        title = f"{g.title or g.name} · {variant_title(g, self._)} · " + self._("you are Seat %(seat)s of %(n)s") % {
            "seat": self.human + 1, "n": g.num_players}
        where = hand_line(view, self.names)
        if legal is None:
            legal = view.get("legal_actions") or []
        drop, short = 0, False
        if fit and self.console.is_terminal:
            room = self.console.height - 4   # a blank line, the title, "Your legal actions", the prompt
            actions = self.lines(legal_list(legal, self.names))
            if actions + self.lines(view_table(view, self.names, hand_row=False)) > room:
                short, actions = True, self.lines(legal_list(legal, self.names, short=True))
            most = optional_rows(view, self.names)
            while drop < most and actions + self.lines(view_table(view, self.names, hand_row=False, drop=drop)) > room:
                drop += 1
        self.say("")
        self.say(f"[bold]{escape(title)}[/bold]" + (f" · {escape(where)}" if where else ""))
        self.console.print(view_table(view, self.names, hand_row=False, drop=drop))
        if legal:
            _ = self._
            left_out = " " + self.names.ngettext(N_("(%(n)s row left out: 'table' shows all)"),
                                                 N_("(%(n)s rows left out: 'table' shows all)"), drop) % {"n": drop} \
                if drop else ""
            head = _("Your legal actions%(note)s:") if legal == (view.get("legal_actions") or []) \
                else _("You may act out of turn%(note)s:")
            self.say(head % {"note": left_out})
            self.console.print(legal_list(legal, self.names, short=short))

    def lines(self, renderable) -> int:
        """How many terminal lines ``renderable`` takes."""
        return len(self.console.render_lines(renderable, self.console.options, pad=False))

    # --- signals ----------------------------------------------------------------------------
    def catch_signals(self) -> None:
        """SIGTERM and SIGHUP stop the match between two actions (raise :class:`Stopped`), never inside one."""
        def stop(signum, _frame):
            if self._applying:
                self._pending = signum  # raised once the action is fully applied
            else:
                raise Stopped(signum)

        self._handlers = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGHUP)}

    def release_signals(self) -> None:
        """Give SIGTERM and SIGHUP back to the handlers they had before :meth:`catch_signals`."""
        for sig, handler in getattr(self, "_handlers", {}).items():
            signal.signal(sig, handler)
        self._handlers = {}

    def _apply(self, action, seat: int | None = None) -> None:
        self._applying = True
        try:
            if seat is None or seat == self.state.current_player:
                self.state.apply(action)
            else:   # a decision out of turn (a raise, a Schönere request)
                self.state.apply(action, seat=seat)
        finally:
            self._applying = False
        pending, self._pending = self._pending, None
        if pending is not None:
            raise Stopped(pending)

    # --- the loop ---------------------------------------------------------------------------
    def run(self) -> str:
        """Play until the match ends or the human quits; returns ``"over"`` or ``"quit"``."""
        state = self.state
        g = state.game
        _ = self._
        bots = ", ".join(f"{self.names.seat(i)}: {escape(b)}" for i, b in enumerate(self.bot_names) if i != self.human)
        budget = _budget_text(self.budget or DEFAULT_BUDGET, self.names)
        self.say(f"[bold]{escape(g.rules_summary())}[/bold] — "
                 + _("you are Seat %(seat)s; bots: %(bots)s (%(budget)s).") % {
                     "seat": self.human + 1, "bots": bots, "budget": budget}
                 + " " + _("Type 'help' for help, 'rules' for the rules."))
        events = self.new_events()
        if state.history:  # resumed: recall only the hand in progress
            starts = [i for i, ev in enumerate(events) if ev.get("type") == "hand_start"]
            self.say(_("Resuming after %(n)s actions (hand %(hand)s).") % {"n": len(state.history),
                                                                           "hand": state.hand_number})
            events = events[starts[-1]:] if starts else events
        self.narrate(events)
        while not state.is_terminal():
            off = self.out_of_turn()
            if off == "quit":
                return "quit"
            if off == "acted":
                continue
            seat = state.current_player
            note = None
            if seat == self.human:
                action, note = self.standing_answer()
                if action is None:
                    action = self.ask()
                if action is None:
                    return "quit"
            else:
                action, fault = ask(self.bots[seat], state, seat, self.rngs[seat])
                if fault is not None:
                    self.say("[red]" + _("Bot fault") + "[/red]: " + escape(
                        _("the %(bot)s bot at seat %(seat)s: %(error)s; the table plays a random legal action instead.")
                        % {"bot": self.bot_names[seat], "seat": seat + 1, "error": fault["error"]}))
            self.step(seat, action, note)
        self.finish()
        return "over"

    def standing_answer(self) -> tuple[str | None, str | None]:
        """The human's action on turn taken without a prompt, and the note said on its line: an action armed
        for the next chance, the only legal action (autoplay), or ``pass`` at a raise poll; (None, None)
        when the human has a real choice."""
        _ = self._
        legal = self.state.legal_actions()
        armed = self.standing.due(legal)
        if armed:
            return armed, _("your standing order: %(action)s at your next chance") % {"action": armed}
        forced = forced_action(self.state) if self.autoplay else None
        if forced:
            return forced, _("your only legal action, played for you")
        if self.standing.mode == "pass" and is_raise_poll(legal):
            return "pass", _("auto pass: 'auto ask' to be asked, 'auto raise' to raise at your next chance")
        return None, None

    def out_of_turn(self) -> str | None:
        """While another seat is on turn, the decisions the rules give the human now (a raise after
        accepting one, a Schönere request): an armed standing order takes its action (``"acted"``); with
        ``auto ask`` the human is asked, once per change of the table (``"acted"``, ``"quit"``, or None for
        ``wait``); otherwise nothing is asked (None), and a line says once what could be armed."""
        state, h = self.state, self.human
        if state.current_player == h or state.current_player < 0:
            return None
        mine = state.legal_actions(h)
        if not mine:
            return None
        _ = self._
        armed = self.standing.due(mine)
        if armed:
            self.step(h, armed, _("your standing order: %(action)s at your next chance") % {"action": armed})
            return "acted"
        at = len(state.history)
        if self.standing.mode == "ask":
            if self._polled_at == at:
                return None
            self._polled_at = at
            action = self.ask(out_of_turn=[str(a) for a in mine])
            if action is None:
                return "quit"
            if action == WAIT:
                return None
            self.step(h, action)
            return "acted"
        verbs = sorted({a.verb for a in mine})
        told = (state.hand_number, tuple(verbs))
        if self._told_standing != told:
            self._told_standing = told
            self.say("[dim]" + escape(" ".join((
                _("You may also act out of turn now: %(actions)s.") % {"actions": ", ".join(verbs)},
                _("'auto ACTION' at your next prompt takes it at the next chance; 'auto ask' asks you each time."))))
                + "[/dim]")
        return None

    def step(self, seat: int, action, note: str | None = None) -> None:
        """Apply ``seat``'s action and narrate it from the human's view (``note``: said on the action's own
        line, e.g. why it was played without a prompt); a finished hand is told and saved."""
        state = self.state
        hand = state.hand_number
        before = state.view(self.human)   # what the human knew: to say why a trick was won, or what stays secret
        self._apply(action, seat)
        new = self.new_events()
        explain_tricks(new, before, seat, str(action), self.names)
        over = state.hand_number != hand or state.is_terminal()
        split = next((i for i, ev in enumerate(new) if ev.get("type") == "hand_start"), len(new)) \
            if over else len(new)   # this hand's events, then the next hand's
        lines = action_lines(seat, action, new[:split], self.names)
        if note:   # said on the action's own line: a domino deal has a dozen of them
            lines[:1] = [(lines[0] if lines else f"[bold]{self._('You')}[/bold]: {self.names.action(action)}")
                         + f" [dim]({escape(note)})[/dim]"]
        for line in lines:
            self.say(line)
        if over:
            self.hand_over(hand, new[:split], before)
            self.narrate(new[split:])
            if not state.is_terminal():
                self.save(final=False, quiet=True)  # a hand is never lost

    def hand_over(self, hand: int, shown=(), before: dict | None = None) -> None:
        """The hand's result, and what stays secret after it (the game text's ``hand_end_note``, from the
        human's view ``before`` the hand's last action)."""
        result = hand_result(self.state.hand_summary(), hand, shown)
        if result:
            self.say("[bold]" + self._("Hand %(n)s result") % {"n": hand} + f"[/bold]: {self.names.value(result)}")
        own_note = member(self.state.game, "narration", "hand_end_note")
        note = own_note(before, self.names) if before and own_note is not None else None
        if note:
            self.say(note)

    def prompt(self, n: int) -> str:
        """``Your move [1-N, action, help, quit]: `` in the reader's language."""
        return self._("Your move [1-%(n)s, action, help, quit]: ") % {"n": n}

    def ask(self, out_of_turn: list[str] | None = None) -> str | None:
        """The human's choice (an action text, ``wait`` when asked ``out_of_turn``: the actions offered then),
        or None when they quit (the match is saved)."""
        _ = self._
        offered = None if out_of_turn is None else [*out_of_turn, WAIT]
        self.show_table(legal=offered)
        if self.hints and out_of_turn is None:
            self.hint()
        n = len(offered if offered is not None else self.state.legal_actions())
        seat = None if out_of_turn is None else self.human
        while True:
            try:
                text = self.console.input(self.prompt(n))
            except (EOFError, KeyboardInterrupt):
                self.say("")
                text = "quit"
            try:
                choice = resolve_input(text, self.state, self.cut_rng, self.names, seat)
            except Exception as exc:  # a game's parser or rule check failed on this text
                choice = Choice("error", message=_("%(text)s could not be read (%(error)s)") % {
                    "text": repr(text), "error": f"{type(exc).__name__}: {exc}"})
            if choice.kind == "action":
                return choice.action
            if choice.kind == "quit":
                self.save(final=False)
                return None
            if choice.kind == "help":
                self.say(escape(choice.message))
            elif choice.kind == "rules":
                self.console.print(options_table(self.state.game, self.names))
                self.say(escape(rules_text(self.state.game, self.lang, self.names)))
            elif choice.kind == "table":
                self.show_table(fit=False, legal=offered)
            elif choice.kind == "hint":
                self.hint()
            elif choice.kind == "autoplay":
                self.autoplay = choice.message == "on"
                self.say(_("Autoplay is on: your forced moves play themselves.") if self.autoplay else
                         _("Autoplay is off: you are asked for every move, even a forced one."))
            elif choice.kind == "auto":
                self.set_standing(choice.message)
                armed = self.standing.due(self.state.legal_actions(seat))   # legal right now: take it now
                if armed:
                    return armed
            elif choice.kind == "error":
                self.say(f"[red]{_('Not accepted:')}[/red] {escape(choice.message)}")

    def set_standing(self, order: str) -> None:
        """``pass``/``ask``: how raise polls are answered; ``off``: forget the armed actions; a verb: arm it;
        empty: say what stands."""
        _ = self._
        if order in ("pass", "ask"):
            self.standing.mode = order
        elif order == "off":
            self.standing.armed.clear()
        elif order:
            self.standing.armed.add(order)
        self.say(_("Standing orders: %(orders)s.") % {"orders": escape(self.standing.describe(self.names))})

    def finish(self) -> None:
        state = self.state
        self.narrate(self.new_events())
        self.show_table()
        returns = state.returns()
        self.say(f"[bold]{self._('Match over.')}[/bold] "
                 f"{match_result_text(state.view(self.human), returns, self.names)}.")
        for seat, bot in self.bots.items():
            try:
                bot.end(private_view(state, seat), list(returns))
            except Exception:  # noqa: BLE001
                pass
        self.save(final=True)

    def record(self) -> dict:
        rec = self.state.record()
        rec["cli"] = {"seat": self.human, "bots": self.bot_names, "lang": self.lang, "key": self.key}
        if self.budget:
            rec["cli"]["budget"] = self.budget
        return rec

    def save(self, final: bool, quiet: bool = False) -> None:
        """Write the record atomically (a temporary file, fsync, rename): a crash keeps the old or the new."""
        path = self.record_path
        save_record(path, self.record())
        if quiet:
            return
        where = escape(os.path.abspath(path))
        if final:
            self.say(self._("Record saved to %(path)s") % {"path": where})
        else:
            self.say(self._("Unfinished match saved to %(path)s") % {"path": where} + "\n"
                     + self._("Continue with: %(command)s") % {
                         "command": escape(f"{stich_command()} play --resume {shlex.quote(str(path))}")})


def parse_options(pairs) -> dict:
    """``["target=11", "maschine=on"]`` -> dict; ValueError for an item without ``=``."""
    out = {}
    for item in pairs or ():
        if "=" not in item:
            raise ValueError(f"--option takes name=value, not {item!r}")
        k, v = item.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def make_bots(spec: str | None, human: int, num_players: int, key, budget=None,
              game: str | None = None, moves: int = 0) -> tuple[dict[int, Bot], list[str]]:
    """Bots for every seat but the human's from one bot or a comma list (one per other seat).

    A bot is a registered name or ``cmd:PROGRAM``; ``None`` means the best available bot for
    ``game`` (:func:`stich.bots.default_bot_name`).  ``budget``: thinking time or iterations
    (default ``DEFAULT_BUDGET``).  Bot seeds are one-way: a keyed hash of the secret ``key``,
    the seat and ``moves`` (the actions already played), so no bot can compute the deal."""
    names = [s.strip() for s in str(spec or "").split(",") if s.strip()] or [default_bot_name(game)]
    others = [s for s in range(num_players) if s != human]
    if len(names) == 1:
        names = names * len(others)
    if len(names) != len(others):
        raise ValueError(f"--bots takes one bot name or {len(others)} comma-separated names, not {spec!r}")
    budget = budget or DEFAULT_BUDGET
    bots = {s: make_bot(n, seed=one_way_seed(key, "bot", s, moves), budget=budget)
            for s, n in zip(others, names, strict=True)}
    for s, bot in bots.items():
        if bot.sees_everything:
            raise ValueError(f"the {names[others.index(s)]} bot sees every card and cannot sit at a table with "
                             "a human")
    labels = ["human" if s == human else names[others.index(s)] for s in range(num_players)]
    return bots, labels


def start_match(game_name, variant, seat, seed, options, lang, bots, record_path, resume, console=None,
                budget=None, hints=False, autoplay=True, standing: str = "pass") -> Match:
    """Build a Match from command-line arguments (new, or resumed from a record file).

    Raises ValueError (StichError included) with a clear message for bad arguments.
    """
    cli_info = {}
    if resume:
        try:
            rec = load_record(resume)
        except StichError as exc:
            raise ValueError(str(exc)) from None
        if variant or options or seed is not None:
            raise ValueError("--resume continues the record's own game: leave out --variant, --option and --seed")
        try:
            state = stich.replay(rec)
        except StichError as exc:
            raise ValueError(f"cannot resume {resume}: {exc}") from None
        if game_name and str(game_name).strip().lower() != state.game.name:
            raise ValueError(f"{resume} is a record of {state.game.name}, not {game_name}")
        cli_info = saved_cli(rec, resume, state.game.num_players)
        record_path = record_path or resume
    else:
        if not game_name:
            raise ValueError("name a game (stich play GAME) or --resume a record file")
        g = stich.game(game_name, variant, **parse_options(options))
        state = g.new_state(seed=seed)
    g = state.game
    if seat is None:
        seat = cli_info.get("seat", 0) + 1
    if not 1 <= seat <= g.num_players:
        raise ValueError(f"--seat must be 1 to {g.num_players} in {g.name}, not {seat}")
    human = seat - 1
    if lang is None:
        lang = cli_info.get("lang") or default_lang(g.name)
    if bots is None:
        saved = [b for i, b in enumerate(cli_info.get("bots") or []) if i != human and b != "human"]
        outside = [b for b in saved if b.strip().lower().startswith("cmd:")]
        if outside:  # records are shared: a record never starts a program by itself
            raise ValueError(
                f"{resume} was played against outside programs ({', '.join(quote(b) for b in outside)}); "
                "stich never starts a program named in a record. To resume with them, name them yourself: "
                f"--bots {shlex.quote(','.join(saved))}; or name other bots with --bots")
        bots = ",".join(saved) if saved else None
    budget = budget or cli_info.get("budget")
    if budget:
        budget = str(Budget.parse(budget))
    key = cli_info.get("key") or new_key()
    bot_map, labels = make_bots(bots, human, g.num_players, key, budget=budget, game=g.name,
                                moves=len(state.history))
    record_path = record_path or default_record_path(g.name, seed)
    kw = {"console": console} if console is not None else {}
    return Match(state, human, bot_map, labels, lang, record_path, hints=hints, budget=budget, key=key,
                 autoplay=autoplay, standing=Standing(mode=standing), **kw)


def default_record_path(game: str, seed: int | None) -> str:
    """``stich-GAME-SEED.json`` for a chosen seed, else ``stich-GAME-xxxxxx.json`` (6 random characters),
    never the name of an existing file."""
    if seed is not None:
        return f"stich-{game}-{seed}.json"
    while True:
        path = f"stich-{game}-{secrets.token_hex(3)}.json"
        if not os.path.exists(path):
            return path


def saved_cli(rec: dict, where: str, num_players: int) -> dict:
    """The record's ``cli`` part (seat, bots, lang, budget, key), checked: ValueError naming the file."""
    info = rec.get("cli")
    if info is None:
        return {}
    if not isinstance(info, dict):
        raise ValueError(f"{where}: the 'cli' field must be an object (seat, bots, lang), not {quote(info)}")
    seat = info.get("seat", 0)
    if type(seat) is not int or not 0 <= seat < num_players:
        raise ValueError(f"{where}: 'cli.seat' must be a seat 0..{num_players - 1}, not {quote(seat)}")
    bots = info.get("bots")
    if bots is not None and not (isinstance(bots, list) and len(bots) == num_players
                                 and all(isinstance(b, str) and b.strip() for b in bots)):
        raise ValueError(f"{where}: 'cli.bots' must be a list of {num_players} bot names, not {quote(bots)}")
    lang = info.get("lang")
    if lang is not None and lang not in LANGS:
        raise ValueError(f"{where}: 'cli.lang' must be one of {', '.join(LANGS)}, not {quote(lang)}")
    for name in ("budget", "key"):
        if info.get(name) is not None and not (isinstance(info[name], str) and 0 < len(info[name]) <= 200):
            raise ValueError(f"{where}: 'cli.{name}' must be text, not {quote(info[name])}")
    return {"seat": seat, "bots": bots, "lang": lang, "budget": info.get("budget"), "key": info.get("key")}
