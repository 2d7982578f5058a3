"""The engine's own guarantees, checked on a toy game: options, parsing, errors that change
nothing, records and replay, clones, views built from audiences."""

import json
import random

import pytest

import stich
from stich.cards import DECKS, deck
from stich.engine import IllegalActionError, MalformedActionError, OptionError, RecordError, SetupError

from .engine_toy import ToyGame
from .registered import registered


@pytest.fixture(scope="module", autouse=True)
def enginetoy_registered():
    with registered("enginetoy", "tests.engine_toy:ToyGame") as name:
        yield name


def play_random(state, rng, steps=10_000):
    for _ in range(steps):
        if state.is_terminal():
            return state
        state.apply(rng.choice(state.legal_actions()))
    return state


# --- cards -------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", list(DECKS))
def test_every_card_code_round_trips_in_every_spelling(name):
    d = deck(name)
    assert len(set(d.codes)) == len(d)
    for i, code in enumerate(d.codes):
        suit, rank = d.suit_codes[d.suit(i)], d.rank_codes[d.rank(i)]
        assert code == suit + rank
        for spelling in (code, code.lower(), rank + suit, f"{suit}-{rank}", f"{rank}-{suit}".upper()):
            assert d.parse(spelling) == i


def test_deck_sizes_and_special_cards():
    assert [len(deck(n)) for n in ("german32", "german33", "sappadine40", "genoese40", "french52")] == [
        32, 33, 40, 40, 52]
    g33 = deck("german33")
    assert g33.code(g33.parse("W")) == "S6" == g33.code(g33.parse("Weli"))
    assert g33.long_name(g33.parse("S6"), "de") == "Weli"
    assert g33.long_name(g33.parse("EO"), "de") == "Eichel-Ober"
    assert g33.long_name(g33.parse("EO"), "it") == "ufficiale di ghiande"
    f = deck("french52")
    assert f.code(f.parse("TH")) == "H10"
    assert f.long_name(f.parse("QS"), "fr") == "dame de pique"
    assert deck("sappadine40").code(deck("sappadine40").parse("K-Po")) == "PoK"


def test_unknown_card_is_a_clear_error():
    with pytest.raises(MalformedActionError, match="not a card of the german32 deck"):
        deck("german32").parse("S6")  # the Weli exists only in the 33-card deck
    with pytest.raises(ValueError, match="unknown deck"):
        deck("tarot78")


def test_masks_round_trip():
    d = deck("french52")
    m = d.mask(["SA", "h10", "2C"])
    assert d.codes_of(m) == ["SA", "H10", "C2"]
    assert d.suit_mask(0).bit_count() == 13 and d.rank_mask(12).bit_count() == 4


def test_remembered_bits_are_the_bits_and_stay_bounded(monkeypatch):
    from stich import cards

    monkeypatch.setattr(cards, "_BITS", {})
    monkeypatch.setattr(cards, "BITS_CACHE", 64)
    rng = random.Random(5)
    for _ in range(300):
        m = rng.getrandbits(52) & rng.getrandbits(52)
        want = [i for i in range(52) if m >> i & 1]
        assert cards.bits(m) == want
        assert cards.bits_of(m) == tuple(want) and cards.bits_of(m) == tuple(want)   # the kept answer too
        assert len(cards._BITS) <= 64
    assert cards.bits_of(0) == ()


