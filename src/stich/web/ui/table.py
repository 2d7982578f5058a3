"""``render_table(ctx)``: one seat's table as an HTML fragment, built only from what ctx holds.

ctx (see docs/web-protocol.md): ``table, game, variant, options, seat, view, legal, events, seats,
lang, seq, finished, chat``.  ``view`` is ``state.view(seat)`` and ``events`` the events that seat may
see, so nothing here can show a card the seat may not know: other seats' cards appear as a count and
as plain backs (no text, no alt, no data attribute).

Nothing here knows a game by name: what a game adds is declared in its ``"page"`` companion
(``Game.companions``; ``stich.rulesets.<game>.page``), every name optional:

- ``VERBS``: verb -> the msgid of its button word (the generic verbs are in ``VERBS`` here);
- ``CALLS``: variant (or ``"*"``) -> verb -> the regional call said next to the verb's word;
- ``SUIT_VERBS``, ``RANK_VERBS``, ``SEAT_VERBS``: verbs whose argument is a suit, a rank, seat numbers;
- ``ARG_WORDS``: ``(verb, arg)`` -> the argument's own name (e.g. a Schlag 6 is the Weli);
- ``NAMED_ARGS``: verb -> argument -> msgid (e.g. Barbu's contracts), with ``EXTRA_ARG``: argument ->
  ``"suit"`` or ``"rank"`` for the word that follows it;
- ``action_words(action, view, names)``: an action in the game's own words where its role in the hand
  decides them (Watten's Ansage: ``Schlag: Neun (gezeigt mit der Herz-Neun)``), None for the generic words;
- ``HELP``: verb -> a short explanation (msgid), the control's ``title`` and description;
  ``CHOICE_LABELS``: verb -> the label of its drop-down list (``cut``: how many cards to lift);
- ``HAND_SIZE``: cards dealt to each seat, where not the deck divided among the players;
  ``counts_unknown(view)``: True where the cards left do not follow from the tricks;
  ``HIDDEN_HAND``: what the reader is told while his own cards are dealt but not yet his to see (msgid);
- ``EXPLAINS_TRICKS``: the page says why a trick was won (the text companion's ``trick_reason``);
- ``layout(view)``: a layout of rows per suit (``{suit: [lowest, highest] | None}``) shown instead of the trick;
- ``SEATING``, ``FELT_ROWS``: the seats' order around the felt, the state rows shown on it (``felt``);
- ``SHEET``, ``struck``, ``sheet_rows(events)`` and ``DEALS_PER_PLAYER``: the score sheet (``sheet``).
"""

from __future__ import annotations

from functools import lru_cache

import stich
from stich.engine import member
from stich.web.ui import felt, narration, sheet
from stich.web.ui.cards import face
from stich.web.ui.env import environment, options_in_words

#: verbs whose argument is a card of the seat's hand: shown as the hand's buttons
HAND_VERBS = frozenset({"play"})
#: a verb with more choices than this is a drop-down list and one button (bids, cuts)
MAX_BUTTONS = 10
#: narration lines kept on the page (the full story is in the replay)
LOG_LINES = 60


def N_(msgid: str) -> str:
    """Marks a word for the catalogues; it is translated where it is shown."""
    return msgid


#: the words on the action buttons every game shares (English msgids); a game's own are its page's ``VERBS``
VERBS = {"play": N_("play"), "pass": N_("pass")}


@lru_cache(maxsize=64)
def _game(name: str, variant: str, options: tuple):
    return stich.game(name, variant, **dict(options))


def game_of(ctx: dict):
    opts = tuple(sorted((k, v) for k, v in (ctx.get("options") or {}).items()))
    return _game(ctx["game"], ctx["variant"], opts)


def seat_label(seat: int, seats_meta: list, me, _) -> str:
    name = None
    for s in seats_meta or ():
        if s.get("seat") == seat:
            name = s.get("name")
    base = _("Seat %(n)s") % {"n": seat + 1}
    if seat == me:
        return _("You") + f" ({base})"
    return f"{name} ({base})" if name else base



def _decl(game, name: str):
    """A declaration of the game's page companion (the page role's default where it has none)."""
    return member(game, "page", name)


def verbs(game) -> dict[str, str]:
    """Verb -> the msgid of its button word: the shared ones and the game's own."""
    return {**VERBS, **_decl(game, "VERBS")}


