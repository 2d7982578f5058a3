"""The heuristic bot: complete matches, legality, determinism, views only, sensible positions.

Win rates against the random bot are measured by ``benchmarks/heuristic_vs_random.py``, not here.
"""

import copy

import pytest

import stich
import stich.bots.heuristic as heuristic
from stich.bots import fallbacks, make_bot
from stich.rulesets.barbu import heuristic as barbu_bot

CONFIGS = [("watten", v) for v in ("euregio", "bavarian_4", "bavarian_3", "bavarian_2",
                                   "tyrolean", "guate", "blind")]
CONFIGS += [("battn", None), ("biscambiggia", None), ("barbu", None)]
SMALL = {"watten": {"target": 5}, "battn": {"target": 7}, "biscambiggia": {"hands_per_match": 2},
         "barbu": {}}


@pytest.fixture(autouse=True)
def strict(monkeypatch):
    """Errors inside the bot surface instead of falling back to the first legal action."""
    monkeypatch.setattr(fallbacks, "STRICT", True)


def make_game(name, variant):
    opts = dict(SMALL[name])
    if name == "watten":
        opts["lock_at"] = 3
    return stich.game(name, variant=variant, **opts) if variant else stich.game(name, **opts)


def play_match(game, seed, kinds, max_steps=20000):
    """Plays a match; each bot gets only ``state.view(seat)`` and the legal texts."""
    state = game.new_state(seed=seed)
    bots = [make_bot(k, seed=seed * 10 + i) for i, k in enumerate(kinds)]
    chosen = []
    for _ in range(max_steps):
        if state.is_terminal():
            break
        seat = state.current_player
        legal = [str(a) for a in state.legal_actions()]
        view = state.view(seat)
        frozen = copy.deepcopy(view)
        action = bots[seat].choose(view, legal)
        assert isinstance(action, str) and action in legal, (action, legal)
        assert view == frozen, "the bot must not modify the view"
        chosen.append((seat, action))
        state.apply(action)
    assert state.is_terminal()
    return chosen, state.returns()


@pytest.mark.parametrize("name,variant", CONFIGS)
def test_heuristic_plays_complete_legal_deterministic_matches(name, variant):
    game = make_game(name, variant)
    n = game.num_players
    seeds = (1, 2) if name == "barbu" else (1, 2, 3)
    for seed in seeds:
        mixed = ["heuristic" if s % 2 == seed % 2 else "random" for s in range(n)]
        first, _ = play_match(game, seed, mixed)
        again, _ = play_match(game, seed, mixed)
        assert first == again
    play_match(game, 7, ["heuristic"] * n)


def test_heuristic_is_registered():
    bot = make_bot("heuristic", seed=1)
    assert isinstance(bot, heuristic.HeuristicBot) and bot.name == "heuristic"


def test_unknown_game_or_broken_view_falls_back_to_a_legal_action(monkeypatch):
    monkeypatch.setattr(fallbacks, "STRICT", False)
    bot = make_bot("heuristic", seed=1)
    before = fallbacks.counts()["heuristic"]
    assert bot.choose({"game": "nonesuch"}, ["b", "a"]) == "b"   # no game, no heuristic: no fallback
    assert fallbacks.counts()["heuristic"] == before
    assert bot.choose({"game": "watten"}, ["play XX", "raise"]) in ("play XX", "raise")
    assert fallbacks.counts()["heuristic"] == before + 1        # a broken view: counted, not hidden
    monkeypatch.setattr(fallbacks, "STRICT", True)
    with pytest.raises(Exception):  # noqa: B017, PT011 - whatever the game's heuristic raised
        bot.choose({"game": "watten"}, ["play XX", "raise"])
    with pytest.raises(ValueError):
        bot.choose({"game": "watten"}, [])


def decide(state, seed=0):
    seat = state.current_player
    return make_bot("heuristic", seed=seed).choose(state.view(seat), [str(a) for a in state.legal_actions()])


def card_choice(state):
    """The bot's card; a raise on the way is accepted by the other side."""
    seat = state.current_player
    for _ in range(4):
        choice = decide(state)
        if choice != "raise":
            return choice
        state.apply("raise")
        state.apply("accept")
        assert state.current_player == seat
    raise AssertionError("the bot keeps raising")


def play_on(state, *actions):
    for a in actions:
        state.apply(a)
    return state


# --- Watten -----------------------------------------------------------------------------------

