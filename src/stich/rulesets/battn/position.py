"""A Battn turn set up in the middle of play: ``new_state(position={...})``.

Fields: ``hands`` (the cards each seat still holds), ``stock`` (optional, as in an explicit set-up),
``dealer``, ``scores``, ``x_team``, ``schlok`` and ``trumpf`` (the choices of BT-9/BT-10),
``tricks`` (completed tricks, each ``[[seat, card], ...]`` in playing order) and ``trick`` (the
current one), ``stake`` (default: the base, 2 or 3 with the X) and ``raise_right`` (``"both"``, or
the team ``0``/``1`` that accepted the last raise, BT-14.3), ``orbi`` (the team that called an
accepted Orbi, BT-16), ``scheanara`` (per exchange, the 5 cards R and the 5 cards D set aside,
BT-8.3; needs the dealer), ``hand`` (the number of the turn in
the match, default 1), ``window`` (``"poll"``, the default: the raise window before the next card
opens with the opponents' poll, PR-B7; ``"move"``: they have passed and the player to play is on
turn), ``raise_pending`` (the team ``0``/``1`` whose raise, to the stake + 1, awaits the other
team's answer, BT-14.5); ``to_act`` is checked if given.

The turn is dealt as given (no cut, PR-B5); the Orbi and the exchanges are replayed through the
rules; an X team plays (BT-11.2b).  The Schlòk, the Trumpf and every card are checked by the rules in order (follow
rule BT-12.4, the seat to play), so a :class:`SetupError` names the first step that does not fit;
then the stake and the raise right are set and checked, and a pending raise is made by the team's
speaker where the rules let it raise (BT-14.3, BT-14.4, PR-B7).

``position_of(state)`` (``state.position()``) is the inverse, for a turn in play.
"""

from __future__ import annotations

from stich.engine import SetupError
from stich.engine.setup import check_position_fields, dealt_cards, parse_cards, seat_card_pairs, step
from stich.rulesets.battn.cards import DECK, RANKS, SUITS
from stich.rulesets.battn.phases import BOTH, MOVE, ORBI, POLL, PREPLAY, RESPOND, SCHE_ASK

FIELDS = ("hands", "stock", "dealer", "scores", "x_team", "schlok", "trumpf", "tricks", "trick", "stake",
          "raise_right", "to_act", "hand", "window", "raise_pending", "orbi", "scheanara")