def _arg_text(verb: str, arg: str, game, _, lang: str) -> str:
    """An action's argument in words: a card's, suit's or rank's name, seats by number, else as written."""
    deck = game.deck
    if deck.is_card(arg):
        return face(deck, arg, lang).name
    if verb in _decl(game, "SEAT_VERBS"):
        return ", ".join(_("Seat %(n)s") % {"n": a} for a in arg.split(","))
    own = _decl(game, "ARG_WORDS").get((verb, arg))
    if own:
        return own
    if arg in deck.suit_codes and verb in _decl(game, "SUIT_VERBS"):
        names = deck.suit_names.get(lang) or deck.suit_names["en"]
        return names[deck.suit_codes.index(arg)]
    if arg in deck.rank_codes and verb in _decl(game, "RANK_VERBS"):
        names = deck.rank_names.get(lang) or deck.rank_names["en"]
        return names[deck.rank_codes.index(arg)]
    return arg


def _extra_text(kind: str, arg: str, game, lang: str) -> str:
    """The word after a named argument (``TRUMPS S``: a suit, ``DOMINO 7``: a rank), in words."""
    deck = game.deck
    codes, names = (deck.suit_codes, deck.suit_names) if kind == "suit" else (deck.rank_codes, deck.rank_names)
    if arg not in codes:
        return arg
    return (names.get(lang) or names["en"])[codes.index(arg)]


def action_label(action: str, game, variant: str, _, lang: str, view=None, names=None) -> str:
    """An action as its button says it: the verb in the reader's language (with the regional call the game
    declares), then its argument in words; ``double 4 redouble 2`` reads as two parts.  With the seat's
    ``view`` and ``names``, the game may word it by its role in the hand (its page's ``action_words``)."""
    own = _decl(game, "action_words") if view is not None and names is not None else None
    if own is not None:
        text = own(action, view, names)
        if text:
            return narration.plain(text)
    words = action.split()
    table_verbs = verbs(game)
    named = _decl(game, "NAMED_ARGS")
    extra_kind = _decl(game, "EXTRA_ARG")
    all_calls = _decl(game, "CALLS")
    # the variant's own calls, else its base's (a variant made from the Euregio row says "bieten")
    calls = game.by_variant(all_calls, all_calls.get("*", {})) if variant == game.variant \
        else all_calls.get(variant, all_calls.get("*", {}))
    parts = []
    i = 0
    while i < len(words):
        verb = words[i]
        arg = words[i + 1] if i + 1 < len(words) and words[i + 1] not in table_verbs else ""
        i += 2 if arg else 1
        if verb in named and arg:
            text = _(named[verb].get(arg, arg))
            if arg in extra_kind and i < len(words):   # TRUMPS S, DOMINO 7
                text += ": " + _extra_text(extra_kind[arg], words[i], game, lang)
                i += 1
            parts.append(text)
            continue
        word = _(table_verbs[verb]) if verb in table_verbs else verb.replace("_", " ")
        if verb in calls:
            word = f"{word} („{calls[verb]}“)"
        parts.append(f"{word}: {_arg_text(verb, arg, game, _, lang)}" if arg else word)
    return " · ".join(parts)


def _group_key(action: str, game) -> str:
    """Actions that share a button group: same verb (a named argument: same verb and argument)."""
    words = action.split()
    return " ".join(words[:2]) if words[0] in _decl(game, "NAMED_ARGS") and len(words) > 2 else words[0]


def cards_left(ctx: dict, game, view: dict) -> list[int | None]:
    """Cards each seat still holds this hand: the deal minus what each has played (None: unknown)."""
    n = game.num_players
    size = _decl(game, "HAND_SIZE") or len(game.deck) // n
    played = [0] * n
    for t in view.get("tricks") or []:
        for p in t.get("cards", []):
            if isinstance(p.get("seat"), int):
                played[p["seat"]] += 1
    for p in view.get("trick") or []:
        if isinstance(p.get("seat"), int):
            played[p["seat"]] += 1
    unknown = _decl(game, "counts_unknown")
    if unknown is not None and unknown(view):
        return [None] * n
    return [max(size - k, 0) for k in played]


def _action_groups(legal, game, ctx, _, lang, names=None):
    """The non-hand actions as groups: buttons, or one list + button where a verb has many choices; each
    with the game's short explanation of its verb (``help``: the control's title and description)."""
    view = ctx.get("view") or {}
    helps = _decl(game, "HELP")
    choice_labels = _decl(game, "CHOICE_LABELS")
    groups: dict[str, list[str]] = {}
    hand_actions = []
    for a in legal:
        verb, _sep, arg = a.partition(" ")
        if verb in HAND_VERBS and game.deck.is_card(arg):
            hand_actions.append(a)
            continue
        groups.setdefault(_group_key(a, game), []).append(a)
    out = []
    for verb, actions in groups.items():
        if len(actions) > MAX_BUTTONS:
            head = verb.split()
            named = _decl(game, "NAMED_ARGS").get(head[0], {})
            label = _(named[head[1]]) if len(head) > 1 and head[1] in named else \
                _(choice_labels.get(verb) or verbs(game).get(verb, verb))
            texts = [action_label(a, game, ctx["variant"], _, lang, view, names) for a in actions]
            prefix = texts[0].split(": ", 1)[0] + ": "
            if all(t.startswith(prefix) for t in texts):   # "bid: 63" in a list labelled "bid": just "63"
                texts = [t[len(prefix):] for t in texts]
            out.append({"kind": "select", "verb": verb.replace(" ", "-"), "label": label,
                        "choices": list(zip(actions, texts, strict=True)),
                        "help": _(helps[head[0]]) if head[0] in helps else None})
        else:
            for a in actions:
                arg = a.partition(" ")[2]
                card = face(game.deck, arg, lang) if arg and game.deck.is_card(arg) else None
                verb = a.split()[0]
                out.append({"kind": "button", "action": a, "card": card,
                            "label": action_label(a, game, ctx["variant"], _, lang, view, names),
                            "help": _(helps[verb]) if verb in helps else None})
    return hand_actions, out


