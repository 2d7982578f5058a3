"""Battn: the X rule, Orbi, Svista, Kritish, views and every option of §A5.1."""

from __future__ import annotations

import json

import pytest
from battn_support import (
    GIANNA,
    GINO,
    NINO,
    TONILE,
    A,
    B,
    choose,
    codes,
    game,
    hand_of,
    legal_cards,
    legal_now,
    new,
    play,
    spare,
    to_choice,
    trick,
)

import stich
from stich import IllegalActionError, MalformedActionError, OptionError, SetupError
from stich.rulesets.battn import display_name
from stich.rulesets.battn.state import CUT, CUT2, MOVE, ORBI, POLL, PREPLAY, SCHE_ASK

ALL = {}   # default options (Orbi on, Scheanara on)


def win_three(s, winner_seat, crits=("K-Po", "4-St", "7-Ra")):
    """Play until the turn ends: ``winner_seat`` holds the critici and plays them when it can."""
    hand = s.hand_number
    while s.hand_number == hand and not s.is_terminal():
        if s.phase != MOVE:
            s.apply("pass")
            continue
        seat = s.current_player
        mine = [c for c in codes(*crits) if c in hand_of(s, seat)]
        card = mine[0] if seat == winner_seat and mine else spare(s, seat, *crits)
        s.apply(f"play {card}")


# --------------------------------------------------------------------------- X1-X8 the X rule
def test_x1_to_x4_match_story():
    s = new({}, scores=[17, 12], options=ALL)
    to_choice(s)
    s.apply("schlok 5")
    s.apply("trumpf Po")
    assert s.current_player == GIANNA and s.phase == POLL
    s.apply("raise")                  # G/G "Tre?"
    s.apply("fold")                   # N/T fold
    assert s.scores == [19, 12] and s.x_team == A          # X1
    assert s.view(NINO)["x_team"] == A
    assert s.view(None)["info"]["base"] == 3               # BT-15.2
    # X2: next turn, no Orbi window (A4-16 vi); G/G decline -> N/T +2.
    while s.phase in (CUT, CUT2):
        s.apply(s.legal_actions()[0])
    assert s.phase == SCHE_ASK
    choose(s)
    assert s.phase == PREPLAY and s.current_player in (GIANNA, GINO)
    assert s.legal_actions() == ["x_play", "x_decline"]
    s.apply("x_decline")
    assert s.scores == [19, 14]
    # X3: N/T "Quattro?" -> G/G fold at 3 -> N/T +2.
    choose(s)
    s.apply("x_play")
    s.apply("pass")                   # G/G's poll before Tonile (R) leads
    assert s.current_player == TONILE
    s.apply("raise")
    s.apply("fold")
    assert s.scores == [19, 16]
    # X4: G/G "Quattro?" -> N/T fold -> G/G +3 -> 22, match won.
    choose(s)
    s.apply("x_play")
    s.apply("pass")
    assert s.current_player == GIANNA
    s.apply("raise")
    s.apply("fold")
    assert s.scores == [22, 16] and s.is_terminal()
    assert s.returns() == [1.0, -1.0, 1.0, -1.0]
    assert s.view(TONILE)["winner"] == A


def test_x5_second_team_gets_no_x():
    s = new({NINO: ["K-Po", "4-St", "7-Ra"]}, scores=[19, 16], options=ALL)
    choose(s)
    s.apply("x_play")
    win_three(s, NINO)
    assert s.scores == [19, 19] and s.x_team == A
    choose(s)
    assert s.legal_actions() == ["x_play", "x_decline"] and s.current_player % 2 == A


def test_x6_fold_after_accepted_raise_costs_full_stake():
    s = new({}, scores=[19, 16], options=ALL)
    choose(s)
    s.apply("x_play")
    s.apply("raise")                  # Gianna's poll: G/G "Quattro?"
    s.apply("accept")                 # N/T: S = 4
    assert s.current_player == NINO
    s.apply("raise")                  # N/T "Cinque?"
    s.apply("fold")                   # G/G fold
    assert s.scores == [19, 20]


