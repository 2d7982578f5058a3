"""A Barbu deal set up in the middle of play: ``new_state(position={...})``.

The position names the deal (``hand_number``, ``first_caller`` or ``dealer``, ``used_contracts``,
``caller_doubles``, ``scores``: the fields of an explicit set-up), the cards still in each hand
(``hands``), the declaration (``contract``, in the action's notation: ``"TRUMPS H"``, ``"DOMINO 8"``,
``"BARBU"``), the doubling round (``doubling``: the four turns in order, e.g. ``["pass", "double 0",
"pass", "redouble 1"]``; default: four passes) and the cards played so far: ``tricks`` (the completed
tricks, each ``[[seat, card], ...]`` in playing order) and ``trick`` (the current one), or for the
domino ``plays`` (``[[seat, card or "pass"], ...]``).  Seats are 0-based; ``to_act``, if given, is
checked.  Without ``contract`` the position is at the declaration; with fewer than four doubling
turns, in the doubling round (no card played yet, either way).

Every step is checked by the rules themselves: the hand each seat was dealt is its cards in hand
plus those it played, the declaration must be available to the caller, each doubling turn and
each card must be legal when it is made (follow suit, hearts, overtrumping, the domino layout),
and the deal must not be over.  A :class:`SetupError` names the first step that does not fit.

``position_of(state)`` (``state.position()``) is the inverse, for a deal that has been dealt.
"""

from __future__ import annotations

from stich.engine import SetupError
from stich.engine.setup import check_position_fields, dealt_cards, parse_cards, seat_card_pairs
from stich.engine.setup import step as _step
from stich.rulesets.barbu import rules as R
from stich.rulesets.barbu.phases import DECLARE, DOMINO, DOUBLING, TRICKS

FIELDS = ("hands", "contract", "doubling", "tricks", "trick", "plays", "to_act", "dealer", "first_caller",
          "hand_number", "used_contracts", "caller_doubles", "scores")
_CONTEXT = ("dealer", "first_caller", "hand_number", "used_contracts", "caller_doubles", "scores")


def start_position(state, pos) -> None:

    check_position_fields(pos, FIELDS, ("hands",))
    hands = pos["hands"]
    if isinstance(hands, str) or not isinstance(hands, (list, tuple)) or len(hands) != 4:
        raise SetupError(f"position hands must be 4 lists of cards (P0..P3), not {hands!r}")
    in_hand = [parse_cards(R.DECK, h, f"position hands[{p}] (P{p})") for p, h in enumerate(hands)]
    domino = str(pos.get("contract", "")).strip().upper().startswith("DOMINO")
    if domino and ("tricks" in pos or "trick" in pos):
        raise SetupError("a DOMINO position lists its cards in plays, not tricks")
    if not domino and "plays" in pos:
        raise SetupError("a trick contract lists its cards in tricks and trick, not plays")
    seq = _sequence(pos, domino)
    # The deal: each seat's cards in hand plus the cards it has played.
    dealt = dealt_cards(R.CODES.__getitem__, in_hand, seq, 13, "§1.4", seat_word="P")
    state._start(hands=[[R.CODES[c] for c in cs] for cs in dealt],
                 **{k: pos[k] for k in _CONTEXT if pos.get(k) is not None})
    if pos.get("scores") is not None:   # a match taken up in progress: its totals are public
        state._events.append((None, {"scores": list(state.scores), "type": "scores"}))
    # The declaration and the doubling round, each checked against the legal actions.
    if "contract" not in pos:
        if seq or "doubling" in pos:
            raise SetupError("position contract: the caller declares before any doubling or card (§1.4)")
        _check_to_act(state, pos)
        return
    _step(state, f"contract {pos['contract']}", "the declaration")
    doubling = pos.get("doubling", ["pass"] * 4)
    if isinstance(doubling, str) or not isinstance(doubling, (list, tuple)) or len(doubling) > 4:
        raise SetupError(f"position doubling must be the doubling turns in order, at most 4 (e.g. 'pass', "
                         f"'double 1'), not {doubling!r}")
    for i, text in enumerate(doubling):
        _step(state, str(text), f"doubling turn {i + 1} (P{state.current_player})")
    if len(doubling) < 4:
        if seq:
            raise SetupError("position doubling: cards are played only after the four doubling turns (§3.2)")
        _check_to_act(state, pos)
        return
    if state.phase not in (TRICKS, DOMINO):
        raise SetupError("nobody doubled this negative contract, so it is not played (§4, R-14): "
                         "there is no position in it")
    for i, (p, c) in enumerate(seq):
        if state.phase not in (TRICKS, DOMINO):
            raise SetupError(f"the deal is over before play #{i + 1}")
        if p != state.current_player:
            raise SetupError(f"play #{i + 1}: P{p} is not to play, P{state.current_player} is "
                             f"(the caller leads, then the winner of each trick, §2.1)")
        _step(state, "pass" if c is None else f"play {R.CODES[c]}", f"play #{i + 1} (P{p})")
    if state.phase not in (TRICKS, DOMINO):
        raise SetupError("the deal is over after these plays: there is no position left in it")
    _check_to_act(state, pos)


