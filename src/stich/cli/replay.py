"""``stich replay``: show a saved game step by step, from the spectator's or one seat's view."""

from __future__ import annotations

from rich.markup import escape

import stich
from stich.cli.render import action_lines, default_lang, explain_tricks, make_console, match_result_text, view_table
from stich.narration import Names, describe_event, hand_result


def N_(text: str) -> str:
    """Marks a msgid for the catalogue; translated where it is shown."""
    return text


STEP_HELP = N_("Enter: next step · a: show the rest without pausing · t: show the table · q: stop")


def load_record(path: str) -> dict:
    """Read a record file; a RecordError (a ValueError) naming the file when it cannot be read."""
    from stich.engine.recordfile import load_record as load

    return load(path)


def _visible(ev: dict, seat: int | None) -> bool:
    aud = ev.get("_aud")
    return aud is None or (seat is not None and seat in aud)


def _public(ev: dict) -> dict:
    return {k: v for k, v in ev.items() if k != "_aud"}


def replay_record(rec: dict, seat: int | None = None, step: bool = False, lang: str | None = None,
                  console=None, ask=None) -> None:
    """Print a saved game action by action as ``seat`` (0-based; None = spectator) saw it.

    ``step``: wait for Enter (``ask(prompt)``, default ``console.input``) before each action.
    Raises ``stich.RecordError`` if the record does not replay.
    """
    console = console or make_console()
    final = stich.replay(rec)  # validates the whole record first
    g = final.game
    if seat is not None and not 0 <= seat < g.num_players:
        raise ValueError(f"--seat must be 1 to {g.num_players} in {g.name}, not {seat + 1}")
    ask = ask or console.input
    names = Names(g, lang or default_lang(g.name), seat)
    _ = names._
    state = g.new_state(rec["seed"], **(rec.get("setup") or {}))
    events = [{k: v for k, v in ev.items() if k != "audience"} | {"_aud": ev.get("audience")}
              for ev in final.record()["events"]]
    who = _("the spectator") if seat is None else _("Seat %(n)s") % {"n": seat + 1}
    console.print(f"[bold]{escape(g.rules_summary())}[/bold] · "
                  + _("seed %(seed)s · %(n)s actions · seen by %(who)s") % {
                      "seed": rec["seed"], "n": len(rec["actions"]), "who": who})
    if step:
        console.print(_(STEP_HELP))
    seen = len(state.events)
    for ev in events[:seen]:
        line = describe_event(_public(ev), names) if _visible(ev, seat) else None
        if line:
            console.print(line)
    for i, (actor, text) in enumerate(rec["actions"]):
        if step:
            while True:
                key = ask(f"[{i + 1}/{len(rec['actions'])}] ").strip().lower()
                if key == "t":
                    console.print(view_table(state.view(seat), names))
                    continue
                break
            if key == "q":
                return
            if key == "a":
                step = False
        hand = state.hand_number
        before = state.view(seat)
        state.apply(text, seat=actor)   # an action may be taken out of turn (§0.5)
        new = [_public(ev) for ev in events[seen:len(state.events)] if _visible(ev, seat)]
        seen = len(state.events)
        explain_tricks(new, before, actor, text, names)
        for line in action_lines(actor, text, new, names):
            console.print(line)
        if state.hand_number != hand or state.is_terminal():
            result = hand_result(state.hand_summary(), hand, new)
            if result:
                console.print("[bold]" + _("Hand %(n)s result") % {"n": hand} + f"[/bold]: {names.value(result)}")
    console.print(view_table(state.view(seat), names, title=_("Final position")))
    if state.is_terminal():
        returns = state.returns()
        console.print(_("Match over.") + f" {match_result_text(state.view(seat), returns, names)}.")
    else:
        console.print(_("The record ends before the match is over (continue it with stich play --resume FILE)."))
