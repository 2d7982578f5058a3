"""A Battn turn set up in the middle of play: ``new_state(position={...})``.

Fields: ``hands`` (the cards each seat still holds), ``stock`` (optional, as in an explicit set-up),
``dealer``, ``scores``, ``x_team``, ``schlok`` and ``trumpf`` (the choices of BT-9/BT-10),
``tricks`` (completed tricks, each ``[[seat, card], ...]`` in playing order) and ``trick`` (the
current one), ``stake`` (default: the base, 2 or 3 with the X) and ``raise_right`` (``"both"``, or
the team ``0``/``1`` that accepted the last raise, BT-14.3); ``to_act`` is checked if given.

The turn is the first of the match, dealt as given (no cut, PR-B5), without an Orbi or a
Scheanara exchange; an X team plays (BT-11.2b).  The Schlòk, the Trumpf and every card are checked
by the rules in order (follow rule BT-12.4, the seat to play), so a :class:`SetupError` names the
first step that does not fit; then the stake and the raise right are set and checked.
"""

from __future__ import annotations

from stich.engine import SetupError
from stich.engine.setup import check_position_fields, dealt_cards, parse_cards, seat_card_pairs, step
from stich.rulesets.battn.cards import DECK
from stich.rulesets.battn.phases import BOTH, MOVE, ORBI, POLL, PREPLAY, SCHE_ASK

FIELDS = ("hands", "stock", "dealer", "scores", "x_team", "schlok", "trumpf", "tricks", "trick", "stake",
          "raise_right", "to_act")


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
    state._start(hands=[[DECK.code(c) for c in cs] for cs in dealt], stock=pos.get("stock"),
                 dealer=pos.get("dealer"), scores=pos.get("scores"), x_team=pos.get("x_team"))
    # The turn up to the first card: nobody declares Orbi or asks for a Scheanara; R names the
    # Schlòk, D the Trumpf; an X team plays.
    while state.phase == ORBI:
        step(state, "orbi_pass", "Orbi window")
    while state.phase == SCHE_ASK:
        step(state, "scheanara_pass", "Scheanara")
    step(state, f"schlok {pos['schlok']}", "schlok")
    step(state, f"trumpf {pos['trumpf']}", "trumpf")
    if state.phase == PREPLAY:
        step(state, "x_play", "the X team's decision")
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
    right = pos.get("raise_right", "both")
    if right in ("both", None):
        right = BOTH
    elif isinstance(right, bool) or right not in (0, 1):
        raise SetupError(f"position raise_right is 'both' or the team 0/1 that accepted the last raise, not {right!r}")
    if stake == base and right != BOTH:
        raise SetupError("position raise_right: before any raise both teams may raise (BT-14.3)")
    if stake > base and right == BOTH and state.opts["raise_alternation"]:
        raise SetupError("position raise_right: after a raise only the team that accepted it raises next "
                         "(BT-14.3): give that team, 0 or 1")
    state.stake = stake
    state.raise_right = right
    state._status()
    state._open_window()
    to_act = pos.get("to_act")
    if to_act is not None and to_act != state.current_player:
        raise SetupError(f"position to_act is {to_act!r}, but seat {state.current_player} is to act")
    state._legal = None
