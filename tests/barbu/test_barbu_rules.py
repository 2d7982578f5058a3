"""Options (R-20), set-up validation, notation and error messages."""

from __future__ import annotations

import pytest
from barbu_support import codes, deal_result, fill_hands, game, play, plays, start, suits

import stich
from stich import IllegalActionError, MalformedActionError, OptionError, SetupError
from stich.rulesets.barbu import rules as R


def test_option_names_mirror_the_rules_table():
    specs = {s.name: (s.values, s.default) for s in stich.game("barbu").option_specs}
    assert specs == {
        "heart_lead": (("only_hearts_left", "after_broken", "anytime"), "only_hearts_left"),
        "trumps_must_ruff": ((False, True), True),
        "trumps_must_overtrump": ((False, True), True),
        "skip_undoubled_negative": ((False, True), True),
        "redouble": (("any_doubled_player", "caller_only"), "any_doubled_player"),
        "obligation": (("caller_twice_per_block", "none"), "caller_twice_per_block"),
        "rotation": (("block", "every_deal"), "block"),
        "forced_barbu": ((False, True), False),
        "domino_ace_replay": ((False, True), False),
        "no_hearts_early_end": ((False, True), False),
        "dealer_is_caller": ((False, True), False),
    }
    g = stich.game("barbu", heart_lead="AFTER_BROKEN", forced_barbu="true")
    assert g.options.heart_lead == "after_broken" and g.options.forced_barbu is True
    assert "forced_barbu=True" in g.rules_summary()
    with pytest.raises(OptionError):
        stich.game("barbu", heart_lead="never")
    with pytest.raises(OptionError):
        stich.game("barbu", variant="32_cards")


def test_heart_lead_after_broken_and_anytime():
    # P0 leads with hearts and clubs; nothing broken yet: no heart lead unless anytime.
    hands = fill_hands({0: ["AH", "2C"]}, {0: suits("H", "C")})
    assert "HA" not in plays(start("NO_HEARTS", hands, heart_lead="after_broken"))
    assert "HA" in plays(start("BARBU", hands, heart_lead="anytime"))
    # Broken by a heart discarded to trick 1: P0 (who wins it) may then lead hearts.
    hands = fill_hands({0: ["AC", "AH", "KC"], 1: ["2C"], 2: ["3C"], 3: ["2H"]},
                       {3: suits("S", "H", "D"), 0: suits("H", "C")})
    s = start("NO_HEARTS", hands, heart_lead="after_broken")
    play(s, ["AC", "2C", "3C", "2H"])
    assert s.current_player == 0 and "HA" in plays(s)
    s = start("NO_HEARTS", hands)  # default only_hearts_left: still not
    play(s, ["AC", "2C", "3C", "2H"])
    assert "HA" not in plays(s)


def test_forced_barbu_after_the_ace_of_hearts():
    # Hearts led (heart_lead=anytime), A♥ played: the K♥ holder must play it (R-6 (b)).
    hands = fill_hands({0: ["2H"], 1: ["AH", "4H"], 2: ["KH", "3H"]}, {2: suits("S")})
    s = start("BARBU", hands, forced_barbu=True, heart_lead="anytime")
    play(s, ["2H", "AH"])
    assert plays(s) == {"HK"}
    with pytest.raises(IllegalActionError, match="forced barbu"):
        s.apply("play 3H")
    s = start("BARBU", hands, heart_lead="anytime")
    play(s, ["2H", "AH"])
    assert plays(s) == {"HK", "H3"}
    # Before the A♥ falls the K♥ holder may follow with any heart.
    s = start("BARBU", hands, forced_barbu=True, heart_lead="anytime")
    play(s, ["2H", "4H"])
    assert plays(s) == {"HK", "H3"}


def test_no_hearts_early_end_option():
    # All hearts fall in the first tricks only when someone is all hearts; use a scripted deal.
    from barbu_support import play_scripted, scripted_tricks
    tricks, hands = scripted_tricks([0, 0, 0, 0, 1, 2, 3, 0, 1, 2, 3, 2, 1])
    s = start("NO_HEARTS", hands, no_hearts_early_end=True)
    play_scripted(s, tricks)
    assert deal_result(s)["raw"] == [-2, -12, -8, -8]