def build(ctx: dict, _) -> dict:
    """The page model of one seat's table."""
    game = game_of(ctx)
    lang = ctx.get("lang") or "en"
    view = ctx.get("view") or {}
    me = ctx.get("seat")
    legal = [str(a) for a in ctx.get("legal") or ()]
    seats_meta = ctx.get("seats") or []
    label = lambda s: seat_label(s, seats_meta, me, _)   # noqa: E731
    names = narration.names_for(game, lang, me, label)
    deck = game.deck
    n = game.num_players
    pos = felt.positions(game, me)
    hand_actions, groups = _action_groups(legal, game, ctx, _, lang, names)
    legal_cards = {a.partition(" ")[2] for a in hand_actions}
    hand = []
    shortcut = 0
    for code in view.get("hand") or []:
        item = {"face": face(deck, code, lang), "action": f"play {code}" if code in legal_cards else None}
        if item["action"]:
            shortcut += 1
            item["key"] = str(shortcut % 10) if shortcut <= 10 else None
        hand.append(item)

    def played(cards) -> list[dict]:
        return [{"seat": s, "pos": pos[s], "label": label(s), "face": face(deck, c, lang)} for s, c in cards
                if isinstance(s, int) and 0 <= s < n]

    events = list(ctx.get("events") or [])
    tricks = view.get("tricks") or []
    # the felt's trick: the one under way; else the last one gathered, with its winner, until the next
    # lead - also the one that closed the hand, told by the events once the next hand is dealt
    trick = {"cards": played((p.get("seat"), p.get("card")) for p in view.get("trick") or []), "winner": None,
             "why": None, "closing": False}
    if not trick["cards"] and tricks:
        t = tricks[-1]
        trick = {"cards": played((p.get("seat"), p.get("card")) for p in t.get("cards", [])),
                 "winner": t.get("winner") if isinstance(t.get("winner"), int) else None,
                 "why": narration.why_won(view, t, names), "closing": bool(view.get("terminal"))}
    elif not trick["cards"]:
        closing = felt.closing_trick(events)
        if closing:   # its reason is not told: the view is the next hand's (another trump)
            trick = {"cards": played(closing["cards"]), "winner": closing["winner"], "why": None, "closing": True}
    if trick["winner"] is not None:
        trick["winner_label"] = label(trick["winner"])
        trick["mine"] = trick["winner"] == me   # "you won it", not "won by You (Seat 1)"
        trick["winner_pos"] = pos[trick["winner"]] if 0 <= trick["winner"] < n else None
        trick["winning"] = _winning_card(trick, deck)
    # the last trick gathered (one click away, key L): the felt's when it shows one, else this hand's last
    last = trick if trick["winner"] is not None else None
    if last is None and tricks and isinstance(tricks[-1].get("winner"), int):
        t = tricks[-1]
        last = {"cards": played((p.get("seat"), p.get("card")) for p in t.get("cards", [])),
                "winner_label": label(t["winner"]), "mine": t["winner"] == me,
                "why": narration.why_won(view, t, names)}
    won = [0] * n
    for t in tricks:
        if isinstance(t.get("winner"), int) and 0 <= t["winner"] < n:
            won[t["winner"]] += 1
    left = cards_left(ctx, game, view)
    meta = {s.get("seat"): s for s in seats_meta}
    cp = view.get("current_player")
    known = view.get("known_hands") or []
    seats = []
    for s in range(n):
        m = meta.get(s, {})
        shown = known[s] if s < len(known) and s != me and isinstance(known[s], list) else None
        seats.append({
            "seat": s, "pos": pos[s], "label": label(s), "me": s == me, "turn": s == cp and not view.get("terminal"),
            "dealer": s == view.get("dealer"), "kind": m.get("kind"), "connected": m.get("connected"),
            "bot_playing": m.get("bot_playing"), "won": won[s], "bot": m.get("bot"),
            # a hand this seat may see (the replay's, a partner's): its cards, and their count is theirs
            "left": len(shown) if shown is not None else left[s],
            "shown": [face(deck, c, lang) for c in shown] if shown is not None else None,
            "took": trick["winner"] == s,
        })
    # dealt but not seen yet (Watten: the two who are not Ansager look after the Ansage): say so, rather
    # than "no cards" beside a count of five
    unseen = me is not None and not hand and bool(left[me]) and not view.get("terminal")
    hand_note = _(_decl(game, "HIDDEN_HAND") or N_("Your cards are dealt face down; you see them when the rules "
                                                   "let you.")) if unseen else None
    log = _tail(events, names, _, label)
    tell = lambda ev: " ".join(narration.event_lines([ev], names, _, label))   # noqa: E731
    result_ev, fresh = felt.last_result(events)
    result = None
    if result_ev is not None:
        result = {"hand": result_ev.get("hand"), "lines": narration.event_lines([result_ev], names, _, label),
                  "fresh": fresh}
    if view.get("terminal") or ctx.get("finished"):
        turn = _("The match is over.")
    elif cp is None:
        turn = ""
    elif cp == me:
        turn = _("Your turn.")
    else:
        turn = _("%(seat)s to act.") % {"seat": label(cp)}
    scores = _scores(view, n, label, _)
    on_felt, rows = felt.felt_rows(narration.game_rows(view, names, _), game, _)
    rows = rows + options_in_words(game, _)   # the table's own rules, in words, under Details
    columns = len(view["scores"]) if isinstance(view.get("scores"), (list, tuple)) else None
    return {
        "ctx": ctx, "game": game, "title": game.title, "variant": ctx.get("variant"), "me": me, "n": n,
        "hand_number": view.get("hand_number"), "turn": turn, "my_turn": cp == me and bool(legal),
        "seats": seats, "hand": hand, "trick": trick, "last": last, "groups": groups,
        "rows": rows, "felt_rows": on_felt, "scores": scores,
        "log": log, "result": result, "sheet": sheet.build(game, events, me, label, _, lang, tell, columns),
        "layout": _layout(game, view, lang), "family": deck.name,
        "chat": ctx.get("chat") or [], "finished": bool(ctx.get("finished") or view.get("terminal")),
        "hand_note": hand_note,
    }


