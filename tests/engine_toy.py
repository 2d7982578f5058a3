"""A tiny trick game used to test the engine alone: 2 players, 3 cards each from the
German 32 deck, follow suit, highest card of the led suit wins, a hand is won with 2
tricks; the match is won at ``target`` hands.  Seat 1 may ``peek`` at the top stock card
(a private event), which lets the tests check audiences."""

from stich.cards import deck, iter_bits
from stich.engine import ROLES, TERMINAL, Game, OptionSpec, SetupError, State


class ToyState(State):
    def _start(self, hands=None, stock=None, dealer=None, scores=None):
        self.scores = list(scores) if scores is not None else [0, 0]
        self.dealer = 0 if dealer is None else dealer
        self._deal(hands, stock)

    def _deal(self, hands=None, stock=None):
        g = self.game
        d = g.deck
        self.hand_number += 1
        if hands is None:
            cards = list(range(len(d)))
            self.hand_rng(self.hand_number).shuffle(cards)
            hands = [cards[0:3], cards[3:6]]
            stock = cards[6:]
        else:
            if len(hands) != 2 or any(len(h) != 3 for h in hands):
                raise SetupError("toy needs two hands of three cards")
            hands = [[d.parse(c) for c in h] for h in hands]
            stock = [d.parse(c) for c in (stock or [])]
        self.hands = [sum(1 << c for c in h) for h in hands]
        self.stock = list(stock)
        self.trick = []
        self.won = [0, 0]
        self.peeked = False
        self.emit("hand_start", None, hand=self.hand_number, dealer=self.dealer)
        for s in range(2):
            self.emit("deal", 1 << s, seat=s, cards=d.codes_of(self.hands[s]))
        self.leader = self.current_player = 1 - self.dealer

    def _legal_actions(self):
        g = self.game
        hand = self.hands[self.current_player]
        if self.trick:
            led = g.deck.suit(self.trick[0][1])
            follow = hand & g.suit_masks[led]
            if follow:
                hand = follow
        acts = [g.plays[c] for c in iter_bits(hand)]
        if self.current_player == 1 and not self.peeked and self.stock:
            acts.append(g.peek)
        return acts

    def _why_illegal(self, action):
        if action.verb == "play" and self.trick:
            return "you must follow suit"
        return None

    def _apply(self, action):
        g = self.game
        seat = self.current_player
        if action.verb == "peek":
            self.peeked = True
            self.emit("peek", 1 << seat, card=g.deck.code(self.stock[0]))
            return
        card = action.value
        self.hands[seat] &= ~(1 << card)
        self.trick.append((seat, card))
        self.emit("play", None, seat=seat, card=g.deck.code(card))
        if len(self.trick) == 1:
            self.current_player = 1 - seat
            return
        led = g.deck.suit(self.trick[0][1])
        winner = max(self.trick, key=lambda sc: (g.deck.suit(sc[1]) == led, g.deck.rank(sc[1])))[0]
        self.won[winner] += 1
        self.trick = []
        self.emit("trick", None, winner=winner)
        if self.won[winner] == 2:
            self.scores[winner] += 1
            self.emit("scores", None, scores=list(self.scores))
            if self.scores[winner] >= g.options["target"]:
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
        other.stock = self.stock.copy()

    def is_terminal(self):
        return self.current_player == TERMINAL

    def returns(self):
        if not self.is_terminal():
            return [0.0, 0.0]
        w = 0 if self.scores[0] > self.scores[1] else 1
        return [1.0 if s == w else -1.0 for s in range(2)]


class ToyGame(Game):
    name = "enginetoy"
    title = "Toy"
    variants = ("standard", "long")
    default_variant = "standard"
    option_specs = (
        OptionSpec("target", int, default={"standard": 2, "long": 5}, rule="toy §1", minimum=1),
        OptionSpec("colour", ("red", "blue"), default="red", variants=("long",)),
    )
    deck = deck("german32")
    num_players = 2
    state_class = ToyState
    companions = dict.fromkeys(ROLES)   # a bare fixture: no companion of any role
    reveal_events = frozenset({"peek"})

    def _setup(self):
        d = self.deck
        self.plays = [self.action("play", d.code(c), c) for c in range(len(d))]
        self.peek = self.action("peek")
        self.suit_masks = [d.suit_mask(s) for s in range(4)]