@pytest.mark.parametrize("start, end, x", [(18, 21, None), (17, 20, A)])
def test_x7_x8_three_point_turns(start, end, x):
    s = new({GINO: ["K-Po", "4-St", "7-Ra"]}, scores=[start, 5], options=ALL)
    choose(s)
    s.apply("pass")
    s.apply("raise")                  # Nino "Tre?"
    s.apply("accept")                 # S = 3
    win_three(s, GINO)
    assert s.scores == [end, 5] and s.x_team == x
    assert s.is_terminal() == (end >= 21)


def test_x_fold_at_base_option():
    s = new({}, scores=[19, 14], options={"orbi_enabled": False, "x_fold_at_base_costs_2": False})
    choose(s)
    s.apply("x_play")
    s.apply("pass")
    s.apply("raise")
    s.apply("fold")
    assert s.scores == [19, 17]


def test_x_team_may_not_raise_option():
    s = new({}, scores=[19, 14], options={"orbi_enabled": False, "x_team_may_raise": False})
    choose(s)
    s.apply("x_play")
    assert s.phase == MOVE and s.current_player == NINO      # no poll for the X team
    s.apply("raise")
    assert "raise" not in s.legal_actions()                  # no counter-raise either
    with pytest.raises(IllegalActionError, match="X team"):
        s.apply("raise")


# --------------------------------------------------------------------------- O1-O5 Orbi
def orbi_turn(partial=None, scores=(4, 6), **options):
    s = new(partial or {}, scores=list(scores), options=ALL | options)
    assert s.phase == ORBI and s.current_player == NINO      # polled R, P, L, D
    s.apply("orbi_pass")
    s.apply("orbi_pass")
    assert s.current_player == TONILE
    s.apply("orbi")
    assert s.view(GINO)["info"]["orbi"] == B and s.view(GINO)["info"]["base"] == 3
    choose(s)
    assert s.phase == PREPLAY and s.current_player == GIANNA
    assert s.legal_actions() == ["orbi_accept", "orbi_refuse"]
    return s


def test_o1_refused():
    s = orbi_turn()
    s.apply("orbi_refuse")
    assert s.scores == [4, 8]


def test_o2_o3_accepted_counts_as_raise():
    s = orbi_turn({NINO: ["K-Po", "4-St", "7-Ra"]})
    s.apply("orbi_accept")
    assert s.stake == 3
    assert s.phase == POLL and s.current_player == GIANNA
    s.apply("pass")
    assert "raise" not in s.legal_actions()                  # O3: N/T may not raise first
    with pytest.raises(IllegalActionError):
        s.apply("raise")
    s.apply("play PoK")
    s.apply("raise")                                         # Gino: G/G "Quattro?"
    s.apply("accept")                                        # Nino: S = 4
    win_three(s, NINO)
    assert s.scores == [4, 10]                               # O2: N/T +4


def test_orbi_counts_as_raise_option_off():
    s = orbi_turn(orbi_counts_as_raise=False)
    s.apply("orbi_accept")
    s.apply("pass")
    assert "raise" in s.legal_actions()


def test_o4_no_orbi_after_the_x():
    s = new({}, scores=[19, 10], options=ALL)
    assert s.phase == SCHE_ASK


def test_o5_misraise_manual_mode():
    s = orbi_turn({NINO: ["K-Po", "4-St", "7-Ra"]}, manual_mode=True)
    s.apply("orbi_accept")
    s.apply("pass")
    assert "misraise" in s.legal_actions()
    s.apply("misraise")                                      # N/T: "Tre?" by mistake
    win_three(s, NINO)
    assert s.scores == [4, 8]                                # 2, not 3
    assert s.last_result["reason"] == "tricks+misraise"


def test_orbi_before_cut_option():
    s = game(orbi_before_cut=True).new_state(seed=5, dealer=0)
    assert s.phase == ORBI and s.current_player == NINO
    for _ in range(4):
        s.apply("orbi_pass")
    assert s.phase == CUT and s.current_player == TONILE


