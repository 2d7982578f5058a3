"""A Biscambiggia hand set up in the middle of play: ``new_state(position={...})``.

Fields: ``hands`` (the cards each seat still holds), ``dealer``, ``scores`` (marche, zero-sum),
``auction`` (the bids and passes in order, as action texts: ``["bid 70", "pass", "bid 75", ...]``),
``call`` (the called card), ``tricks`` (completed tricks, each ``[[seat, card], ...]`` in playing
order) and ``trick`` (the current one); ``to_act`` is checked if given.  Seats are 0-based.

Each seat was dealt its cards in hand plus those it played (8 each, BB-2.3); the auction, the call
and every card are then checked by the rules in order, so a :class:`SetupError` names the first
step that does not fit.  The position is the first hand of the match (hand number 1).
"""

from __future__ import annotations

from stich.engine import SetupError
from stich.engine.setup import check_position_fields, dealt_cards, parse_cards, seat_card_pairs, step
from stich.rulesets.biscambiggia.phases import AUCTION, PLAY
from stich.rulesets.biscambiggia.rules import CARDS_EACH, DECK, NUM_PLAYERS

FIELDS = ("hands", "dealer", "scores", "auction", "call", "tricks", "trick", "to_act")


def start_position(state, pos) -> None:

    deck, players, per_seat, play_phase = DECK, NUM_PLAYERS, CARDS_EACH, PLAY
    check_position_fields(pos, FIELDS, ("hands", "auction", "call"))
    hands = pos["hands"]
    if isinstance(hands, str) or not isinstance(hands, (list, tuple)) or len(hands) != players:
        raise SetupError(f"position hands must be {players} lists of cards, one per seat, not {hands!r}")
    in_hand = [parse_cards(deck, h, f"position hands[{p}] (seat {p + 1})") for p, h in enumerate(hands)]
    tricks = pos.get("tricks", [])
    if isinstance(tricks, str) or not isinstance(tricks, (list, tuple)):
        raise SetupError(f"position tricks must be a list of tricks, not {tricks!r}")
    seq = []
    for t, trick in enumerate(tricks):
        if not isinstance(trick, (list, tuple)) or len(trick) != players:
            raise SetupError(f"position tricks[{t}] must be {players} [seat, card] pairs, not {trick!r}")
        seq += seat_card_pairs(deck, trick, f"tricks[{t}]", players)
    current = pos.get("trick", [])
    if not isinstance(current, (list, tuple)) or len(current) >= players:
        raise SetupError(f"position trick (the current one) must be at most {players - 1} pairs, not {current!r}")
    seq += seat_card_pairs(deck, current, "trick", players)
    dealt = dealt_cards(deck.code, in_hand, seq, per_seat, "BB-2.3")
    state._start(hands=[[deck.code(c) for c in cs] for cs in dealt], dealer=pos.get("dealer"),
                 scores=pos.get("scores"))
    auction = pos["auction"]
    if isinstance(auction, str) or not isinstance(auction, (list, tuple)):
        raise SetupError(f"position auction must be the list of bids and passes in order, not {auction!r}")
    for i, text in enumerate(auction):
        if state.phase != AUCTION:
            raise SetupError(f"position auction: the auction is over before {text!r} (BB-3.6)")
        step(state, str(text), f"auction #{i + 1} (seat {state.current_player})")
    if state.hand_number != 1 or state.caller < 0:
        raise SetupError("position auction: it does not end with a contract (all but the high bidder must "
                         "pass, BB-3.6; five passes throw the cards in, BB-3.8)")
    step(state, f"call {pos['call']}", "call")
    for i, (p, c) in enumerate(seq):
        if state.phase != play_phase:
            raise SetupError(f"the hand is over before play #{i + 1}")
        if p != state.current_player:
            raise SetupError(f"play #{i + 1}: seat {p} is not to play, seat {state.current_player} is "
                             f"(the player at the dealer's right leads, then each trick's winner, BB-5)")
        step(state, f"play {deck.code(c)}", f"play #{i + 1} (seat {p})")
    if state.phase != play_phase:
        raise SetupError("the hand is over after these plays: there is no position left in it")
    to_act = pos.get("to_act")
    if to_act is not None and to_act != state.current_player:
        raise SetupError(f"position to_act is {to_act!r}, but seat {state.current_player} is to play")
    state._legal = None