def test_watten_partner_winning_last_to_play_keeps_the_rechte():
    g = stich.game("watten", variant="bavarian_4")
    hands = [
        ["H7", "S8", "S9", "L9", "LA"],       # seat 0 leads a low card
        ["HK", "H8", "S10", "E9", "LK"],      # seat 1: Max (highest card of the game)
        ["H9", "H10", "E8", "L7", "L8"],      # seat 2
        ["EU", "SA", "EA", "E10", "L10"],     # seat 3: partner of seat 1, holds the Rechte
    ]
    s = g.new_state(hands=hands, dealer=3)
    play_on(s, "schlag U", "trump E", "play H7", "play HK", "play H9")
    assert s.current_player == 3
    choice = card_choice(s)
    assert choice.startswith("play") and choice not in ("play EU", "play EA")


def test_watten_wins_cheaply_when_last():
    g = stich.game("watten", variant="bavarian_4")
    hands = [
        ["H7", "S8", "S9", "L9", "LA"],
        ["H9", "H8", "S10", "E9", "LK"],
        ["H10", "LO", "E8", "L7", "L8"],
        ["EU", "HA", "EA", "E10", "L10"],     # last to play: HA takes the trick, keep the trumps
    ]
    s = g.new_state(hands=hands, dealer=3)
    play_on(s, "schlag U", "trump E", "play H7", "play H8", "play H10")
    assert card_choice(s) == "play HA"


def test_watten_strong_hand_names_its_schlag_and_trump():
    g = stich.game("watten", variant="tyrolean")
    hands = [
        ["HU", "SU", "EU", "L9", "H7"],        # forehand: three Unter
        ["H8", "S9", "S10", "E9", "LK"],
        ["H9", "H10", "E8", "L7", "L8"],
        ["LA", "LU", "LO", "L10", "SA"],   # dealer: Laub
    ]
    s = g.new_state(hands=hands, dealer=3)
    assert decide(s) == "schlag U"
    s.apply("schlag U")
    assert decide(s) == "trump L"


def test_watten_accepts_a_raise_with_a_good_hand_and_raises_with_a_great_one():
    g = stich.game("watten", variant="bavarian_4")
    hands = [
        ["HK", "S7", "E7", "EU", "LA"],       # all three Kritische and the Rechte
        ["H8", "S9", "S10", "E9", "LK"],
        ["H9", "H10", "E8", "L7", "L8"],
        ["HU", "SA", "EA", "E10", "L10"],
    ]
    s = g.new_state(hands=hands, dealer=3)
    play_on(s, "schlag U", "trump E")
    assert s.current_player == 0 and decide(s) == "raise"


# --- Battn ------------------------------------------------------------------------------------

def test_battn_schlok_and_trumpf_follow_the_hand():
    g = stich.game("battn")
    hands = [
        ["Ra2", "Ra3", "RaA", "RaN", "Sc3"],     # D = seat 0: Rastrelli
        ["Po5", "St5", "Sc5", "St2", "Sc2"],     # R = seat 1: three fives
        ["Po2", "Po3", "St3", "St6", "Sc4"],
        ["Po6", "St7", "Sc6", "Sc7", "Ra4"],
    ]
    s = g.new_state(hands=hands, dealer=0, scores=[0, 0])
    while not str(s.legal_actions()[0]).startswith("schlok"):
        s.apply(s.legal_actions()[0])   # passive choices: no Orbi, no Scheanara
    assert s.current_player == 1 and decide(s) == "schlok 5"
    s.apply("schlok 5")
    assert s.current_player == 0 and decide(s) == "trumpf Ra"


# --- Biscambiggia -----------------------------------------------------------------------------

BISC_HANDS = [
    ["H2", "H3", "D2", "D3", "C2", "C3", "S2", "S3"],          # A: nothing
    ["HA", "H7", "HK", "HQ", "HJ", "DA", "CA", "S7"],           # B: very strong in hearts
    ["H4", "H5", "D4", "D5", "C4", "C5", "S4", "S5"],
    ["H6", "D6", "D7", "DK", "C6", "C7", "CK", "S6"],
    ["DQ", "DJ", "CQ", "CJ", "SA", "SK", "SQ", "SJ"],
]


def test_biscambiggia_strong_hand_bids_and_weak_hand_passes():
    g = stich.game("biscambiggia")
    s = g.new_state(hands=BISC_HANDS, dealer=4, scores=[0] * 5)
    assert decide(s) == "bid 61"          # the compulsory opener bids the minimum
    s.apply("bid 61")
    assert decide(s) == "bid 62"          # strong hand overcalls
    s.apply("bid 62")
    assert decide(s) == "pass"            # weak hand passes


