"""The worked examples of rules/battn.md §A5 and the source's Gianna/Gino/Nino/Tonile examples,
through the public API (explicit set-ups, actions, legal_actions, views, scores)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from battn_support import (
    GIANNA,
    GINO,
    NINO,
    TONILE,
    A,
    B,
    act,
    calls,
    choose,
    codes,
    game,
    hand_of,
    legal_cards,
    legal_now,
    new,
    play,
    spare,
    stock_of,
    to_choice,
    trick,
)

from stich import IllegalActionError
from stich.rulesets.battn.cards import DECK
from stich.rulesets.battn.state import MOVE, SCHE_ASK

# --------------------------------------------------------------------------- T1-T10 card strength
# Trick 1 is led by R = Nino; the order is Nino, Gino, Tonile, Gianna (BT-1.3).
ORDER = (NINO, GINO, TONILE, GIANNA)


def winner_of(cards, schlok="5", trumpf="Po", leader_order=ORDER, options=None):
    s = new({seat: [c] for seat, c in zip(leader_order, cards, strict=True)}, schlok, trumpf, options=options)
    choose(s, schlok, trumpf)
    w = trick(s, list(zip(leader_order, cards, strict=True)))
    return leader_order.index(w)


@pytest.mark.parametrize("name, cards, pos", [
    ("T1 critico wins", ["6-Po", "4-Po", "4-St", "N-Po"], 2),
    ("T2 critico beats Uno Buono", ["5-Sc", "3-St", "5-St", "7-Ra"], 3),
    ("T3 first Uno Buono wins", ["5-St", "5-Ra", "A-Po", "5-Sc"], 0),
    ("T4 Spitz beats Il Buono", ["5-Po", "7-Ra", "2-Po", "3-Sc"], 1),
    ("T5 Il Buono", ["K-Sc", "A-Sc", "3-Ra", "5-Po"], 3),
    ("T6 highest trump", ["7-Sc", "6-Ra", "2-Po", "A-Po"], 3),
    ("T7 lead suit only", ["7-Sc", "A-St", "K-Ra", "6-Sc"], 0),
    ("T8 lowest trump beats led suit", ["7-Sc", "A-Sc", "2-Po", "K-Sc"], 2),
    ("T9 Barba lead", ["K-Po", "2-Sc", "A-St", "J-Po"], 0),
])
def test_trick_winners(name, cards, pos):
    assert winner_of(cards) == pos, name


def test_t1_tonile_wins_for_nino_and_tonile():
    s = new({NINO: ["6-Po"], GINO: ["4-Po"], TONILE: ["4-St"], GIANNA: ["N-Po"]})
    choose(s)
    assert trick(s, [(NINO, "6-Po"), (GINO, "4-Po"), (TONILE, "4-St"), (GIANNA, "N-Po")]) == TONILE
    assert s.view(None)["info"]["tricks"] == [0, 1]


def test_t5_without_il_buono_the_ace_wins():
    assert winner_of(["K-Sc", "A-Sc", "3-Ra", "3-Sc"]) == 1


def test_t7_literal_reading_option():
    opts = {"orbi_enabled": False, "scheanara_max": 0, "plain_any_suit_wins": True}
    assert winner_of(["7-Sc", "A-St", "K-Ra", "6-Sc"], options=opts) == 1


def test_t10_schlok_on_a_critico():
    # Schlòk K, Trumpf Po: K-Po is Barba, no Il Buono; Uno Buono K-St, K-Ra, K-Sc.
    assert winner_of(["K-Sc", "K-St", "A-Po", "2-Po"], "K", "Po") == 0          # (a)
    assert winner_of(["K-Sc", "K-St", "K-Po", "A-Po"], "K", "Po") == 2          # (b)
    assert winner_of(["K-Ra", "K-Sc", "2-Sc", "4-Sc"], "K", "Sc") == 1          # (c) Il Buono K-Sc


# --------------------------------------------------------------------------- L1-L8 legal cards
def legal_after_lead(lead, hand, schlok="5", trumpf="Po"):
    """Nino leads ``lead``; Gino (next) holds ``hand``: his legal cards."""
    s = new({NINO: [lead], GINO: hand}, schlok, trumpf)
    choose(s, schlok, trumpf)
    play(s, NINO, lead)
    while s.current_player != GINO or s.phase != MOVE:
        s.apply("pass")
    return legal_cards(s), s


def test_l1_source_example_gianna_may_play_the_spitz():
    s = new({NINO: ["6-Po"], GIANNA: ["7-Ra", "A-Po", "N-Po", "3-St", "2-Sc"]})
    choose(s)
    play(s, NINO, "6-Po")
    play(s, GINO, hand_of(s, GINO)[0])
    play(s, TONILE, hand_of(s, TONILE)[0])
    while s.current_player != GIANNA or s.phase != MOVE:
        s.apply("pass")
    assert legal_cards(s) == codes("7-Ra", "A-Po", "N-Po")
    with pytest.raises(IllegalActionError, match="plain trump"):
        s.apply("play 3-St")
    with pytest.raises(IllegalActionError):
        s.apply("play 2-Sc")
    s.apply("play 7-Ra")     # "potrebbe decidere di giocare lo Spitz ... al posto di un Trumpf"


def test_l2_exempt_cards_may_replace_a_trump():
    legal, _ = legal_after_lead("6-Po", ["7-Ra", "4-Po", "N-Po", "2-Sc", "5-St"])
    assert legal == codes("7-Ra", "4-Po", "N-Po", "5-St")


def test_l3_il_buono_is_never_forced():
    legal, _ = legal_after_lead("6-Po", ["5-Po", "3-Sc", "7-St", "2-Ra", "A-Sc"])
    assert legal == codes("5-Po", "3-Sc", "7-St", "2-Ra", "A-Sc")


def test_l4_critico_lead_does_not_trigger():
    legal, s = legal_after_lead("K-Po", ["4-Po", "2-Sc"])
    assert len(legal) == 5 and set(codes("4-Po", "2-Sc")) <= set(legal)


def test_l5_il_buono_lead_triggers():
    legal, s = legal_after_lead("5-Po", ["A-Po", "3-Sc", "4-St"])
    assert legal == codes("A-Po", "4-St")


def test_l6_uno_buono_lead_does_not_trigger():
    legal, _ = legal_after_lead("5-St", ["A-Po", "3-Sc", "2-Ra"])
    assert len(legal) == 5 and set(codes("A-Po", "3-Sc", "2-Ra")) <= set(legal)


def test_l7_source_hand_example():
    s = new({NINO: ["6-Po"], GIANNA: ["K-Po", "A-Po", "N-Po", "3-Ra", "3-St"]})
    choose(s)
    play(s, NINO, "6-Po")
    play(s, GINO, hand_of(s, GINO)[0])
    play(s, TONILE, hand_of(s, TONILE)[0])
    while s.current_player != GIANNA or s.phase != MOVE:
        s.apply("pass")
    assert legal_cards(s) == codes("K-Po", "A-Po", "N-Po")


def test_l8_no_plain_trump_means_free():
    legal, _ = legal_after_lead("3-Po", ["K-Po", "2-Sc", "K-St"], schlok="K", trumpf="Po")
    assert len(legal) == 5 and set(codes("K-Po", "2-Sc", "K-St")) <= set(legal)


# --------------------------------------------------------------------------- C1-C5 cut and deal
C2_DECK = ("6-Po 6-Sc N-St 2-St 6-St A-St 3-Ra K-Ra 3-Po K-St 2-Sc A-Po A-Sc 4-St K-Po 3-St N-Ra K-Sc 4-Ra "
           "7-Ra 7-St N-Sc 4-Po 5-Ra 4-Sc J-St N-Po 3-Sc J-Sc 5-St 2-Ra 5-Sc J-Ra 5-Po 7-Sc 7-Po J-Po 6-Ra "
           "2-Po A-Ra").split()


def deck_with(placed: dict):
    """A 40-card deck with the given cards at the given positions, the rest in deck order."""
    rest = [c for c in DECK.codes if c not in {DECK.code(DECK.parse(x)) for x in placed.values()}]
    out = []
    for i in range(40):
        out.append(DECK.code(DECK.parse(placed[i])) if i in placed else rest.pop(0))
    return out


def cut_state(deck, **options):
    opts = {"orbi_enabled": False} | options
    return game(**opts).new_state(seed=3, deck=deck, dealer=GIANNA)


def test_c1_no_critico():
    s = cut_state(deck_with({9: "A-Sc"}))
    assert s.current_player == TONILE            # L cuts (BT-5.1)
    s.apply("cut 10")
    s.apply("cut_done")
    assert [len(hand_of(s, x)) for x in range(4)] == [5, 5, 5, 5]
    assert len(s.stock) == 20 and stock_of(s)[-1] == "ScA"
    v = s.view(GINO)
    assert v["info"]["stock_bottom"] == "ScA"
    assert v["info"]["cuts"][0]["revealed"] == ["ScA"]


def test_c2_full_vector_two_critici():
    s = cut_state(C2_DECK)
    s.apply("cut 15")
    cut = s.view(None)["info"]["cuts"][0]
    assert cut["revealed"] == ["PoK", "St4", "ScA"] and cut["to"] == [TONILE, GIANNA, None]
    assert s.deck[-1] == DECK.parse("A-Sc") and len(s.deck) == 38
    s.apply("cut_done")
    assert hand_of(s, NINO) == codes("3-St", "7-Ra", "5-Ra", "3-Sc", "5-Sc")
    assert hand_of(s, GINO) == codes("N-Ra", "7-St", "4-Sc", "J-Sc", "J-Ra")
    assert hand_of(s, TONILE) == codes("K-Po", "K-Sc", "N-Sc", "J-St", "5-St")
    assert hand_of(s, GIANNA) == codes("4-St", "4-Ra", "4-Po", "N-Po", "2-Ra")
    assert stock_of(s) == [DECK.code(DECK.parse(c)) for c in
                           "5-Po 7-Sc 7-Po J-Po 6-Ra 2-Po A-Ra 6-Po 6-Sc N-St 2-St 6-St A-St 3-Ra K-Ra "
                           "3-Po K-St 2-Sc A-Po A-Sc".split()]
    # The critici taken at the cut are public (BT-5.5): Gino's view knows Tonile holds Barba.
    assert "PoK" in s.view(GINO)["known_hands"][TONILE]
    # Scheanara once, then twice (BT-8.3, BT-8.5).
    s.apply("scheanara")
    s.apply("scheanara_yes")
    assert hand_of(s, NINO) == codes("5-Po", "7-Po", "6-Ra", "A-Ra", "6-Sc")
    assert hand_of(s, GIANNA) == codes("7-Sc", "J-Po", "2-Po", "6-Po", "N-St")
    assert len(s.stock) == 10
    s.apply("scheanara")
    s.apply("scheanara_yes")
    assert hand_of(s, NINO) == codes("2-St", "A-St", "K-Ra", "K-St", "A-Po")
    assert hand_of(s, GIANNA) == codes("6-St", "3-Ra", "3-Po", "2-Sc", "A-Sc")
    assert s.stock == [] and s.legal_actions()[0].verb == "schlok"          # S3: no third offer
    assert s.view(GIANNA)["hand"] == hand_of(s, GIANNA)


def test_c2_remaining_packet_option():
    s = cut_state(C2_DECK, cut_next_card_from="remaining_packet")
    s.apply("cut 15")
    cut = s.view(None)["info"]["cuts"][0]
    assert cut["revealed"] == ["PoK", "St3"] and cut["to"] == [TONILE, None]
    assert bin(s.hands[GIANNA]).count("1") == 0 and hand_of(s, TONILE) == ["PoK"]


def test_c3_three_critici_in_one_cut():
    s = cut_state(deck_with({19: "4-St", 18: "7-Ra", 17: "K-Po", 16: "2-St"}))
    s.apply("cut 20")
    cut = s.view(None)["info"]["cuts"][0]
    assert cut["revealed"] == ["St4", "Ra7", "PoK", "St2"]
    assert cut["to"] == [TONILE, GIANNA, TONILE, None]
    s.apply("cut_done")
    assert "St4" in hand_of(s, TONILE) and "PoK" in hand_of(s, TONILE) and "Ra7" in hand_of(s, GIANNA)
    assert len(s.stock) == 20 and all(len(hand_of(s, x)) == 5 for x in range(4))
    assert stock_of(s)[-1] == "St2"


def test_c4_two_cuts_sequence_restarts():
    s = cut_state(deck_with({9: "7-Ra", 8: "6-St", 29: "K-Po", 28: "4-St", 27: "N-Sc"}))
    s.apply("cut 10")
    assert s.view(None)["info"]["cuts"][0]["revealed"] == ["Ra7", "St6"]
    s.apply("cut 20")
    cut2 = s.view(None)["info"]["cuts"][1]
    assert cut2["revealed"] == ["PoK", "St4", "ScN"] and cut2["to"] == [TONILE, GIANNA, None]
    assert codes("7-Ra", "K-Po") == sorted(c for c in hand_of(s, TONILE) if c in ("Ra7", "PoK"))
    assert "St4" in hand_of(s, GIANNA)
    assert stock_of(s)[-1] == "ScN" and s.view(NINO)["info"]["stock_bottom"] == "ScN"
    assert s.phase == SCHE_ASK   # no third cut: the Scheanara follows


def test_c5_probability_of_three_critici():
    p = Fraction(3, 40) * Fraction(2, 39) * Fraction(1, 38)
    assert p == Fraction(1, 9880) and round(float(p) * 100, 4) == 0.0101


def test_deal_table_single_cards_l2_d1():
    # BT-6.2 row "L:2, D:1": R 0,4,8,12,15; P 1,5,9,13,16; L 2,6,10; D 3,7,11,14 (17 cards dealt).
    s = cut_state(deck_with({19: "4-St", 18: "7-Ra", 17: "K-Po", 16: "2-St"}))
    s.apply("cut 20")
    deck = [DECK.code(c) for c in s.deck]
    s.apply("cut_done")
    pos = {NINO: (0, 4, 8, 12, 15), GINO: (1, 5, 9, 13, 16), TONILE: (2, 6, 10), GIANNA: (3, 7, 11, 14)}
    for seat, ps in pos.items():
        assert {deck[i] for i in ps} <= set(hand_of(s, seat))
    assert stock_of(s) == deck[17:]


# --------------------------------------------------------------------------- S1-S3 Scheanara
def test_s1_source_example_log():
    s = new({}, options={"orbi_enabled": False})
    s.apply("scheanara")          # Nino: "Scheanara?"
    s.apply("scheanara_yes")      # Gianna accepts
    assert len(s.stock) == 10
    s.apply("scheanara")
    s.apply("scheanara_no")       # "Scordatelo!"
    s.apply("schlok 5")
    s.apply("trumpf Po")
    assert calls(s) == [[NINO, "scheanara"], [GIANNA, "scheanara_yes"], [NINO, "scheanara"],
                        [GIANNA, "scheanara_no"], [NINO, "schlok 5"], [GIANNA, "trumpf Po"]]
    assert len(s.stock) == 10


def test_source_hand_values_example():
    """[S0] "Esempio di gioco - Valori Mano": after one exchange Gianna holds Port, A-Po, N-Po, 3-Ra,
    3-St and Nino 5-Po, 5-St, 6-Po and two Sci; Nino asks again, "Scordatelo!"; Schlòk 5, Trumpf Po."""
    nino_new = ["5-Po", "5-St", "6-Po", "2-Sc", "7-Sc"]
    gianna_new = ["K-Po", "A-Po", "N-Po", "3-Ra", "3-St"]
    gino = ["7-Ra", "4-Po", "K-Sc", "A-St", "6-Ra"]
    tonile = ["4-St", "5-Sc", "J-Po", "2-Po", "A-Sc"]
    used = {DECK.parse(c) for c in nino_new + gianna_new + gino + tonile}
    rest = [DECK.code(c) for c in range(40) if c not in used]
    nino_old, gianna_old, others = rest[:5], rest[5:10], rest[10:]
    stock = [c for pair in zip(nino_new, gianna_new, strict=True) for c in pair] + others
    s = game(orbi_enabled=False).new_state(seed=1, hands=[gianna_old, nino_old, gino, tonile],
                                           stock=stock, dealer=GIANNA)
    s.apply("scheanara")
    s.apply("scheanara_yes")
    assert hand_of(s, GIANNA) == codes(*gianna_new) and hand_of(s, NINO) == codes(*nino_new)
    assert s.view(GIANNA)["hand"] == codes(*gianna_new)
    s.apply("scheanara")
    s.apply("scheanara_no")
    s.apply("schlok 5")
    s.apply("trumpf Po")
    assert s.view(TONILE)["info"]["stock"] == 10
    play(s, NINO, "6-Po")                     # "Nino ... decide di partire con il 6 di Porcini"
    assert legal_now(s) == codes("4-Po", "7-Ra")


def test_scheanara_discards_cut_critici_from_public_knowledge():
    s = cut_state(C2_DECK)
    s.apply("cut 15")
    s.apply("cut_done")
    assert s.view(NINO)["known_hands"][GIANNA] == ["St4"]
    s.apply("scheanara")
    s.apply("scheanara_yes")                  # Gianna's Belli is discarded (A4-12 iv)
    assert s.view(NINO)["known_hands"][GIANNA] is None
    assert "St4" not in hand_of(s, GIANNA)


def test_s2_pass_then_refusal():
    s = new({}, options={"orbi_enabled": False})
    before = [list(hand_of(s, x)) for x in range(4)]
    s.apply("scheanara_pass")                 # R
    assert s.current_player == GIANNA
    s.apply("scheanara")                      # D asks
    assert s.current_player == NINO
    s.apply("scheanara_no")                   # R refuses
    assert [hand_of(s, x) for x in range(4)] == before and s.legal_actions()[0].verb == "schlok"


def test_s3_two_exchanges_then_choice():
    s = new({}, options={"orbi_enabled": False})
    for _ in range(2):
        s.apply("scheanara")
        s.apply("scheanara_yes")
    assert s.stock == [] and all(a.verb == "schlok" for a in s.legal_actions())


# --------------------------------------------------------------------------- R1-R7 raising
R6_HANDS = {NINO: ["5-Po", "5-St", "6-Po", "2-Sc", "7-Sc"], GINO: ["7-Ra", "4-Po", "K-Sc", "A-St", "6-Ra"],
            TONILE: ["4-St", "5-Sc", "J-Po", "2-Po", "A-Sc"], GIANNA: ["K-Po", "A-Po", "N-Po", "3-Ra", "3-St"]}


def r6_to_trick3():
    s = new(R6_HANDS)
    choose(s)
    # Trick 1, with the legal sets of the example.
    play(s, NINO, "6-Po")
    assert legal_now(s) == codes("4-Po", "7-Ra")
    play(s, GINO, "4-Po")
    assert legal_now(s) == codes("J-Po", "2-Po", "4-St", "5-Sc")
    play(s, TONILE, "4-St")
    assert legal_now(s) == codes("A-Po", "N-Po", "K-Po")
    play(s, GIANNA, "N-Po")
    assert s.view(None)["tricks"][-1]["winner"] == TONILE
    # Trick 2: before Gino plays, Gino "Tre?" -> Nino "Non vado!".
    play(s, TONILE, "5-Sc")
    play(s, GIANNA, "3-St")
    play(s, NINO, "5-St")
    act(s, GINO, "raise")
    assert s.current_player == NINO
    s.apply("accept")
    assert s.stake == 3 and s.view(None)["info"]["raise_right"] == B
    assert "raise" not in s.legal_actions()          # the raise right passed to Nino/Tonile
    play(s, GINO, "7-Ra")
    assert s.view(None)["tricks"][-1]["winner"] == GINO
    # Trick 3: before Gino leads, Nino "Quattro?".
    assert s.current_player == NINO and s.legal_actions() == ["pass", "raise"]
    s.apply("raise")
    assert s.current_player == GINO
    return s


def test_r1_r6a_source_raise_example_refused():
    s = r6_to_trick3()
    s.apply("fold")                                 # Gianna and Gino do not risk it
    assert s.scores == [0, 3]                       # Nino/Tonile +3
    assert s.view(GINO)["last_result"] == {"hand": 1, "team": B, "points": 3, "reason": "fold", "stake": 3}


def test_r6b_complete_turn_accepted():
    s = r6_to_trick3()
    s.apply("accept")
    assert s.stake == 4
    assert trick(s, [(GINO, "K-Sc"), (TONILE, "A-Sc"), (GIANNA, "3-Ra"), (NINO, "5-Po")]) == NINO
    assert trick(s, [(NINO, "7-Sc"), (GINO, "6-Ra"), (TONILE, "2-Po"), (GIANNA, "A-Po")]) == GIANNA
    assert trick(s, [(GIANNA, "K-Po"), (NINO, "2-Sc"), (GINO, "A-St"), (TONILE, "J-Po")]) == GIANNA
    assert s.scores == [4, 0]                        # Gianna/Gino +4
    assert s.hand_number == 2


def start_play(s):
    choose(s)
    return s


def test_r2_fold_to_first_raise_gives_two():
    s = start_play(new({}))
    s.apply("pass")            # Gianna's poll before Nino's lead
    s.apply("raise")           # Nino "Tre?"
    s.apply("fold")            # Gianna folds for G/G
    assert s.scores == [0, 2]


def test_r3_counter_raise_then_fold():
    s = start_play(new({}))
    s.apply("pass")
    s.apply("raise")           # B: "Tre?"
    assert s.current_player == GIANNA
    s.apply("raise")           # A: counter "Quattro?" (accepting 3)
    assert s.stake == 3 and s.current_player == NINO
    s.apply("fold")
    assert s.scores == [3, 0]


def test_r4_raise_right_alternates():
    s = start_play(new({}))
    s.apply("pass")            # A's poll before Nino's lead
    s.apply("raise")           # T = B (Nino) "Tre?"
    s.apply("accept")          # U = A accepts: S = 3
    assert s.current_player == NINO and "raise" not in s.legal_actions()
    with pytest.raises(IllegalActionError, match="raise right"):
        s.apply("raise")       # T may not raise "Quattro?"
    play(s, NINO, hand_of(s, NINO)[0])
    assert s.current_player == GINO and "raise" in s.legal_actions()   # no poll of B: right is A's
    s.apply("raise")           # U "Quattro?"
    assert s.current_player == NINO
    s.apply("accept")          # T accepts: S = 4, T may raise next
    assert s.stake == 4
    play(s, GINO, hand_of(s, GINO)[0])
    assert s.current_player == TONILE and "raise" in s.legal_actions()


def test_r5_chain_and_win():
    # Gino holds the three critici, so U = A wins three tricks.
    s = start_play(new({GINO: ["K-Po", "4-St", "7-Ra"]}))
    s.apply("pass")            # A's poll before Nino leads
    s.apply("raise")           # T = B: "Tre?"
    s.apply("accept")          # U = A: S = 3
    play(s, NINO, hand_of(s, NINO)[0])
    act(s, GINO, "raise")      # U: "Quattro?"
    act(s, NINO, "accept")     # S = 4
    play(s, GINO, "K-Po")
    act(s, TONILE, "raise")    # T: "Cinque?"
    act(s, GINO, "accept")     # S = 5
    assert s.stake == 5
    for seat in (TONILE, GIANNA):
        play(s, seat, hand_of(s, seat)[0])
    for crit in ("St4", "Ra7"):
        play(s, GINO, crit)
        for seat in (TONILE, GIANNA, NINO):
            play(s, seat, hand_of(s, seat)[0])
    assert s.scores == [5, 0]


def test_r7_turn_ends_after_three_tricks():
    s = start_play(new({NINO: ["K-Po", "4-St", "2-Ra", "5-Po"], GINO: ["7-Ra"]}))
    f = {x: (lambda x=x: spare(s, x, "7-Ra", "5-Po")) for x in range(4)}
    assert trick(s, [(NINO, "K-Po"), (GINO, f[GINO]()), (TONILE, f[TONILE]()), (GIANNA, f[GIANNA]())]) == NINO
    assert trick(s, [(NINO, "4-St"), (GINO, f[GINO]()), (TONILE, f[TONILE]()), (GIANNA, f[GIANNA]())]) == NINO
    assert trick(s, [(NINO, "2-Ra"), (GINO, "7-Ra"), (TONILE, f[TONILE]()), (GIANNA, f[GIANNA]())]) == GINO
    assert s.view(None)["info"]["tricks"] == [1, 2]
    assert trick(s, [(GINO, f[GINO]()), (TONILE, f[TONILE]()), (GIANNA, f[GIANNA]()), (NINO, "5-Po")]) == NINO
    assert s.scores == [0, 2] and s.hand_number == 2       # the 5th trick is not played


# --------------------------------------------------------------------------- M1 dealer rotation
def test_m1_dealer_rotation():
    s = new({}, options={})
    dealers = [s.dealer]
    for _ in range(4):
        choose(s)
        s.apply("pass")
        s.apply("raise")
        s.apply("fold")
        dealers.append(s.dealer)
    assert dealers == [GIANNA, NINO, GINO, TONILE, GIANNA]
    starts = [ev["dealer"] for _, ev in s.events if ev["type"] == "hand_start"]
    assert starts == dealers


def test_source_nino_schlok_and_gianna_trumpf_are_public():
    s = new({})
    to_choice(s)
    s.apply("schlok 5")
    s.apply("trumpf po")
    for seat in (None, GINO, TONILE):
        info = s.view(seat)["info"]
        assert info["schlok"] == "5" and info["trumpf"] == "Po" and info["stake"] == 2


def test_scores_are_per_team():
    s = new({})
    choose(s)
    s.apply("pass")
    s.apply("raise")
    s.apply("fold")
    assert (A, B) == (0, 1) and s.view(GINO)["scores"] == [0, 2]
    ev = [e for _a, e in s.events if e["type"] == "scores"][-1]
    assert ev["teams"] == [[0, 2], [1, 3]]
