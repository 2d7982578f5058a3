"""Trio: a simple trick-taking game for three players and 24 cards, as an outside stich package.

The rules (a complete game, kept small to show what a stich game package holds):

1. **Cards**: 24 French cards, 9 10 J Q K A in spades, hearts, diamonds and clubs.  Card points:
   A 11, 10 10, K 4, Q 3, J 2, 9 0 (120 in all).
2. **Deal**: the dealer deals 8 cards to each player.  The first dealer is drawn at random; the
   deal passes to the left (seat + 1) after every hand.
3. **Trump**: fixed by the hand's number: spades in hand 1, hearts in hand 2, diamonds in hand 3,
   clubs in hand 4, then spades again.
4. **Play**: the player left of the dealer leads the first trick, the winner of a trick leads the
   next.  A player must follow suit if able, otherwise may play any card.  The highest trump wins
   the trick, else the highest card of the suit led (A 10 K Q J 9, high to low).
5. **Score**: each player scores the card points of the tricks he won, the last trick 10 more.
6. **Match**: ``hands`` hands (3 by default, each player deals once).  The result of each seat
   is its score minus the mean score, divided by 130.

Everything stich's layers ask about the game is declared on :class:`TrioGame` (see
``docs/engine.md`` in stich, "Adding a game").
"""

from __future__ import annotations

from stich.cards import Deck, MaskLists
from stich.engine import TERMINAL, Game, OptionSpec, SetupError, State
from stich.engine.setup import mask, parse_hands
from stich.engine.worlds import WorldSpec, plays_by_seat

SUITS = ("S", "H", "D", "C")
RANKS = ("9", "10", "J", "Q", "K", "A")          # low to high: the rank index is the strength
POINTS = (0, 10, 2, 3, 4, 11)                     # rule 1, per rank
ORDER = (0, 2, 3, 4, 1, 5)                        # rule 4: A 10 K Q J 9 (the 10 ranks below the A)
LAST_TRICK = 10
N = 3
CARDS_EACH = 8

DECK = Deck(
    "french24", SUITS, RANKS, tuple((s, r) for s in range(4) for r in range(6)),
    {"en": ("Spades", "Hearts", "Diamonds", "Clubs")},
    {"en": ("9", "10", "Jack", "Queen", "King", "Ace")},
    {"en": "{rank} of {suit}"},
)