def test_biscambiggia_calls_the_best_missing_card_of_its_long_suit():
    g = stich.game("biscambiggia")
    s = g.new_state(hands=BISC_HANDS, dealer=4, scores=[0] * 5)
    play_on(s, "bid 61", "bid 62", "pass", "pass", "pass", "pass")
    assert s.current_player == 1
    assert decide(s) == "call H6"         # hearts: A 7 K Q J held, the 6 is the best missing


def test_biscambiggia_smears_points_on_a_safe_partner_trick():
    g = stich.game("biscambiggia")
    s = g.new_state(hands=BISC_HANDS, dealer=4, scores=[0] * 5)
    play_on(s, "bid 61", "bid 62", "pass", "pass", "pass", "pass", "call H6")
    # seat 3 holds the called H6: he is the traitor and knows the caller (seat 1)
    play_on(s, "play S2", "play HA", "play S4")
    assert s.current_player == 3 and s.view(3).get("role") == "traitor"
    # partner's trump ace cannot be beaten: seat 3 smears a non-trump 7 (10 points)
    assert decide(s) in ("play D7", "play C7")


# --- Barbu ------------------------------------------------------------------------------------

BARBU_HANDS = [
    ["S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9", "D2", "D3", "D4", "D5", "D6"],
    ["C2", "C3", "C4", "C5", "C6", "C7", "C8", "C9", "C10", "CJ", "CQ", "CK", "CA"],
    ["H2", "H3", "H4", "H5", "H6", "H7", "H8", "H9", "H10", "HJ", "HQ", "HK", "HA"],
    ["S10", "SJ", "SQ", "SK", "SA", "D7", "D8", "D9", "D10", "DJ", "DQ", "DK", "DA"],
]


def barbu_state(contract):
    g = stich.game("barbu")
    s = g.new_state(hands=BARBU_HANDS, first_caller=0)
    assert s.current_player == 0
    s.apply(contract)
    # one double so that a negative contract is played
    while s.view(s.current_player).get("contract") and str(s.legal_actions()[0]) in ("pass",) \
            or any(str(a).startswith("double") for a in s.legal_actions()):
        legal = [str(a) for a in s.legal_actions()]
        dbl = [a for a in legal if a.startswith("double")]
        s.apply(dbl[0] if dbl and s.current_player == 1 else ("pass" if "pass" in legal else legal[0]))
    return s


def test_barbu_no_hearts_discards_a_heart_when_void():
    s = barbu_state("contract NO_HEARTS")
    assert s.current_player == 0
    s.apply("play D2")
    assert s.current_player == 1
    # seat 1 holds only clubs: void in diamonds; seat 2 holds only hearts: must discard one
    s.apply(decide(s))
    assert s.current_player == 2
    assert decide(s) == "play HA"          # the most expensive heart goes first


def test_barbu_barbu_throws_the_king_of_hearts():
    s = barbu_state("contract BARBU")
    s.apply("play S2")
    s.apply(decide(s))                      # seat 1: a club
    assert decide(s) == "play HK"


def test_barbu_negative_contract_ducks_under_the_winning_card():
    s = barbu_state("contract NO_TRICKS")
    s.apply("play D6")
    s.apply(decide(s))
    s.apply(decide(s))
    assert s.current_player == 3
    assert decide(s) == "play DA"          # cannot duck under D6: last to play, sheds the ace
    s = barbu_state("contract NO_QUEENS")
    s.apply("play D2")
    s.apply(decide(s))
    s.apply(decide(s))
    assert decide(s) == "play DA"           # last to play and must win: never the queen