def start_position(state, pos) -> None:

    check_position_fields(pos, FIELDS, ("hands", "schlok", "trumpf"))
    hands = pos["hands"]
    if isinstance(hands, str) or not isinstance(hands, (list, tuple)) or len(hands) != 4:
        raise SetupError(f"position hands must be 4 lists of cards, one per seat, not {hands!r}")
    in_hand = [parse_cards(DECK, h, f"position hands[{p}] (seat {p})") for p, h in enumerate(hands)]
    tricks = pos.get("tricks", [])
    if isinstance(tricks, str) or not isinstance(tricks, (list, tuple)):
        raise SetupError(f"position tricks must be a list of tricks, not {tricks!r}")
    seq = []
    for t, trick in enumerate(tricks):
        if not isinstance(trick, (list, tuple)) or len(trick) != 4:
            raise SetupError(f"position tricks[{t}] must be 4 [seat, card] pairs, not {trick!r}")
        seq += seat_card_pairs(DECK, trick, f"tricks[{t}]", 4)
    current = pos.get("trick", [])
    if not isinstance(current, (list, tuple)) or len(current) > 3:
        raise SetupError(f"position trick (the current one) must be at most 3 pairs, not {current!r}")
    seq += seat_card_pairs(DECK, current, "trick", 4)
    dealt = dealt_cards(DECK.code, in_hand, seq, 5, "BT-6")
    hand = pos.get("hand", 1)
    if isinstance(hand, bool) or not isinstance(hand, int) or hand < 1:
        raise SetupError(f"position hand (the number of the turn) must be a whole number >= 1, not {hand!r}")
    state.hand_number = hand - 1   # the turn set up is the hand-th (_new_turn counts it)
    dealt, stock, swaps = _before_the_exchanges(state, pos, dealt)
    state._start(hands=[[DECK.code(c) for c in cs] for cs in dealt], stock=stock,
                 dealer=pos.get("dealer"), scores=pos.get("scores"), x_team=pos.get("x_team"))
    if "scores" in pos:   # a match taken up in progress: its scores (and its X) are public
        state.emit("scores", None, scores=list(state.scores), teams=[[0, 2], [1, 3]])
        if state.x_team is not None:
            state.emit("x_mark", None, team=state.x_team)
    # The turn up to the first card: the team given as ``orbi`` declares Orbi (its first seat
    # polled, BT-16.1) and the other accepts it (BT-16.3), nobody asks for a Scheanara; R names
    # the Schlòk, D the Trumpf; an X team plays.
    orbi = pos.get("orbi")
    if orbi is not None and (isinstance(orbi, bool) or orbi not in (0, 1)):
        raise SetupError(f"position orbi is the team 0 or 1 that called Orbi, not {orbi!r}")
    while state.phase == ORBI:
        step(state, "orbi" if orbi == state.current_player & 1 else "orbi_pass", "Orbi window")
    if orbi is not None and state.orbi_team != orbi:
        raise SetupError("position orbi: there is no Orbi window in this turn (option orbi_enabled, or a team "
                         "has the X, BT-16.1)")
    for k in range(swaps):   # BT-8: the first speaker asks, the other agrees
        if state.phase != SCHE_ASK:
            raise SetupError(f"position scheanara: exchange {k + 1} is not possible (BT-8.4: at most "
                             f"{state.opts['scheanara_max']}, option scheanara_max)")
        step(state, "scheanara", f"Scheanara {k + 1}")
        step(state, "scheanara_yes", f"Scheanara {k + 1}")
    while state.phase == SCHE_ASK:
        step(state, "scheanara_pass", "Scheanara")
    step(state, f"schlok {pos['schlok']}", "schlok")
    step(state, f"trumpf {pos['trumpf']}", "trumpf")
    if state.phase == PREPLAY:
        step(state, "orbi_accept" if orbi is not None else "x_play",
             "the answer to the Orbi" if orbi is not None else "the X team's decision")
    for i, (p, c) in enumerate(seq):
        while state.phase == POLL:
            step(state, "pass", f"raise poll before play #{i + 1}")
        if state.phase != MOVE:
            raise SetupError(f"the turn is over before play #{i + 1}")
        if p != state.current_player:
            raise SetupError(f"play #{i + 1}: seat {p} is not to play, seat {state.current_player} is "
                             f"(R leads the first trick, then each trick's winner, BT-12)")
        step(state, f"play {DECK.code(c)}", f"play #{i + 1} (seat {p})")
    if state.phase not in (POLL, MOVE):
        raise SetupError("the turn is over after these plays: there is no position left in it")
    # The stake and who may raise next (BT-14.1, BT-14.3).
    base = state.base
    stake = pos.get("stake", base)
    if isinstance(stake, bool) or not isinstance(stake, int) or not base <= stake <= state.game.stake_limit:
        raise SetupError(f"position stake must be a whole number from the base {base}"
                         + (f" to the cap {state.game.stake_limit}" if state.game.stake_limit < 1 << 62 else "")
                         + f", not {stake!r}")
    before = state.raise_right   # before any raise: both, or the team that accepted the Orbi (BT-16.4)
    right = pos.get("raise_right")
    if right is None:
        right = before if stake == base else BOTH
    elif right == "both":
        right = BOTH
    elif isinstance(right, bool) or right not in (0, 1):
        raise SetupError(f"position raise_right is 'both' or the team 0/1 that accepted the last raise, not {right!r}")
    if stake == base and right != before:
        raise SetupError("position raise_right: before any raise " + (
            "both teams may raise (BT-14.3)" if before == BOTH else
            f"the team that accepted the Orbi, {before}, raises next (BT-16.4)"))
    if stake > base and right == BOTH and state.opts["raise_alternation"]:
        raise SetupError("position raise_right: after a raise only the team that accepted it raises next "
                         "(BT-14.3): give that team, 0 or 1")
    state.stake = stake
    state.raise_right = right
    state._status()
    state._open_window()
    window = pos.get("window", "poll")
    if window not in ("poll", "move"):
        raise SetupError(f"position window is 'poll' (the opponents are asked first, PR-B7) or 'move', not {window!r}")
    if window == "move" and state.phase == POLL:
        step(state, "pass", "the opponents' poll (window 'move')")
    pending = pos.get("raise_pending")
    if pending is not None:
        if isinstance(pending, bool) or pending not in (0, 1):
            raise SetupError(f"position raise_pending is the team 0 or 1 that raised, not {pending!r}")
        seat = state._speaker(pending, state._mover())
        act = state.game.a_raise
        if act not in state.legal_actions(seat):
            raise SetupError(f"position raise_pending: team {pending} may not raise here (BT-14.3: the raise right "
                             f"is {'both' if state.raise_right == BOTH else state.raise_right}; BT-14.6, option "
                             "stake_cap; BT-15.6 for the X team)")
        state._legal = None
        state._call(seat, "raise")
        if seat != state.current_player:
            state._apply_off_turn(seat, act)
        else:
            state._apply(act)
    to_act = pos.get("to_act")
    if to_act is not None and to_act != state.current_player:
        raise SetupError(f"position to_act is {to_act!r}, but seat {state.current_player} is to act")
    state._legal = None