class TrioState(State):
    """One match of Trio."""

    __slots__ = ("scores", "dealer", "hands", "trump", "trick", "leader", "taken", "tricks_left")

    def _start(self, hands=None, stock=None, dealer=None, scores=None, hand_number=None) -> None:
        if stock:
            raise SetupError("trio deals every card: there is no stock")
        if scores is not None and (len(scores) != N or not all(isinstance(x, int) for x in scores)):
            raise SetupError(f"scores must be {N} whole numbers, one per seat, not {scores!r}")
        self.scores = list(scores) if scores is not None else [0] * N
        self.dealer = self.hand_rng("first-dealer").randrange(N) if dealer is None else dealer
        if hand_number is not None:
            if not isinstance(hand_number, int) or not 1 <= hand_number <= self.game.options.hands:
                raise SetupError(f"hand_number must be 1..{self.game.options.hands}, not {hand_number!r}")
            self.hand_number = hand_number - 1
        given = None if hands is None else [mask(h) for h in parse_hands(DECK, hands, N, CARDS_EACH)]
        self._deal(given)

    def _deal(self, given=None) -> None:                                   # rules 2 and 3
        self.hand_number += 1
        if given is None:
            order = self.shuffled(len(DECK), self.hand_number)
            given = [sum(1 << c for c in order[i * CARDS_EACH:(i + 1) * CARDS_EACH]) for i in range(N)]
        self.hands = list(given)
        self.trump = (self.hand_number - 1) % 4
        self.trick = []
        self.taken = [0] * N
        self.tricks_left = CARDS_EACH
        self.emit("hand_start", None, hand=self.hand_number, dealer=self.dealer)
        for s in range(N):
            self.emit("deal", 1 << s, seat=s, cards=DECK.codes_of(self.hands[s]))
        self.emit("trump", None, suit=SUITS[self.trump])
        self.leader = self.current_player = (self.dealer + 1) % N

    def _playable(self) -> int:                                            # rule 4
        hand = self.hands[self.current_player]
        if self.trick:
            follow = hand & self.game.suit_masks[self.trick[0] // 6]
            if follow:
                return follow
        return hand

    def _legal_actions(self):
        return self.game.play_lists(self._playable())

    def _why_illegal(self, action) -> str | None:
        if action.verb == "play" and self.hands[self.current_player] >> action.value & 1:
            return f"you must follow suit ({SUITS[self.trick[0] // 6]})"
        return None

    def _apply(self, action) -> None:
        seat, card = self.current_player, action.value
        self.hands[seat] &= ~(1 << card)
        self.trick.append(card)
        self.emit("play", None, seat=seat, card=DECK.code(card))
        if len(self.trick) < N:
            self.current_player = (seat + 1) % N
            return
        winner = (self.leader + self.trick.index(max(self.trick, key=self._strength))) % N
        self.tricks_left -= 1
        self.taken[winner] += sum(POINTS[c % 6] for c in self.trick) + (0 if self.tricks_left else LAST_TRICK)
        self.trick = []
        self.emit("trick", None, winner=winner)
        self.leader = self.current_player = winner
        if not self.tricks_left:
            self._end_hand()

    def _strength(self, card: int) -> int:
        suit = card // 6
        if suit == self.trump:
            return 20 + ORDER[card % 6]
        return 10 + ORDER[card % 6] if suit == self.trick[0] // 6 else ORDER[card % 6] - 10

    def _end_hand(self) -> None:                                           # rules 5 and 6
        for s in range(N):
            self.scores[s] += self.taken[s]
        self.emit("scores", None, scores=list(self.scores))
        if self.hand_number >= self.game.options.hands:
            self.current_player = TERMINAL
            return
        self.dealer = (self.dealer + 1) % N
        self._deal()

    def _copy_into(self, other) -> None:
        other.scores = self.scores.copy()
        other.hands = self.hands.copy()
        other.trick = self.trick.copy()
        other.taken = self.taken.copy()

    def is_terminal(self) -> bool:
        return self.current_player == TERMINAL

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * N
        mean = sum(self.scores) / N
        return [(x - mean) / 130 for x in self.scores]

    def _hand_summary(self) -> dict:
        return {"hand": self.hand_number, "trump": SUITS[self.trump], "points": list(self.taken)}

    def playout_card(self, plays, rng):
        """Search playouts: follow with the cheapest card that takes the trick, else the lowest."""
        if not self.trick:
            return plays[rng.randrange(len(plays))]
        best = max(map(self._strength, self.trick))
        order = sorted(plays, key=lambda a: self._strength(a.value))
        return next((a for a in order if self._strength(a.value) > best), order[0])


class TrioGame(Game):
    """Trio (see the module docstring)."""

    name = "trio"
    title = "Trio"
    variants = ("standard", "short")
    default_variant = "standard"
    option_specs = (OptionSpec("hands", int, default={"standard": 3, "short": 1}, rule="6", minimum=1),)
    deck = DECK
    num_players = N
    state_class = TrioState
    # what the layers above ask (engine.Game documents each field)
    cards_per_hand = CARDS_EACH
    max_decisions = 40
    card_verb = "play"
    search_verbs = ("play",)
    # the modules it adds to stich's layers, one per role (stich.engine.ROLES); None says it has
    # none: no heuristic (the search bots decide every move), no own words (the generic narration
    # and help), no browser page, no bets, no fast card-play kernel (search uses the engine), no
    # figures of its own on a player's profile (only hands, hands won and points)
    companions = {"encoder": "stich_trio.encoding",   # the observation encoder for learning
                  "heuristic": None, "narration": None, "help": None, "page": None, "bets": None,
                  "kernel": None, "stats": None}

    def _setup(self) -> None:
        self.a_play = [self.action("play", DECK.code(c), c) for c in range(len(DECK))]   # a_<verb>
        self.play_lists = MaskLists(self.a_play)
        self.suit_masks = [DECK.suit_mask(s) for s in range(4)]

    def reward_scale(self) -> float:
        return 130.0

    def world_spec(self, view: dict) -> WorldSpec:
        """Determinization (``stich.engine.worlds``): the hand as an explicit deal, every action
        replayed; a seat that did not follow suit holds none of it."""
        me = view["seat"]
        setup = {"dealer": view["dealer"], "hand_number": view["hand_number"]}
        if view.get("scores") is not None:
            setup["scores"] = list(view["scores"])
        spec = WorldSpec(setup=setup, hand_sizes=[CARDS_EACH] * N, replay=list(range(len(view["actions"]))))
        plays = plays_by_seat(view, 0, N)
        for s in range(N):
            spec.add(spec.hand_slots(s), (list(view["hand"]) if s == me else []) + plays[s])
        return spec