def test_barbu_contract_choice_and_doubling_obligation():
    g = stich.game("barbu")
    s = g.new_state(hands=BARBU_HANDS, first_caller=0)
    # seat 0: two unbroken runs of low cards, nothing above a 9: no tricks or domino, never trumps
    assert decide(s) in ("contract NO_TRICKS",) + tuple(f"contract DOMINO {r}" for r in "3456789")
    s3 = g.new_state(hands=BARBU_HANDS[3:] + BARBU_HANDS[:3], first_caller=0)
    assert decide(s3) in ("contract TRUMPS S", "contract TRUMPS D")
    used = [["NO_TRICKS", "NO_HEARTS", "NO_QUEENS", "BARBU", "NO_LAST_TWO", "DOMINO"], [], [], []]
    forced = g.new_state(hands=BARBU_HANDS, first_caller=0, hand_number=7, used_contracts=used,
                         caller_doubles=[[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    forced.apply("contract TRUMPS S")
    legal = [str(a) for a in forced.legal_actions()]
    assert "pass" not in legal                   # the last deal of the block: the double is due
    choice = decide(forced)
    assert choice in legal and 0 in barbu_bot.parse_doubling(choice)[0]
    assert barbu_bot.parse_doubling("double 1,3 redouble 2") == ({0, 2}, {1})
    assert barbu_bot.parse_doubling("double P1,P2 redouble P0") == ({1, 2}, {0})


def test_barbu_domino_unblocks_its_own_run():
    g = stich.game("barbu")
    s = g.new_state(hands=BARBU_HANDS, first_caller=0)
    s.apply("contract DOMINO 8")
    while str(s.legal_actions()[0]) != "play S8" and not str(s.legal_actions()[0]).startswith("play"):
        s.apply("pass" if "pass" in [str(a) for a in s.legal_actions()] else s.legal_actions()[0])
    # seat 0 holds S2..S9 and D2..D6: S8 opens spades, where all his other spades lie below
    assert s.current_player == 0 and decide(s) == "play S8"


def test_battn_lets_the_partner_take_a_trick_he_surely_wins():
    g = stich.game("battn")
    hands = [
        ["PoK", "Po2", "Po3", "Sc5", "St3"],     # D = seat 0: the Barba (partner of seat 2)
        ["Ra3", "Ra4", "St7", "StJ", "Sc6"],     # R = seat 1 leads a plain trump
        ["Ra5", "St2", "Sc3", "Sc4", "St6"],     # P = seat 2: Il Buono, no plain trump
        ["Ra6", "RaA", "Sc7", "ScK", "PoA"],     # L = seat 3
    ]
    s = g.new_state(hands=hands, dealer=0, scores=[0, 0])

    def passive_until_play(seat):
        while True:
            legal = [str(a) for a in s.legal_actions()]
            if s.current_player == seat and any(a.startswith("play") for a in legal):
                return
            if legal[0].startswith("schlok"):
                s.apply("schlok 5")
            elif legal[0].startswith("trumpf"):
                s.apply("trumpf Ra")
            else:
                s.apply(legal[0])

    passive_until_play(1)
    s.apply("play Ra3")
    passive_until_play(2)
    assert s.view(2)["known_hands"][0]            # the partner's hand is known
    assert card_choice(s) == "play St2"           # not the Buono: the Barba will take it


def test_watten_folds_a_raise_when_the_hand_is_lost():
    g = stich.game("watten", variant="bavarian_4")
    hands = [
        ["HK", "S7", "H8", "H9", "L7"],       # seat 0: Max and Belli
        ["S8", "S9", "L8", "L9", "H10"],      # seat 1: nothing
        ["E7", "EA", "L10", "S10", "HA"],     # seat 2: Spitz
        ["SA", "SK", "LK", "LA", "HO"],       # seat 3
    ]
    s = g.new_state(hands=hands, dealer=3)
    play_on(s, "schlag U", "trump E",
            "play HK", "play S8", "play L10", "play SA",
            "play S7", "play S9", "play S10", "play SK", "raise")
    assert s.current_player == 1 and s.view(1)["tricks_won"] == [2, 0]
    assert decide(s) == "fold"


def test_watten_leads_its_unbeatable_card():
    g = stich.game("watten", variant="bavarian_4")
    hands = [
        ["HK", "S8", "H8", "H9", "L7"],       # seat 0: Max, the best card of the game
        ["S7", "S9", "L8", "L9", "H10"],
        ["E7", "EA", "L10", "S10", "HA"],
        ["SA", "SK", "LK", "LA", "HO"],
    ]
    s = g.new_state(hands=hands, dealer=3)
    play_on(s, "schlag U", "trump E")
    assert card_choice(s) == "play HK"


@pytest.mark.parametrize("variant", ["bavarian_4", "tyrolean", "guate"])
@pytest.mark.parametrize("guate7", [False, True])
def test_watten_heuristic_strength_is_the_games_own_ranking(variant, guate7):
    """The heuristic's card keys with known Schlag and trump are exactly the engine's ranking (it
    reads the game's rank codes, Kritische and Guate rule instead of keeping copies)."""
    from stich.rulesets.watten import heuristic as hw
    from stich.rulesets.watten.ranking import RANK_CODES, SUIT_CODES, build_ranking

    game = stich.game("watten", variant, **({"guate_when_weli_schlag": "trump7"} if guate7 and variant == "guate"
                                            else {}))
    d = game.deck
    for schlag in game.schlag_ranks:
        for trump in range(4):
            rk = build_ranking(d, game.family, schlag, trump, game.guate_trump7)
            for c in range(len(d)):
                mine = hw.key(d.code(c), RANK_CODES[schlag], SUIT_CODES[trump], hw.family(variant), game.guate_trump7)
                assert mine == rk.key[c], (variant, RANK_CODES[schlag], SUIT_CODES[trump], d.code(c))
