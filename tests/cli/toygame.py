"""A tiny fixture game for the CLI and bot tests, independent of the real games.

Two players, three cards each from the German 32 deck (six cards, three tricks per hand).
Before the first trick the non-dealer names trumps (``trump H`` ... ``trump L``; a public,
game-specific ``trump`` event) unless the ``trumps`` option is ``off``.  Follow suit; the
highest trump, else the highest card of the led suit, wins.  The side with more tricks
scores a point; the match is won at ``target`` points.
"""

from stich.cards import deck, iter_bits
from stich.engine import ROLES, TERMINAL, Game, OptionSpec, SetupError, State


class ToyState(State):
    def _start(self, hands=None, stock=None, dealer=None, scores=None):
        self.scores = list(scores) if scores is not None else [0, 0]
        self.dealer = 0 if dealer is None else dealer
        self._deal(hands)

    def _deal(self, hands=None):
        d = self.game.deck
        self.hand_number += 1
        if hands is None:
            cards = list(range(len(d)))
            self.hand_rng(self.hand_number).shuffle(cards)
            hands = [cards[0:3], cards[3:6]]
        else:
            if len(hands) != 2 or any(len(h) != 3 for h in hands):
                raise SetupError("toy needs two hands of three cards")
            hands = [[d.parse(c) for c in h] for h in hands]
        self.hands = [sum(1 << c for c in h) for h in hands]
        self.trick = []
        self.won = [0, 0]
        self.trump = None
        self.emit("hand_start", None, hand=self.hand_number, dealer=self.dealer)
        for s in range(2):
            self.emit("deal", 1 << s, seat=s, cards=d.codes_of(self.hands[s]))
        self.current_player = 1 - self.dealer
        self.choosing = self.game.options["trumps"] == "on"

    def _legal_actions(self):
        g = self.game
        if self.choosing:
            return g.trumps
        hand = self.hands[self.current_player]
        if self.trick:
            follow = hand & g.suit_masks[g.deck.suit(self.trick[0][1])]
            if follow:
                hand = follow
        return [g.plays[c] for c in iter_bits(hand)]

    def _why_illegal(self, action):
        if self.choosing:
            return "name trumps first"
        if action.verb == "play" and self.trick:
            return "you must follow suit"
        return None

    def _apply(self, action):
        g = self.game
        d = g.deck
        seat = self.current_player
        if action.verb == "trump":
            self.trump = action.value
            self.choosing = False
            self.emit("trump", None, seat=seat, suit=action.arg)
            return
        card = action.value
        self.hands[seat] &= ~(1 << card)
        self.trick.append((seat, card))
        self.emit("play", None, seat=seat, card=d.code(card))
        if len(self.trick) == 1:
            self.current_player = 1 - seat
            return
        led = d.suit(self.trick[0][1])

        def strength(sc):
            s = d.suit(sc[1])
            return (s == self.trump, s == led, d.rank(sc[1]))

        winner = max(self.trick, key=strength)[0]
        self.won[winner] += 1
        self.trick = []
        self.emit("trick", None, winner=winner)
        if sum(self.won) == 3:
            w = 0 if self.won[0] > self.won[1] else 1
            self.scores[w] += 1
            self.emit("hand_result", None, winner=w, tricks=list(self.won))
            self.emit("scores", None, scores=list(self.scores))
            if self.scores[w] >= g.options["target"]:
                self.current_player = TERMINAL
                return
            self.dealer = 1 - self.dealer
            self._deal()
            return
        self.current_player = winner

    def _copy_into(self, other):
        other.hands = self.hands.copy()
        other.trick = self.trick.copy()
        other.won = self.won.copy()
        other.scores = self.scores.copy()

    def is_terminal(self):
        return self.current_player == TERMINAL

    def returns(self):
        if not self.is_terminal():
            return [0.0, 0.0]
        w = 0 if self.scores[0] > self.scores[1] else 1
        return [1.0 if s == w else -1.0 for s in range(2)]

    def _hand_summary(self):
        return {"hand": self.hand_number, "tricks": list(self.won), "scores": list(self.scores)}


class ToyGame(Game):
    name = "toy"
    title = "Toy"
    variants = ("standard", "quick")
    default_variant = "standard"
    option_specs = (
        OptionSpec("target", int, default={"standard": 3, "quick": 1}, rule="toy §1", minimum=1,
                   help="points to win the match"),
        OptionSpec("trumps", ("on", "off"), default="on", rule="toy §2", help="the non-dealer names trumps"),
    )
    deck = deck("german32")
    num_players = 2
    state_class = ToyState
    companions = dict.fromkeys(ROLES)   # a bare fixture: no companion of any role

    def _setup(self):
        d = self.deck
        self.plays = [self.action("play", d.code(c), c) for c in range(len(d))]
        self.trumps = [self.action("trump", d.suit_codes[s], s) for s in range(4)]
        self.suit_masks = [d.suit_mask(s) for s in range(4)]