def _before_the_exchanges(state, pos, dealt):
    """With ``scheanara`` (the hands R and D set aside at each exchange, BT-8.3, in order): the hands
    dealt before the first exchange and a stock whose top holds the cards each exchange dealt
    (one at a time, R first), so that the exchanges replay through the rules; the cards given in
    ``stock`` are what is left under them.  Returns (dealt, stock, exchanges)."""
    swaps = pos.get("scheanara", [])
    if isinstance(swaps, str) or not isinstance(swaps, (list, tuple)):
        raise SetupError(f"position scheanara must be the list of exchanges, each [R's 5 cards, D's 5 cards] "
                         f"set aside, not {swaps!r}")
    if not swaps:
        return dealt, pos.get("stock"), 0
    d = pos.get("dealer")
    if isinstance(d, bool) or d not in (0, 1, 2, 3):
        raise SetupError("position scheanara needs the dealer (R and D exchange, BT-8.3)")
    r = (d + 1) & 3
    chain = []
    for k, pair in enumerate(swaps):
        if not (isinstance(pair, (list, tuple)) and len(pair) == 2):
            raise SetupError(f"position scheanara[{k}] must be [R's 5 cards, D's 5 cards], not {pair!r}")
        cards = [parse_cards(DECK, h, f"position scheanara[{k}]") for h in pair]
        if any(len(h) != 5 for h in cards):
            raise SetupError(f"position scheanara[{k}]: R and D each set aside 5 cards (BT-8.3)")
        chain.append(cards)
    chain.append([dealt[r], dealt[d]])
    first = [list(h) for h in dealt]
    first[r], first[d] = chain[0]
    top = []
    for new_r, new_d in chain[1:]:
        for i in range(5):
            top += [new_r[i], new_d[i]]
    used = {c for h in first for c in h} | set(top)
    if len(used) != 20 + 10 * len(swaps) or len(top) != 10 * len(swaps):
        raise SetupError("position scheanara: a card is in two places (hands, plays and the cards set aside)")
    if pos.get("stock") is None:
        rest = [c for c in range(len(DECK)) if c not in used]
        rest = [rest[i] for i in state.shuffled(len(rest), 1, "stock")]
    else:
        rest = parse_cards(DECK, pos["stock"], "position stock")
    return first, [DECK.code(c) for c in top + rest], len(swaps)


def position_of(state) -> dict:
    """The ``position=`` of a Battn turn in play (the inverse of ``start_position``): a SetupError
    at a moment a position does not describe (before the first card's window, after an Orbi or a
    Scheanara exchange, a manual-mode call, the end of the match)."""
    events = [ev for _aud, ev in state.events]
    if state.phase not in (POLL, MOVE, RESPOND) or state.svista is not None or any(state.misraised):
        raise SetupError("a Battn position is a turn in play, without a manual-mode call")
    start = max(i for i, ev in enumerate(events) if ev["type"] == "hand_start")
    plays = [[ev["seat"], ev["card"]] for ev in events[start:] if ev["type"] == "play"]
    done = len(plays) // 4 * 4
    pos = {
        "hands": [DECK.codes_of(h) for h in state.hands], "stock": [DECK.code(c) for c in state.stock],
        "dealer": state.dealer, "x_team": state.x_team,
        "schlok": RANKS[state.schlok], "trumpf": SUITS[state.trumpf],
        "tricks": [plays[i:i + 4] for i in range(0, done, 4)], "trick": plays[done:],
        "stake": state.stake, "raise_right": "both" if state.raise_right == BOTH else state.raise_right,
        "hand": state.hand_number,
    }
    if state.hand_number > 1 or any(state.scores):
        pos["scores"] = list(state.scores)
    if state.orbi_team is not None:
        pos["orbi"] = state.orbi_team
    if state.scheanara_count:   # the hands R and D set aside: their deals before the last one
        deals = {state.R: [], state.dealer: []}
        for ev in events[start:]:
            if ev["type"] == "deal" and ev["seat"] in deals:
                deals[ev["seat"]].append(ev["cards"])
        pos["scheanara"] = [[deals[state.R][k], deals[state.dealer][k]] for k in range(state.scheanara_count)]
    if state.phase == RESPOND:   # (either team's speaker may raise in either window)
        pos["raise_pending"] = state.pending
    elif state.phase == MOVE:
        pos["window"] = "move"
    return pos