def test_orbi_after_cut_by_default():
    s = game().new_state(seed=5, dealer=0)
    assert s.phase == CUT
    s.apply("cut 20")
    s.apply("cut_done")
    assert s.phase == ORBI and all(h == 0 or h.bit_count() < 5 for h in s.hands)


# --------------------------------------------------------------------------- V1 Svista
def test_v1_svista_gives_the_turn_to_the_other_team():
    s = new({GINO: ["K-Po", "4-St", "7-Ra"]}, options={"orbi_enabled": False, "scheanara_max": 0,
                                                       "manual_mode": True})
    choose(s)
    s.apply("pass")
    s.apply("raise")
    s.apply("accept")                                        # S = 3
    s.apply("svista DP")                                     # G/G collected an N/T trick
    assert "svista DP" not in s.legal_actions()
    win_three(s, GINO)                                       # G/G "win" three tricks
    assert s.scores == [0, 3]


def test_manual_actions_absent_by_default():
    s = new({})
    choose(s)
    with pytest.raises(IllegalActionError, match="manual mode"):
        s.apply("misraise")


# --------------------------------------------------------------------------- information
def test_partners_see_each_other_at_play_start():
    s = new({}, options={"orbi_enabled": False})
    to_choice(s)
    assert s.view(GINO)["known_hands"][GIANNA] is None
    s.apply("schlok 7")
    s.apply("trumpf Sc")
    v = s.view(GINO)
    assert v["known_hands"][GIANNA] == hand_of(s, GIANNA)
    assert v["known_hands"][NINO] is None and v["known_hands"][TONILE] is None
    assert v["hand"] == hand_of(s, GINO)
    legal_now(s)
    card = legal_cards(s)[0]
    s.apply(f"play {card}")
    assert card not in s.view(TONILE)["known_hands"][NINO]


def test_partners_see_hands_off():
    s = new({}, options={"orbi_enabled": False, "partners_see_hands": False})
    choose(s)
    assert s.view(GINO)["known_hands"][GIANNA] is None


def test_kritish_only_d_and_r_look_before_the_choice():
    s = new({}, options={"orbi_enabled": False, "kritish": True})
    assert s.view(GINO)["hand"] == [] and s.view(TONILE)["hand"] == []
    assert s.view(NINO)["hand"] == hand_of(s, NINO) and s.view(GIANNA)["hand"] == hand_of(s, GIANNA)
    choose(s)
    assert s.view(GINO)["hand"] == hand_of(s, GINO)
    assert s.view(TONILE)["known_hands"][NINO] == hand_of(s, NINO)


def test_view_is_json_and_informative():
    s = new({})
    choose(s, "J", "Ra")
    v = s.view(GIANNA)
    json.dumps(v)
    info = v["info"]
    assert (info["schlok"], info["trumpf"], info["stake"], info["tricks"]) == ("J", "Ra", 2, [0, 0])
    assert info["roles"] == {"D": GIANNA, "R": NINO, "P": GINO, "L": TONILE}
    assert v["legal_actions"] == ["pass", "raise"]
    summary = s.hand_summary()
    json.dumps(summary)
    assert summary["schlok"] == "J" and "hands" not in summary


def test_cut_critici_are_known_to_everybody():
    deck = ["PoK"] + [c for c in game().deck.codes if c != "PoK"]
    s = game(orbi_enabled=False).new_state(seed=2, deck=deck, dealer=0)
    s.apply("cut 1")
    for seat in (None, NINO, GINO):
        assert s.view(seat)["known_hands"][TONILE] == ["PoK"]


# --------------------------------------------------------------------------- options
def test_ace_low():
    cards = [(NINO, "7-Sc"), (GINO, "A-Sc"), (TONILE, "2-St"), (GIANNA, "3-Ra")]
    for ace, winner in (("high", GINO), ("low", NINO)):
        s = new({seat: [c] for seat, c in cards}, options={"orbi_enabled": False, "ace_rank": ace})
        choose(s)
        assert trick(s, cards) == winner


