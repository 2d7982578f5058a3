"""Helpers for the Battn tests: explicit set-ups with the cast of the rules' examples.

Every example uses dealer = seat 0, so the cast of BT-1.3 sits at fixed absolute seats:
Gianna = D = 0, Nino = R = 1, Gino = P = 2, Tonile = L = 3 (playing order 1, 2, 3, 0).
Team A = {Gianna, Gino} (= DP), team B = {Nino, Tonile} (= RL).
"""

from __future__ import annotations

import stich
from stich.rulesets.battn.cards import CRITICI_MASK, DECK
from stich.rulesets.battn.state import MOVE, SCHLOK

GIANNA, NINO, GINO, TONILE = 0, 1, 2, 3
D, R, P, L = GIANNA, NINO, GINO, TONILE
A, B = 0, 1          # teams: A = seats 0+2 (Gianna/Gino), B = seats 1+3 (Nino/Tonile)
QUIET = {"orbi_enabled": False, "scheanara_max": 0}   # skip the windows an example does not need


def game(**options):
    return stich.game("battn", **options)


def fillers(used, schlok="5", trumpf="Po"):
    """Cards that are never forced and never win: not critici, not the Schlòk, not the Trumpf suit."""
    used = {DECK.parse(c) for c in used}
    out = []
    for c in range(len(DECK)):
        if c in used or (CRITICI_MASK >> c & 1):
            continue
        if DECK.code(c)[2:] == schlok or DECK.code(c)[:2] == trumpf:
            continue
        out.append(DECK.code(c))
    return out


def make_hands(partial: dict, schlok="5", trumpf="Po"):
    """Complete partial hands {seat: [codes]} to 5 cards each with harmless fillers."""
    used = [c for cards in partial.values() for c in cards]
    spare = fillers(used, schlok, trumpf)
    hands = []
    for s in range(4):
        h = [DECK.code(DECK.parse(c)) for c in partial.get(s, [])]
        while len(h) < 5:
            h.append(spare.pop())
        hands.append(h)
    return hands


def new(partial: dict, schlok="5", trumpf="Po", dealer=0, scores=None, options=None, **setup):
    """A state with these (partial) hands; the rest of the deck is the stock."""
    opts = dict(QUIET) if options is None else options
    hands = make_hands(partial, schlok, trumpf)
    rest = sorted(set(DECK.codes) - {c for h in hands for c in h}, key=DECK.codes.index)
    return game(**opts).new_state(seed=1, hands=hands, stock=rest, dealer=dealer, scores=scores, **setup)


def act(state, seat, text):
    """Apply ``text`` as ``seat``, first letting any raise poll pass ('pass')."""
    while state.current_player != seat and "pass" in state.legal_actions() and text != "pass":
        state.apply("pass")
    assert state.current_player == seat, f"{text}: seat {state.current_player} is to act, not {seat}"
    state.apply(text)


def play(state, seat, card):
    """Play a card as ``seat``, letting raise polls pass."""
    while state.phase != MOVE and "pass" in state.legal_actions():
        state.apply("pass")
    act(state, seat, f"play {card}")


def to_choice(state):
    """Take the first (passive) action until R must name the Schlòk: cut 1 / cut_done,
    orbi_pass, scheanara_pass / scheanara_no."""
    while state.phase != SCHLOK:
        state.apply(state.legal_actions()[0])


def choose(state, schlok="5", trumpf="Po"):
    """Skip the cut, Orbi window and Scheanara passively, then name Schlòk and Trumpf."""
    to_choice(state)
    state.apply(f"schlok {schlok}")
    state.apply(f"trumpf {trumpf}")


def trick(state, seats_cards):
    """Play one trick given as [(seat, card), ...]; return the winner's seat."""
    for seat, card in seats_cards:
        play(state, seat, card)
    return last_trick_winner(state)


def last_trick_winner(state):
    """The winner of the last trick played (also after the turn has ended)."""
    for _aud, ev in reversed(state.events):
        if ev["type"] == "trick":
            return ev["winner"]
    return None


def spare(state, seat, *keep):
    """A card of ``seat``'s hand that is not one of ``keep`` (a filler)."""
    keep = {DECK.code(DECK.parse(c)) for c in keep}
    return next(c for c in hand_of(state, seat) if c not in keep)


def legal_cards(state):
    return [a.arg for a in state.legal_actions() if a.verb == "play"]      # deck order


def legal_now(state):
    """Let raise polls pass, then the legal cards of the player to play."""
    while state.phase != MOVE:
        state.apply("pass")
    return legal_cards(state)


def codes(*cards):
    return [DECK.code(i) for i in sorted(DECK.parse(c) for c in cards)]   # deck order


def calls(state, seat=None):
    return [c for c in state.view(seat)["info"].get("calls", [])]


def stock_of(state):
    return [DECK.code(c) for c in state.stock]


def hand_of(state, seat):
    return DECK.codes_of(state.hands[seat])
