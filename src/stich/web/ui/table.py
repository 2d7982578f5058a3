"""``render_table(ctx)``: one seat's table as an HTML fragment, built only from what ctx holds.

ctx (see docs/web-protocol.md): ``table, game, variant, options, seat, view, legal, events, seats,
lang, seq, finished, chat``.  ``view`` is ``state.view(seat)`` and ``events`` the events that seat may
see, so nothing here can show a card the seat may not know: other seats' cards appear as a count and
as plain backs (no text, no alt, no data attribute).
"""

from __future__ import annotations

from functools import lru_cache

import stich
from stich.web.ui import narration
from stich.web.ui.cards import face
from stich.web.ui.env import environment

#: verbs whose argument is a card of the seat's hand: shown as the hand's buttons
HAND_VERBS = frozenset({"play"})
#: events that close a hand (or a Battn turn) and say who won it and why
RESULT_TYPES = ("hand_result", "turn_result", "deal_result", "match_end")
#: a verb with more choices than this is a drop-down list and one button (bids, cuts)
MAX_BUTTONS = 10
#: narration lines kept on the page (the full story is in the replay)
LOG_LINES = 60
#: cards dealt to each seat per hand, where it is not the deck divided among the players
HAND_SIZE = {"watten": 5, "battn": 5}


def N_(msgid: str) -> str:
    """Marks a word for the catalogues; it is translated where it is shown."""
    return msgid


#: the words on the action buttons (English msgids, translated in the catalogues)
VERBS = {
    "play": N_("play"), "pass": N_("pass"), "raise": N_("raise"), "accept": N_("accept"), "fold": N_("fold"),
    "cut": N_("cut"), "schlag": N_("Schlag"), "trump": N_("trump"), "show": N_("show"),
    "challenge": N_("challenge (Farbe!)"), "hold": N_("hold"), "concede": N_("concede"),
    "ask_exchange": N_("ask for the Schönere"), "agree_exchange": N_("agree to the Schönere"),
    "refuse_exchange": N_("refuse the Schönere"), "ask_swap": N_("ask for the Schlagtausch"),
    "agree_swap": N_("agree to the Schlagtausch"), "refuse_swap": N_("refuse the Schlagtausch"),
    "cut_done": N_("stop cutting"), "orbi": N_("Orbi"), "orbi_pass": N_("no Orbi"),
    "orbi_accept": N_("accept the Orbi"), "orbi_refuse": N_("refuse the Orbi"),
    "scheanara": N_("Scheanara"), "scheanara_pass": N_("no Scheanara"), "scheanara_yes": N_("yes"),
    "scheanara_no": N_("no"), "schlok": N_("Schlòk"), "trumpf": N_("Trumpf"), "x_play": N_("play the X"),
    "x_decline": N_("decline the X"), "misraise": N_("misraise"), "svista": N_("svista"),
    "bid": N_("bid"), "call": N_("call"), "contract": N_("contract"), "double": N_("double"),
    "redouble": N_("redouble"),
}
#: games whose trick winner is told by its card's kind (Battn's Critici and Schlòk are left to its narration)
WHY_GAMES = frozenset({"watten", "biscambiggia", "barbu"})
#: verbs whose argument is a suit / a rank
SUIT_VERBS = frozenset({"trump", "trumpf"})
RANK_VERBS = frozenset({"schlag", "schlok"})
#: Watten's regional calls, said next to the verb (rules file §2.8: "gehen" raises in Bavaria and
#: Tyrol but gives up in South Tyrol, where one raises by "bieten")
REGIONAL = {
    "euregio": {"raise": "bieten", "fold": "gehen", "hold": "heben", "concede": "gehen"},
    "*": {"raise": "gehen", "accept": "schauen"},
}
#: Barbu's contracts by their French names
CONTRACTS = {"NO_TRICKS": N_("no tricks (pas de plis)"), "NO_HEARTS": N_("no hearts (pas de cœurs)"),
             "NO_QUEENS": N_("no queens (pas de dames)"), "BARBU": N_("no king of hearts (barbu)"),
             "NO_LAST_TWO": N_("not the last two (pas les deux derniers)"), "TRUMPS": N_("trumps (atout)"),
             "DOMINO": N_("domino (réussite)")}


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


def _arg_text(verb: str, arg: str, game, _, lang: str) -> str:
    """An action's argument in words: a card's, suit's or rank's name, seats by number, else as written."""
    deck = game.deck
    if deck.is_card(arg):
        return face(deck, arg, lang).name
    if verb in ("double", "redouble"):
        return ", ".join(_("Seat %(n)s") % {"n": a} for a in arg.split(","))
    if arg in deck.suit_codes and verb in SUIT_VERBS:
        names = deck.suit_names.get(lang) or deck.suit_names["en"]
        return names[deck.suit_codes.index(arg)]
    if arg in deck.rank_codes and verb in RANK_VERBS:
        if game.name == "watten" and arg == "6":
            return "Weli"
        names = deck.rank_names.get(lang) or deck.rank_names["en"]
        return names[deck.rank_codes.index(arg)]
    return arg