def test_critici_equal_first_played_wins():
    s = new({NINO: ["7-Ra"], GINO: ["K-Po"]}, options={"orbi_enabled": False, "critici_equal": True})
    choose(s)
    assert trick(s, [(NINO, "7-Ra"), (GINO, "K-Po"), (TONILE, spare(s, TONILE)), (GIANNA, spare(s, GIANNA))]) \
        == NINO


def test_uno_buono_last_played_option():
    s = new({NINO: ["5-St"], GINO: ["5-Ra"], TONILE: ["A-Po"], GIANNA: ["5-Sc"]},
            options={"orbi_enabled": False, "uno_buono_tie": "last_played"})
    choose(s)
    assert trick(s, [(NINO, "5-St"), (GINO, "5-Ra"), (TONILE, "A-Po"), (GIANNA, "5-Sc")]) == GIANNA


@pytest.mark.parametrize("triggers, lead, hand, expect", [
    ("plain_only", "5-Po", ["A-Po", "3-Sc"], None),
    ("any_trumpf_suit_card", "K-Po", ["4-Po", "2-Sc", "5-St"], ["4-Po", "5-St"]),
    ("plain_and_buono", "K-Po", ["4-Po", "2-Sc"], None),
])
def test_trump_lead_triggers(triggers, lead, hand, expect):
    s = new({NINO: [lead], GINO: hand}, options={"orbi_enabled": False, "trump_lead_triggers": triggers})
    choose(s)
    play(s, NINO, lead)
    legal = legal_now(s)
    assert legal == (codes(*expect) if expect else hand_of(s, GINO))


def test_follow_rule_first_trick_only():
    s = new({NINO: ["K-Po", "6-Po"], GINO: ["4-Po"]},
            options={"orbi_enabled": False, "follow_rule_first_trick_only": True})
    choose(s)
    trick(s, [(NINO, "K-Po"), (GINO, spare(s, GINO, "4-Po")), (TONILE, spare(s, TONILE)),
              (GIANNA, spare(s, GIANNA))])
    play(s, NINO, "6-Po")
    assert legal_now(s) == hand_of(s, GINO)


def test_critico_releases_obligation():
    s = new({NINO: ["6-Po"], GINO: ["7-Ra"], TONILE: ["J-Po"]},
            options={"orbi_enabled": False, "critico_releases_obligation": True})
    choose(s)
    play(s, NINO, "6-Po")
    play(s, GINO, "7-Ra")
    assert legal_now(s) == hand_of(s, TONILE)


def test_max_cuts_and_min_packet_size():
    s = game(max_cuts=1, min_packet_size=4, orbi_enabled=False).new_state(seed=1, dealer=0)
    assert [a.value for a in s.legal_actions()] == list(range(4, 37))
    s.apply("cut 10")
    assert s.phase == SCHE_ASK
    with pytest.raises(OptionError):
        game(min_packet_size=19)


def test_deal_pattern_3_then_2():
    deck = [c for c in game().deck.codes if c not in ("PoK", "St4", "Ra7")] + ["PoK", "St4", "Ra7"]
    s = game(deal_pattern="3_then_2", orbi_enabled=False).new_state(seed=1, deck=deck, dealer=0)
    s.apply("cut 11")
    cut_deck = [s.game.deck.code(c) for c in s.deck]
    s.apply("cut_done")
    for seat, pos in ((NINO, (0, 1, 2, 12, 13)), (GINO, (3, 4, 5, 14, 15)), (TONILE, (6, 7, 8, 16, 17)),
                      (GIANNA, (9, 10, 11, 18, 19))):
        assert hand_of(s, seat) == codes(*[cut_deck[i] for i in pos])


def test_scheanara_first_speaker_d_and_max():
    s = new({}, options={"orbi_enabled": False, "scheanara_first_speaker": "D"})
    assert s.current_player == GIANNA
    s = new({}, options={"orbi_enabled": False, "scheanara_max": 1})
    s.apply("scheanara")
    s.apply("scheanara_yes")
    assert s.legal_actions()[0].verb == "schlok" and len(s.stock) == 10