def _check_to_act(state, pos) -> None:
    to_act = pos.get("to_act")
    if to_act is not None and to_act != state.current_player:
        raise SetupError(f"position to_act is {to_act!r}, but P{state.current_player} is to act")
    state._legal = None


def position_of(state) -> dict:
    """The ``position=`` of a Barbu deal that has been dealt (the inverse of ``start_position``);
    a SetupError between deals or at the end of the match."""
    events = [ev for _aud, ev in state.events]   # (the property runs a deferred deal first)
    if state.phase not in (DECLARE, DOUBLING, TRICKS, DOMINO):
        raise SetupError("a Barbu position is a deal that has been dealt and is not over")
    start = max(i for i, ev in enumerate(events) if ev["type"] == "hand_start")
    c = state.caller
    used = list(state.used)
    dcount = list(state.dcount)
    for p, doubles, _r in state.doubling_log:   # this deal's doubles of the caller (§3.3) are in the position
        if doubles >> c & 1:
            dcount[4 * c + p] -= 1
    pos = {"hands": [R.DECK.codes_of(h) for h in state.hands], "first_caller": state.first_caller,
           "hand_number": state.hand_number,
           "used_contracts": [[R.CONTRACTS[k] for k in range(7) if used[p] >> k & 1] for p in range(4)],
           "caller_doubles": [dcount[4 * q:4 * q + 4] for q in range(4)]}
    if state.hand_number > 1 or any(state.scores):
        pos["scores"] = list(state.scores)
    if state.phase == DECLARE:
        return pos
    param = state.trump if state.contract == R.TRUMPS else state.domino_rank if state.contract == R.DOMINO else None
    pos["contract"] = state.game.a_contract[state.contract, param].arg
    pos["doubling"] = [R.doubling_text(d, r) for _p, d, r in state.doubling_log]
    if state.phase == DOMINO:
        pos["plays"] = [[ev["seat"], ev["card"] if ev["type"] == "domino_play" else "pass"]
                        for ev in events[start:] if ev["type"] in ("domino_play", "domino_pass")]
    elif state.phase == TRICKS:
        plays = [[ev["seat"], ev["card"]] for ev in events[start:] if ev["type"] == "play"]
        done = len(plays) // 4 * 4
        pos.update(tricks=[plays[i:i + 4] for i in range(0, done, 4)], trick=plays[done:])
    return pos


def _sequence(pos, domino: bool) -> list[tuple[int, int | None]]:
    """The plays so far as (seat, card index or None for a domino pass)."""
    out = []
    if domino:
        items = pos.get("plays", [])
        where = "plays"
        groups = [items]
    else:
        tricks = pos.get("tricks", [])
        if isinstance(tricks, str) or not isinstance(tricks, (list, tuple)):
            raise SetupError(f"position tricks must be a list of tricks, not {tricks!r}")
        for t, trick in enumerate(tricks):
            if not isinstance(trick, (list, tuple)) or len(trick) != 4:
                raise SetupError(f"position tricks[{t}] must be 4 [seat, card] pairs, not {trick!r}")
        trick = pos.get("trick", [])
        if isinstance(trick, str) or not isinstance(trick, (list, tuple)) or len(trick) > 3:
            raise SetupError(f"position trick (the current one) must be at most 3 [seat, card] pairs, not {trick!r}")
        groups = [*tricks, trick]
        where = "tricks"
    for group in groups:
        out += seat_card_pairs(R.DECK, group, where, 4, passes=domino)
    return out