def action_label(action: str, game, variant: str, _, lang: str) -> str:
    """An action as its button says it: the verb in the reader's language (with Watten's regional call),
    then its argument in words; Barbu's ``double 4 redouble 2`` reads as two parts."""
    words = action.split()
    parts = []
    i = 0
    while i < len(words):
        verb = words[i]
        arg = words[i + 1] if i + 1 < len(words) and words[i + 1] not in VERBS else ""
        i += 2 if arg else 1
        if verb == "contract" and arg:
            text = _(CONTRACTS.get(arg, arg))
            if i < len(words):   # TRUMPS S, DOMINO 7
                extra = words[i]
                i += 1
                text += ": " + _arg_text("trump" if arg == "TRUMPS" else "schlag", extra, game, _, lang)
            parts.append(text)
            continue
        word = _(VERBS[verb]) if verb in VERBS else verb.replace("_", " ")
        calls = REGIONAL["euregio"] if variant == "euregio" else REGIONAL["*"]
        if game.name == "watten" and verb in calls:
            word = f"{word} („{calls[verb]}“)"
        parts.append(f"{word}: {_arg_text(verb, arg, game, _, lang)}" if arg else word)
    return " · ".join(parts)


def _group_key(action: str) -> str:
    """Actions that share a button group: same verb (Barbu's contracts: same contract)."""
    words = action.split()
    return " ".join(words[:2]) if words[0] == "contract" and len(words) > 2 else words[0]