def test_schlok_requires_holding():
    s = new({NINO: ["2-Sc", "3-Sc", "6-Sc", "J-Sc", "A-Sc"]},
            options={"orbi_enabled": False, "scheanara_max": 0, "schlok_requires_holding": True})
    assert [a.arg for a in s.legal_actions()] == ["A", "J", "6", "3", "2"]
    with pytest.raises(IllegalActionError, match="A4-13"):
        s.apply("schlok K")


def test_raise_alternation_off():
    s = new({}, options={"orbi_enabled": False, "raise_alternation": False})
    choose(s)
    s.apply("pass")
    s.apply("raise")
    s.apply("accept")
    assert "raise" in s.legal_actions()          # the raiser may raise again


def test_target_and_stake_cap():
    s = new({}, options={"orbi_enabled": False, "target": 5, "x_threshold": 4, "stake_cap": "target"})
    choose(s)
    s.apply("raise")        # Gianna: 3
    s.apply("raise")        # Nino: 4
    s.apply("raise")        # Gianna: 5
    assert s.legal_actions() == ["accept", "fold"]   # option stake_cap = target (PR-B8)
    s.apply("fold")
    assert s.scores == [4, 0] and s.x_team == A


def test_first_dealer_draw_and_random():
    s = game().new_state(seed=11)
    assert s.dealer in (0, 1) and "first_dealer_draw" in s.view(3)
    dealers = {game(first_dealer="random").new_state(seed=k).dealer for k in range(30)}
    assert dealers == {0, 1, 2, 3}


# --------------------------------------------------------------------------- API, set-up, notation
def test_notation_and_errors():
    s = new({NINO: ["K-Po"]})
    choose(s, "k", "po")
    s.apply("pass")
    s.apply("2:play K-Po")                       # 1-based seat prefix, the rules file's spelling
    assert s.view(None)["trick"] == [{"seat": NINO, "card": "PoK"}]
    with pytest.raises(MalformedActionError):
        s.apply("play X-Yz")
    with pytest.raises(IllegalActionError, match="raise_poll"):
        s.apply(f"play {hand_of(s, GINO)[0]}")
    legal_now(s)
    with pytest.raises(IllegalActionError, match="do not hold"):
        s.apply(f"play {hand_of(s, NINO)[0]}")


@pytest.mark.parametrize("setup", [
    {"hands": [["PoK"] * 5] * 4},
    {"hands": [["PoK", "Po2", "Po3", "Po4"]] * 4},
    {"scores": [21, 0]},
    {"scores": [19, 19]},
    {"scores": [3, 3], "x_team": 0},
    {"stock": ["PoK"]},
    {"deck": ["PoK"] * 40},
    {"bogus": 1},
])
def test_setup_errors(setup):
    with pytest.raises(SetupError):
        game().new_state(seed=1, **setup)


def test_record_replay_clone():
    s = game().new_state(seed=4)
    import random
    rng = random.Random(4)
    for _ in range(150):
        if s.is_terminal():
            break
        s.apply(rng.choice(s.legal_actions()))
    c = s.clone()
    again = stich.replay(json.loads(json.dumps(s.record())))
    assert again.record() == s.record() and again.legal_actions() == s.legal_actions()
    if not c.is_terminal():
        c.apply(c.legal_actions()[0])
        assert len(c.history) == len(s.history) + 1


def test_display_names():
    assert display_name("K-Po", "italian") == "Re di Coppe"
    assert display_name("4-St", "italian") == "4 di Denari"
    assert display_name("7-Ra", "italian") == "7 di Bastoni"
    assert display_name("PoK", "french") == "Re di Cuori"
    assert display_name("PoK", "french", "en") == "King of Hearts"
    assert display_name("ScN", "french", "en") == "Queen of Spades"
    assert display_name("StN", "italian", "en") == "Knight of Coins"
    assert display_name("St4", "short") == "4♦"
    assert display_name("PoK", "german", "de") == "Herz König"
    assert display_name("PoK") == "Rollate di Porcini"
    with pytest.raises(ValueError):
        display_name("PoK", "klingon")