def _winning_card(trick: dict, deck) -> str | None:
    """The code of the card that won a trick: the winner's card in it."""
    for p in trick["cards"]:
        if p["seat"] == trick["winner"]:
            return p["face"].code
    return None


def _tail(events: list[dict], names, _, label) -> list[tuple[int, str]]:
    """The last LOG_LINES sentences of the story, each with its event's index (stable across frames, so
    the page can tell which lines are new); told from the end so a long match costs no more."""
    out: list[tuple[int, str]] = []
    for i in range(len(events) - 1, -1, -1):
        lines = narration.event_lines([events[i]], names, _, label)
        out.extend((i, line) for line in reversed(lines))
        if len(out) >= LOG_LINES:
            break
    return out[::-1]


def _layout(game, view: dict, lang: str) -> list[dict] | None:
    """A layout the game shows instead of the trick (its page's ``layout``: rows per suit, lowest to highest)."""
    reader = _decl(game, "layout")
    layout = reader(view) if reader is not None else None
    if not isinstance(layout, dict):
        return None
    deck = game.deck
    names = deck.suit_names.get(lang) or deck.suit_names["en"]
    rows = []
    for suit, ends in layout.items():
        if suit not in deck.suit_codes:
            continue
        row = {"suit": names[deck.suit_codes.index(suit)], "cards": []}
        if ends:
            lo, hi = (deck.rank(deck.parse(c)) for c in ends)
            s = deck.suit_codes.index(suit)
            row["cards"] = [face(deck, deck.codes[deck.find(s, r)], lang) for r in range(lo, hi + 1)
                            if deck.find(s, r) is not None]
        rows.append(row)
    return rows


def _scores(view: dict, n: int, label, _) -> list[tuple[str, object]]:
    scores = view.get("scores")
    if not isinstance(scores, (list, tuple)):
        return []
    if len(scores) == n:
        return [(label(i), v) for i, v in enumerate(scores)]
    if len(scores) > 1 and n % len(scores) == 0:
        step = len(scores)
        return [(_("Side %(n)s") % {"n": i + 1} + " (" + " + ".join(label(s) for s in range(i, n, step)) + ")", v)
                for i, v in enumerate(scores)]
    return []


def render_table(ctx: dict) -> str:
    """One seat's table as an HTML fragment (the ``#table`` element's content)."""
    lang = ctx.get("lang") or "en"
    env = environment()
    tr = env.translator_for(lang)
    model = build(ctx, tr.gettext)
    return env.get_template("table.html").render(m=model, **env.i18n_globals(lang))