def test_domino_ace_replay():
    hands = fill_hands({0: ["AS", "KS", "2C"]}, {0: suits("S", "C")})
    s = start("DOMINO A", hands, doubling=["pass"] * 4, domino_ace_replay=True)
    s.apply("play AS")
    assert s.current_player == 0 and "SK" in plays(s)  # another turn after an ace
    s = start("DOMINO A", hands, doubling=["pass"] * 4)
    s.apply("play AS")
    assert s.current_player == 1


def test_rotation_every_deal():
    s = game(rotation="every_deal").new_state(seed=2, first_caller=3)
    assert s.current_player == 3
    s.apply("contract NO_QUEENS")
    for _ in range(4):
        s.apply("pass")
    assert s.hand_number == 2 and s.current_player == 0


def test_notation_accepts_the_rules_spellings():
    s = game().new_state(seed=1, first_caller=0)
    s.apply("contract trumps ♠")
    assert str(s.history[-1][1]) == "contract TRUMPS S"
    s = game().new_state(seed=1, first_caller=0)
    s.apply("contract domino t")
    assert str(s.history[-1][1]) == "contract DOMINO 10"
    with pytest.raises(MalformedActionError):
        s.apply("contract TRUMPS")
    with pytest.raises(MalformedActionError):
        s.apply("contract NO_TRUMPS")
    hands = fill_hands({0: ["QS"]})
    s = start("NO_TRICKS", hands)
    s.apply("play QS")  # rank+suit as in the rules file
    assert str(s.history[-1][1]) == "play SQ"


def test_error_messages_say_why():
    s = game().new_state(seed=1, first_caller=0)
    with pytest.raises(IllegalActionError, match="must first declare"):
        s.apply("pass")
    s.apply("contract BARBU")
    with pytest.raises(IllegalActionError, match="doubling round"):
        s.apply("play SQ")
    with pytest.raises(IllegalActionError, match="yourself"):
        s.apply("double 2")
    with pytest.raises(IllegalActionError, match="only a player who doubled you"):
        s.apply("redouble 1")
    for text in ("double 1", "pass", "pass", "pass"):
        s.apply(text)
    with pytest.raises(IllegalActionError, match="a card must be played"):
        s.apply("pass")
    missing = next(c for c in R.DECK.codes if not s.hands[0] >> R.DECK.parse(c) & 1)
    with pytest.raises(IllegalActionError, match=f"you do not hold {missing}"):
        s.apply(f"play {missing}")
    # Declaring a used contract.
    s = game().new_state(seed=1, first_caller=0)
    s.apply("contract NO_QUEENS")
    for _ in range(4):
        s.apply("pass")
    with pytest.raises(IllegalActionError, match="already played NO_QUEENS"):
        s.apply("contract NO_QUEENS")


@pytest.mark.parametrize("setup, message", [
    ({"hands": [["SA"] * 13] * 4}, "dealt twice"),
    ({"hands": [[]] * 4}, "13 cards"),
    ({"stock": ["SA"]}, "no stock"),
    ({"first_caller": 4}, "first_caller"),
    ({"hand_number": 29}, "hand_number"),
    ({"hand_number": 8, "first_caller": 0}, "used_contracts"),
    ({"hand_number": 8, "first_caller": 0, "used_contracts": [["BARBU"], [], [], []]}, "must have used 7"),
    ({"dealer": 3, "first_caller": 2}, "first caller"),
    ({"scores": [1, 2]}, "scores"),
    ({"scores": [10, 0, 0, 0]}, "sum to 0"),                                  # PR-D8: nothing played yet
    ({"hand_number": 2, "first_caller": 0, "used_contracts": [["TRUMPS"], [], [], []],
      "scores": [60, 0, 0, 0]}, "sum to 65"),
    ({"caller_doubles": [[1, 0, 0, 0]] * 4}, "caller_doubles"),
    ({"trump": "S"}, "no set-up field"),
])
def test_setup_is_validated(setup, message):
    with pytest.raises(SetupError, match=message):
        game().new_state(seed=1, **setup)


def test_explicit_setup_replays():
    hands = fill_hands({0: codes(["QS", "TH"])})
    used = [list(R.CONTRACTS), ["BARBU"], [], []]
    s = game().new_state(seed=9, hands=hands, first_caller=0, hand_number=9, scores=[5, -25, 0, 0],
                         used_contracts=used)
    assert s.current_player == 1 and s.view(1)["available_contracts"] == [c for c in R.CONTRACTS if c != "BARBU"]
    s.apply("contract NO_TRICKS")
    assert stich.replay(s.record()).record() == s.record()