def cards_left(ctx: dict, game, view: dict) -> list[int | None]:
    """Cards each seat still holds this hand: the deal minus what each has played (None: unknown)."""
    n = game.num_players
    size = HAND_SIZE.get(game.name, len(game.deck) // n)
    played = [0] * n
    for t in view.get("tricks") or []:
        for p in t.get("cards", []):
            if isinstance(p.get("seat"), int):
                played[p["seat"]] += 1
    for p in view.get("trick") or []:
        if isinstance(p.get("seat"), int):
            played[p["seat"]] += 1
    if game.name == "barbu" and view.get("contract") == "DOMINO":
        return [None] * n
    return [max(size - k, 0) for k in played]


def _action_groups(legal, game, ctx, _, lang):
    """The non-hand actions as groups: buttons, or one list + button where a verb has many choices."""
    groups: dict[str, list[str]] = {}
    hand_actions = []
    for a in legal:
        verb, _sep, arg = a.partition(" ")
        if verb in HAND_VERBS and game.deck.is_card(arg):
            hand_actions.append(a)
            continue
        groups.setdefault(_group_key(a), []).append(a)
    out = []
    for verb, actions in groups.items():
        if len(actions) > MAX_BUTTONS:
            head = verb.split()
            label = _(CONTRACTS[head[1]]) if head[0] == "contract" and len(head) > 1 and head[1] in CONTRACTS \
                else _(VERBS.get(verb, verb))
            texts = [action_label(a, game, ctx["variant"], _, lang) for a in actions]
            prefix = texts[0].split(": ", 1)[0] + ": "
            if all(t.startswith(prefix) for t in texts):   # "bid: 63" in a list labelled "bid": just "63"
                texts = [t[len(prefix):] for t in texts]
            out.append({"kind": "select", "verb": verb.replace(" ", "-"), "label": label,
                        "choices": list(zip(actions, texts, strict=True))})
        else:
            for a in actions:
                arg = a.partition(" ")[2]
                card = face(game.deck, arg, lang) if arg and game.deck.is_card(arg) else None
                out.append({"kind": "button", "action": a, "label": action_label(a, game, ctx["variant"], _, lang),
                            "card": card})
    return hand_actions, out


def build(ctx: dict, _) -> dict:
    """The page model of one seat's table."""
    game = game_of(ctx)
    lang = ctx.get("lang") or "en"
    view = ctx.get("view") or {}
    me = ctx.get("seat")
    legal = [str(a) for a in ctx.get("legal") or ()]
    seats_meta = ctx.get("seats") or []
    names = narration.names_for(game, lang, me)
    deck = game.deck
    n = game.num_players
    label = lambda s: seat_label(s, seats_meta, me, _)   # noqa: E731
    hand_actions, groups = _action_groups(legal, game, ctx, _, lang)
    legal_cards = {a.partition(" ")[2] for a in hand_actions}
    hand = []
    shortcut = 0
    for code in view.get("hand") or []:
        item = {"face": face(deck, code, lang), "action": f"play {code}" if code in legal_cards else None}
        if item["action"]:
            shortcut += 1
            item["key"] = str(shortcut % 10) if shortcut <= 10 else None
        hand.append(item)
    trick = [{"seat": label(p["seat"]), "face": face(deck, p["card"], lang)} for p in view.get("trick") or []]
    tricks = view.get("tricks") or []
    last = None
    if tricks:
        t = tricks[-1]
        last = {"cards": [{"seat": label(p["seat"]), "face": face(deck, p["card"], lang)} for p in t.get("cards", [])],
                "winner": label(t["winner"]) if isinstance(t.get("winner"), int) else None,
                "why": why_won(game, view, t, names, _)}
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
        shown = known[s] if s < len(known) and s != me else None
        seats.append({
            "seat": s, "label": label(s), "me": s == me, "turn": s == cp and not view.get("terminal"),
            "dealer": s == view.get("dealer"), "kind": m.get("kind"), "connected": m.get("connected"),
            "bot_playing": m.get("bot_playing"), "left": left[s], "won": won[s],
            "shown": [face(deck, c, lang) for c in shown] if shown else None,
        })
    events = list(ctx.get("events") or [])
    log = _tail(events, names, _, label)
    result = None
    for ev in reversed(events):
        if ev.get("type") in RESULT_TYPES:
            result = narration.event_lines([ev], names, _, label)
            break
    if view.get("terminal") or ctx.get("finished"):
        turn = _("The match is over.")
    elif cp is None:
        turn = ""
    elif cp == me:
        turn = _("Your turn.")
    else:
        turn = _("%(seat)s to act.") % {"seat": label(cp)}
    return {
        "ctx": ctx, "game": game, "title": game.title, "variant": ctx.get("variant"), "me": me,
        "hand_number": view.get("hand_number"), "turn": turn, "my_turn": cp == me and bool(legal),
        "seats": seats, "hand": hand, "trick": trick, "last": last, "groups": groups,
        "rows": narration.game_rows(view, names, _), "scores": _scores(view, n, label, _),
        "log": log, "result": result, "sheet": _sheet(game, events, label, _),
        "layout": _layout(game, view, lang), "family": deck.name,
        "chat": ctx.get("chat") or [], "finished": bool(ctx.get("finished")),
    }


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


def why_won(game, view: dict, trick: dict, names, _) -> str | None:
    """Why the trick's winning card won, in the players' words: Watten's named cards (the Rechte,
    the Guate ...), a trump, the highest trump, the highest of the suit led; None when unknown."""
    if game.name not in WHY_GAMES:
        return None
    cards, winner = trick.get("cards") or [], trick.get("winner")
    won = next((p["card"] for p in cards if p.get("seat") == winner), None)
    if not cards or won is None or not game.deck.is_card(won):
        return None
    for name, codes in narration.special_cards(view, names):
        if won in codes:
            return _("the %(name)s") % {"name": name}
    deck = game.deck
    suit_of = lambda code: deck.suit_codes[deck.suit(deck.parse(code))]   # noqa: E731
    trump = view.get("trump")
    led = suit_of(cards[0]["card"])
    if trump in deck.suit_codes and suit_of(won) == trump:
        return _("the highest trump") if led == trump else _("a trump")
    if suit_of(won) == led:
        return _("the highest card of the suit led")
    return None


def _layout(game, view: dict, lang: str) -> list[dict] | None:
    """Barbu's domino layout: one row per suit, its cards from the lowest to the highest laid."""
    layout = view.get("layout") if game.name == "barbu" else None
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


def _sheet(game, events: list[dict], label, _) -> dict | None:
    """Barbu's score sheet: one row per deal (caller, contract, points of each seat), running totals."""
    if game.name != "barbu":
        return None
    rows, totals = [], [0] * game.num_players
    for ev in events:
        if ev.get("type") != "deal_result" or not isinstance(ev.get("final"), list):
            continue
        totals = [a + b for a, b in zip(totals, ev["final"], strict=False)]
        rows.append({"hand": ev.get("hand"), "caller": label(ev["caller"]) if isinstance(ev.get("caller"), int)
                     else "", "contract": _(CONTRACTS.get(ev.get("contract"), str(ev.get("contract")))),
                     "final": ev["final"]})
    return {"heads": [label(s) for s in range(game.num_players)], "rows": rows, "totals": totals,
            "deals": 7 * game.num_players}


def render_table(ctx: dict) -> str:
    """One seat's table as an HTML fragment (the ``#table`` element's content)."""
    lang = ctx.get("lang") or "en"
    env = environment()
    tr = env.translator_for(lang)
    model = build(ctx, tr.gettext)
    return env.get_template("table.html").render(m=model, **env.i18n_globals(lang))