@pytest.mark.parametrize("n, width", [(33, 11), (32, 11), (40, 10), (52, 13), (5, 11), (12, 4)])
def test_mask_lists_match_the_bits_of_every_mask(n, width):
    from stich.cards import MaskLists

    lists = MaskLists([f"c{i}" for i in range(n)], extra="raise", width=width, eager=width == 10)
    assert lists.extra_bit == 1 << (width * -(-n // width))   # just above the last chunk
    rng = random.Random(3)
    for _ in range(500):
        m = rng.getrandbits(n) & rng.getrandbits(n)
        want = [f"c{i}" for i in range(n) if m >> i & 1]
        assert lists(m) == want and lists.of(m) == want
        assert lists(m | lists.extra_bit) == want + ["raise"]
        got = lists(m)
        got.append("x")            # a new list every time: the tables stay intact
        assert lists(m) == want
        k = rng.randrange(len(lists.tables))   # a chunk's shared list, as the hot paths read it
        sub = m >> (k * width) & ((1 << width) - 1)
        assert lists.chunk(k, sub) == [f"c{i}" for i in range(k * width, min(n, k * width + width))
                                       if m >> i & 1]
    assert lists(0) == []
    import pickle
    again = pickle.loads(pickle.dumps(lists))   # games travel to arena processes
    assert again(m) == lists(m) and again.eager == lists.eager
    if lists.eager:                              # complete tables: hot paths read them without a call
        assert all(x is not None for t in again.tables for x in t[:1 << min(width, n)])
    with pytest.raises(ValueError, match="no extra"):
        MaskLists(["a", "b"])(MaskLists(["a", "b"]).extra_bit)
    with pytest.raises(ValueError, match="width"):
        MaskLists(["a"], width=1)


def test_shuffles_are_uniform_permutations_fixed_by_seed_and_keys():
    a = ToyGame().new_state(seed=11)
    b = ToyGame().new_state(seed=11)
    p = a.shuffled(33, 1, 0)
    assert sorted(p) == list(range(33))
    assert p == b.shuffled(33, 1, 0)                     # same seed and keys, same pack
    assert p != a.shuffled(33, 2, 0) != a.shuffled(33, 1, "x")
    assert p != ToyGame().new_state(seed=12).shuffled(33, 1, 0)
    # Every card lands on the first place about equally often (52 cards, 5,200 shuffles).
    firsts = [0] * 52
    for k in range(5200):
        firsts[a.shuffled(52, k)[0]] += 1
    assert min(firsts) > 50 and max(firsts) < 160


# --- options --------------------------------------------------------------------------------
def test_options_are_validated_defaulted_and_frozen():
    g = ToyGame("long", target="7", colour="BLUE")
    assert g.options == {"target": 7, "colour": "blue"}
    assert g.options.target == 7
    with pytest.raises(AttributeError):
        g.options.target = 3
    assert ToyGame().options == {"target": 2}
    with pytest.raises(OptionError, match="no option 'trgt'.*target"):
        ToyGame(trgt=3)
    with pytest.raises(OptionError, match="whole number"):
        ToyGame(target="many")
    with pytest.raises(OptionError, match="at least 1"):
        ToyGame(target=0)
    with pytest.raises(OptionError, match="one of: red, blue"):
        ToyGame("long", colour="green")
    with pytest.raises(OptionError, match="does not apply to enginetoy variant 'standard'"):
        ToyGame(colour="red")
    with pytest.raises(OptionError, match="no variant 'short'"):
        ToyGame("short")
    assert "target=7" in ToyGame("long", target=7).rules_summary()


def test_the_same_request_gives_the_same_frozen_game():
    # A server holds one game object per variant and options, not one per table (its tables are
    # shared by every state); a different request is a different game, a bad one still an error.
    a = stich.game("watten", "bavarian_4", maschine="on")
    assert stich.game("watten", "bavarian_4", maschine="on") is a
    assert stich.game("watten", "bavarian_4") is not a
    assert stich.game("watten", "bavarian_4").options != a.options
    s1, s2 = a.new_state(seed=1), a.new_state(seed=1)
    s1.apply(s1.legal_actions()[0])
    assert s2.view(0) == a.new_state(seed=1).view(0)   # playing one state leaves the game as it was
    with pytest.raises(OptionError):
        stich.game("watten", "bavarian_4", maschine="sometimes")
    with pytest.raises(OptionError):   # refused again, not remembered
        stich.game("watten", "bavarian_4", maschine="sometimes")


def test_unknown_game_is_a_clear_error():
    with pytest.raises(OptionError, match="unknown game 'schafkopf'"):
        stich.game("schafkopf")


# --- actions and errors ------------------------------------------------------------------------------
def test_actions_are_text_and_parse_leniently():
    s = ToyGame().new_state(hands=[["H7", "S8", "EA"], ["HA", "S7", "L9"]], stock=["LA"], dealer=0)
    assert s.current_player == 1
    acts = s.legal_actions()
    assert [str(a) for a in acts] == ["play HA", "play S7", "play L9", "peek"]
    assert acts[0] == "play HA" and acts[0].verb == "play" and acts[0].arg == "HA"
    s.apply("2:PLAY a-h")  # 1-based seat prefix, any spelling
    assert s.history[-1] == (1, "play HA")


def test_illegal_and_malformed_actions_change_nothing():
    s = ToyGame().new_state(hands=[["H7", "S8", "EA"], ["HA", "S7", "L9"]], dealer=0)
    s.apply("play S7")
    before = json.dumps(s.record())
    with pytest.raises(IllegalActionError, match="must follow suit.*legal: play S8"):
        s.apply("play H7")
    with pytest.raises(IllegalActionError, match="not legal"):
        s.apply("play HA")  # not in this hand
    with pytest.raises(MalformedActionError, match="unknown action 'jump'"):
        s.apply("jump")
    with pytest.raises(MalformedActionError, match="not a card"):
        s.apply("play Z9")
    with pytest.raises(MalformedActionError, match="seat number"):
        s.apply("x:play S8")
    with pytest.raises(IllegalActionError, match="seat 2 is not to act; seat 1 is"):
        s.apply("2:play S8")
    with pytest.raises(MalformedActionError):
        s.apply(42)
    assert json.dumps(s.record()) == before


def test_bad_setup_is_refused():
    with pytest.raises(SetupError):
        ToyGame().new_state(hands=[["H7"], ["HA"]])
    with pytest.raises(SetupError, match="dealer"):
        ToyGame().new_state(dealer=5)
    with pytest.raises(SetupError, match="seed"):
        ToyGame().new_state(seed="abc")


# --- determinism, records, replay, clones ---------------------------------------------------------
def test_same_seed_same_game():
    a = play_random(ToyGame().new_state(seed=11), random.Random(3))
    b = play_random(ToyGame().new_state(seed=11), random.Random(3))
    assert a.record() == b.record()
    c = play_random(ToyGame().new_state(seed=12), random.Random(3))
    assert a.record()["events"] != c.record()["events"]


def test_record_is_json_and_replays_exactly():
    s = play_random(ToyGame("long").new_state(seed=5), random.Random(1))
    rec = json.loads(json.dumps(s.record()))
    assert rec["terminal"] and sorted(rec["returns"]) == [-1.0, 1.0]
    again = stich.engine.replay(rec)
    assert again.record() == s.record()
    # an unfinished game replays too, and can be continued
    half = ToyGame().new_state(seed=9)
    half.apply(half.legal_actions()[0])
    cont = stich.engine.replay(half.record())
    assert cont.legal_actions() == half.legal_actions()


def test_explicit_setup_is_recorded_and_replays():
    s = ToyGame().new_state(seed=1, hands=[["H7", "S8", "EA"], ["HA", "S7", "L9"]], stock=["LA"], dealer=0)
    play_random(s, random.Random(2))
    assert stich.engine.replay(s.record()).record() == s.record()


def test_broken_records_are_refused_clearly():
    s = play_random(ToyGame().new_state(seed=5), random.Random(1))
    rec = s.record()
    with pytest.raises(RecordError, match="not a stich record"):
        stich.replay({"game": "toy"})
    with pytest.raises(RecordError, match="no 'actions'"):
        stich.replay({k: v for k, v in rec.items() if k != "actions"})
    tampered = json.loads(json.dumps(rec))
    tampered["actions"][0][1] = "play Z9"
    with pytest.raises(RecordError, match="action #0"):
        stich.replay(tampered)
    tampered = json.loads(json.dumps(rec))
    tampered["events"][1]["cards"] = ["LA", "LK", "LO"]
    with pytest.raises(RecordError, match="does not reproduce"):
        stich.replay(tampered)
    with pytest.raises(RecordError, match="filtered to one seat"):
        stich.replay(s.record(seat=0))


def test_clone_is_independent():
    s = ToyGame().new_state(seed=3)
    c = s.clone()
    c.apply(c.legal_actions()[0])
    assert len(s.history) == 0 and len(c.history) == 1
    assert s.record()["events"] != c.record()["events"]
    assert s.hands != c.hands


# --- views ---------------------------------------------------------------------------------------
def test_views_show_only_the_audience():
    s = ToyGame().new_state(hands=[["H7", "S8", "EA"], ["HA", "S7", "L9"]], stock=["LA", "LK"], dealer=0)
    s.apply("peek")
    v1, v0, spectator = s.view(1), s.view(0), s.view(None)
    assert v1["hand"] == ["HA", "S7", "L9"] and v1["info"]["peek"] == {"card": "LA"}
    assert v0["hand"] == ["H7", "S8", "EA"] and "peek" not in v0["info"]
    assert spectator["hand"] == [] and all(k is None for k in spectator["known_hands"])
    assert v1["legal_actions"] == ["play HA", "play S7", "play L9"] and "legal_actions" not in v0
    s.apply("play S7")
    v0 = s.view(0)
    assert v0["trick"] == [{"seat": 1, "card": "S7"}]
    json.dumps(v0)
    with pytest.raises(ValueError):
        s.view(2)


def test_view_events_cover_the_current_hand_and_fields_cover_the_match():
    s = ToyGame("long").new_state(seed=4)
    rng = random.Random(0)
    while s.hand_number < 3:
        s.apply(rng.choice(s.legal_actions()))
    v = s.view(0)
    assert v["events"][0]["type"] == "hand_start" and v["events"][0]["hand"] == 3
    assert v["hand_number"] == 3 and sum(v["scores"]) == 2
    v["hand"].append("mutated")
    v["info"]["x"] = 1
    assert "mutated" not in s.view(0)["hand"] and "x" not in s.view(0)["info"]


def test_record_filtered_to_a_seat_hides_the_others():
    s = ToyGame().new_state(hands=[["H7", "S8", "EA"], ["HA", "S7", "L9"]], stock=["LA"], dealer=0)
    s.apply("peek")
    r0 = json.dumps(s.record(seat=0))
    assert "HA" not in r0 and "LA" not in r0 and "H7" in r0


def test_view_invariance_harness_passes_an_honest_game_and_catches_leaks(monkeypatch):
    from stich.testing import check_view_invariance
    from tests import engine_toy

    monkeypatch.setattr(engine_toy.ToyGame, "cards_per_hand", 3)
    check_view_invariance(engine_toy.ToyGame)

    original = engine_toy.ToyState._deal

    def leaky_deal(self, hands=None, stock=None):
        original(self, hands, stock)
        self.emit("gossip", None, cards=self.game.deck.codes_of(self.hands[1]))

    monkeypatch.setattr(engine_toy.ToyState, "_deal", leaky_deal)
    with pytest.raises(AssertionError, match="depends on cards it has not seen"):
        check_view_invariance(engine_toy.ToyGame)


def test_games_stays_a_function_after_games_are_imported():
    for name in stich.games():
        stich.game(name)
    assert callable(stich.games) and isinstance(stich.games(), list)


def test_setup_helpers_name_the_fault():
    from stich.engine.setup import parse_hands, parse_stock

    d = deck("german32")
    hands = parse_hands(d, [["H7", "S8"], ["EA", "LK"]], 2, 2)
    assert hands == [[d.parse("H7"), d.parse("S8")], [d.parse("EA"), d.parse("LK")]]
    with pytest.raises(SetupError, match="hands must be 2 lists of 2 cards"):
        parse_hands(d, [["H7", "S8"]], 2, 2)
    with pytest.raises(SetupError, match=r"hands\[1\] \(seat 2\) must hold exactly 2 cards, not 1"):
        parse_hands(d, [["H7", "S8"], ["EA"]], 2, 2)
    with pytest.raises(SetupError, match=r"hands\[0\] \(seat 1\): 'S6' is not a card of the german32 deck"):
        parse_hands(d, [["S6", "S8"], ["EA", "LK"]], 2, 2)
    with pytest.raises(SetupError, match="card H7 is dealt twice"):
        parse_hands(d, [["H7", "S8"], ["h-7", "LK"]], 2, 2)
    rest = [c for c in d.codes if c not in ("H7", "S8", "EA", "LK")]
    assert parse_stock(d, rest, hands) == [d.parse(c) for c in rest]
    with pytest.raises(SetupError, match="missing: LA"):
        parse_stock(d, rest[:-1], hands)
    with pytest.raises(SetupError, match="card EA is dealt twice"):
        parse_stock(d, ["EA", *rest], hands)
