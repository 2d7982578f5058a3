# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""A probe, not part of stich: Biscambiggia's lean match (the standard options only) as a typed
extension type, to measure what a native kernel reaches through ``stich bench``'s Python loop
(benchmarks/compiled_probe.py builds it, checks it against the engine position by position and times
it).  The rules are those of src/stich/rulesets/biscambiggia/state.py, written a second time: the same
deal (the engine's seeded permutation and first-dealer draw), auction, call, tricks and marche."""
import random
from stich.engine.internals import _permutation

cdef extern from *:
    int ctzll "__builtin_ctzll"(unsigned long long)

cdef enum:
    AUCTION = 1
    CALL = 2
    PLAY = 3
    DEALING = 4

cdef int DEALPOS[5][8]
for _r in range(5):
    for _k in range(4):
        DEALPOS[_r][_k] = 4 * _r + _k
        DEALPOS[_r][4 + _k] = 20 + 4 * _r + _k


cdef int strength[4][4][40]
cdef int points[40]
cdef int play_id[40]
cdef int call_id[40]
cdef int bid_id[121]
cdef int pass_id
cdef tuple play_obj
cdef list call_all, opening
cdef object _game = None   # the game whose tables are loaded

def _tables(game):
    """The game's tables and action numbers, read once from the Python game."""
    if game.name != "biscambiggia" or game.variant != "standard" or any(
            game.options[spec.name] != spec.default_for("standard") for spec in game.option_specs):
        raise ValueError("the probe plays Biscambiggia with the standard options only")
    global pass_id, play_obj, call_all, opening, _game
    cdef int c, t, l
    for t in range(4):
        for l in range(4):
            for c in range(40):
                strength[t][l][c] = game.strengths[t][l][c]
    for c in range(40):
        points[c] = game.points[c]
        play_id[c] = game.a_play[c].id
        call_id[c] = game.a_call[c].id
    for c in range(121):
        bid_id[c] = game.a_bid[c].id
    pass_id = game.a_pass.id
    play_obj = tuple(a.id for a in game.a_play)
    call_all = [a.id for a in game.a_call]
    opening = [game.a_bid[n].id for n in range(61, 121)]
    _game = game

cdef class BiscambiggiaProbe:
    cdef public long long seed
    cdef public int hand_number, current_player
    cdef int phase, dealer, deal_number, high, high_bidder, passed, auction_moves, caller, contract
    cdef int called, trump, holder, tricks_played, trick_count, led, best_key, best_seat, trick_points, leader
    cdef bint deferred
    cdef unsigned long long hands[5]
    cdef int taken[5]
    cdef public list scores

    def __init__(self, game, long long seed):
        if game is not _game:
            _tables(game)
        self.seed = seed
        self.scores = [0] * 5
        self.dealer = random.Random(f"{seed}/first-dealer").randrange(5)
        self.deal_number = 0
        self.hand_number = 1
        self._deal()

    cdef _deal(self):
        cdef int rel, seat, k, d
        self.deal_number += 1
        d = self.dealer
        cards = _permutation(40, f"{self.seed}/deal/{self.deal_number}".encode())
        for rel in range(5):
            seat = (d + 1 + rel) % 5
            self.hands[seat] = 0
            for k in range(8):
                self.hands[seat] |= 1ULL << <int>cards[DEALPOS[rel][k]]
        self.phase = AUCTION
        self.high = 0; self.high_bidder = -1; self.passed = 0; self.auction_moves = 0
        self.caller = -1; self.contract = 0; self.called = -1; self.trump = -1; self.holder = -1
        for k in range(5):
            self.taken[k] = 0
        self.tricks_played = 0; self.trick_count = 0; self.led = -1; self.best_key = -1; self.best_seat = -1
        self.trick_points = 0
        self.leader = (d + 1) % 5
        self.current_player = (d + 1) % 5
        self.deferred = False

    cpdef bint is_terminal(self):
        return self.current_player == -2

    cpdef list legal_ids(self):
        cdef unsigned long long h
        cdef int c, lo
        cdef list out
        if self.deferred:
            self._deal()
        if self.current_player < 0:
            return []
        if self.phase == PLAY:
            h = self.hands[self.current_player]
            out = []
            po = play_obj
            while h:
                c = ctzll(h)
                out.append(po[c])
                h &= h - 1
            return out
        if self.phase == AUCTION:
            if self.auction_moves == 0:
                return opening[:]
            lo = self.high + 1 if self.high else 61
            if lo > 121: lo = 121
            out = [bid_id[c] for c in range(lo, 121)]
            out.append(pass_id)
            return out
        return call_all[:]

    cpdef step(self, int a):
        cdef int seat, c, n
        if self.deferred:
            self._deal()
        seat = self.current_player
        if seat < 0:
            raise ValueError("the match is over")
        if self.phase == PLAY:
            c = a - play_id[0]
            if not (0 <= c < 40 and play_id[c] == a and self.hands[seat] >> c & 1):
                raise ValueError(f"illegal action {a}")
            self._play(c)
        elif self.phase == AUCTION:
            if a == pass_id and self.auction_moves:
                self.passed |= 1 << seat
                self.auction_moves += 1
                self._next_bidder(seat)
                return
            n = a - bid_id[0]
            lo = self.high + 1 if self.high else 61
            if not (lo <= n <= 120 and bid_id[n] == a):
                raise ValueError(f"illegal action {a}")
            self.high = n; self.high_bidder = seat
            self.auction_moves += 1
            self._next_bidder(seat)
        else:
            c = a - call_id[0]
            if not (0 <= c < 40 and call_id[c] == a):
                raise ValueError(f"illegal action {a}")
            self.called = c
            self.trump = c // 10
            n = 0
            while not (self.hands[n] >> c & 1):
                n += 1
            self.holder = n
            self.phase = PLAY
            self.current_player = self.leader

    cdef _next_bidder(self, int seat):
        cdef int active = 31 & ~self.passed, nxt
        if self.high_bidder >= 0 and active == (1 << self.high_bidder):
            self.caller = self.high_bidder; self.contract = self.high
            self.phase = CALL
            self.current_player = self.caller
            return
        nxt = (seat + 1) % 5
        while self.passed >> nxt & 1:
            nxt = (nxt + 1) % 5
        self.current_player = nxt

    cdef _play(self, int card):
        cdef int seat = self.current_player, key, winner
        self.hands[seat] ^= 1ULL << card
        if self.trick_count == 0:
            self.led = card // 10
        key = strength[self.trump][self.led][card]
        if key > self.best_key:
            self.best_key = key; self.best_seat = seat
        self.trick_points += points[card]
        self.trick_count += 1
        if self.trick_count < 5:
            self.current_player = (seat + 1) % 5
            return
        winner = self.best_seat
        self.taken[winner] += self.trick_points
        self.tricks_played += 1
        self.trick_count = 0; self.best_key = -1; self.best_seat = -1; self.trick_points = 0
        if self.tricks_played < 8:
            self.leader = winner; self.current_player = winner
        else:
            self._score_hand()

    cdef _score_hand(self):
        cdef bint alone = self.holder == self.caller, success
        cdef int team, sign, s, top
        team = self.taken[self.caller] + (0 if alone else self.taken[self.holder])
        success = team >= self.contract
        sign = 1 if success else -1
        for s in range(5):
            self.scores[s] -= sign
        if alone:
            self.scores[self.caller] += 5 * sign
        else:
            self.scores[self.caller] += 3 * sign
            self.scores[self.holder] += 2 * sign
        if self.hand_number >= 10:
            self.current_player = -2
            return
        self.hand_number += 1
        self.dealer = (self.dealer + 1) % 5
        self.current_player = (self.dealer + 1) % 5
        self.phase = DEALING
        self.deferred = True

    def returns(self):
        if self.current_player != -2:
            return [0.0] * 5
        return [float(x) for x in self.scores]
