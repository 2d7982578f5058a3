"""A Biscambiggia hand set up in the middle of play: ``new_state(position={...})``.

Fields: ``hands`` (the cards each seat still holds), ``dealer``, ``scores`` (marche, zero-sum),
``auction`` (the bids and passes in order, as action texts: ``["bid 70", "pass", "bid 75", ...]``),
``call`` (the called card), ``tricks`` (completed tricks, each ``[[seat, card], ...]`` in playing
order) and ``trick`` (the current one), ``hand`` (the hand's number in the match, default 1) and
``deal`` (the deal's, thrown-in deals included, BB-3.8; default the hand's); ``to_act`` is checked if
given.  Seats are 0-based.  Without ``call`` the position is in the auction (``auction`` so far,
default none) or at the call; without ``tricks`` and ``trick`` at the first lead.

Each seat was dealt its cards in hand plus those it played (8 each, BB-2.3); the auction, the call
and every card are then checked by the rules in order, so a :class:`SetupError` names the first
step that does not fit.

``position_of(state)`` (``state.position()``) is the inverse, for a hand that has been dealt.
"""

from __future__ import annotations

from stich.engine import SetupError
from stich.engine.setup import check_position_fields, dealt_cards, parse_cards, seat_card_pairs, step
from stich.rulesets.biscambiggia.phases import AUCTION, CALL, PLAY
from stich.rulesets.biscambiggia.rules import CARDS_EACH, DECK, NUM_PLAYERS

FIELDS = ("hands", "dealer", "scores", "auction", "call", "tricks", "trick", "to_act", "hand", "deal")


def start_position(state, pos) -> None:

    deck, players, per_seat, play_phase = DECK, NUM_PLAYERS, CARDS_EACH, PLAY
    check_position_fields(pos, FIELDS, ("hands",))
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
    hand, deal = pos.get("hand", 1), pos.get("deal", pos.get("hand", 1))
    o = state.game.options
    for what, n in (("hand", hand), ("deal", deal)):
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise SetupError(f"position {what} must be a whole number >= 1, not {n!r}")
    if deal < hand:
        raise SetupError(f"position deal ({deal}) cannot be before the hand ({hand}): every hand is a deal, "
                         "and thrown-in deals (BB-3.8) add to them")
    if hand > o.hands_per_match and o.tie_break != "extra_rounds":
        raise SetupError(f"position hand: the match has {o.hands_per_match} hands (BB-1.3, option hands_per_match)")
    state._open_match(hands=[[deck.code(c) for c in cs] for cs in dealt], dealer=pos.get("dealer"),
                      scores=pos.get("scores"), hand=hand, deal=deal)
    if hand > o.hands_per_match:   # B4-13: extra rounds are played only while the top is tied
        top = max(state.scores)
        if state.scores.count(top) < 2:
            raise SetupError(f"position hand {hand}: after {o.hands_per_match} hands the match goes on only "
                             "while the top score is tied (B4-13)")
    auction = pos.get("auction", [])
    if isinstance(auction, str) or not isinstance(auction, (list, tuple)):
        raise SetupError(f"position auction must be the list of bids and passes in order, not {auction!r}")
    for i, text in enumerate(auction):
        if state.phase != AUCTION:
            raise SetupError(f"position auction: the auction is over before {text!r} (BB-3.6)")
        step(state, str(text), f"auction #{i + 1} (seat {state.current_player})")
    if state.hand_number != hand or state.deal_number != deal:
        raise SetupError("position auction: five passes throw the cards in (BB-3.8); a position is in a deal")
    if "call" not in pos:
        if seq:
            raise SetupError("position call: cards are played only after the call (BB-4.1)")
        _check_to_act(state, pos)
        return
    if state.caller < 0:
        raise SetupError("position auction: it does not end with a contract (all but the high bidder must "
                         "pass, BB-3.6)")
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
    _check_to_act(state, pos)


def _check_to_act(state, pos) -> None:
    to_act = pos.get("to_act")
    if to_act is not None and to_act != state.current_player:
        raise SetupError(f"position to_act is {to_act!r}, but seat {state.current_player} is to act")
    state._legal = None


def position_of(state) -> dict:
    """The ``position=`` of a Biscambiggia hand that has been dealt (the inverse of
    ``start_position``); a SetupError between hands or at the end of the match."""
    events = [ev for _aud, ev in state.events]   # (the property runs a deferred deal first)
    if state.phase not in (AUCTION, CALL, PLAY):
        raise SetupError("a Biscambiggia position is a hand that has been dealt and is not over")
    start = max(i for i, ev in enumerate(events) if ev["type"] == "hand_start")
    auction, plays = [], []
    for ev in events[start:]:
        if ev["type"] == "bid":
            auction.append(f"bid {ev['bid']}")
        elif ev["type"] == "pass":
            auction.append("pass")
        elif ev["type"] == "play":
            plays.append([ev["seat"], ev["card"]])
    done = len(plays) // NUM_PLAYERS * NUM_PLAYERS
    pos = {"hands": [DECK.codes_of(h) for h in state.hands], "dealer": state.dealer, "scores": list(state.scores),
           "auction": auction, "hand": state.hand_number, "deal": state.deal_number}
    if state.phase == PLAY:
        pos.update(call=DECK.code(state.called), trick=plays[done:],
                   tricks=[plays[i:i + NUM_PLAYERS] for i in range(0, done, NUM_PLAYERS)])
    return pos
