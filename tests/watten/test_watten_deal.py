"""§4.3 worked examples D1-D3: cut, deal, peeks, Schönere."""

from __future__ import annotations

from watten_helpers import act, position, seat

import stich

G32 = stich.game("watten", variant="bavarian_4").deck.codes
G33 = stich.game("watten", variant="euregio").deck.codes


def bavarian_pack(exposed: list[str]) -> list[str]:
    """A pack (top first) whose first 10 cards end with ``exposed`` read bottom-up."""
    rest = [c for c in G32 if c not in exposed]
    top = rest[:10 - len(exposed)] + list(reversed(exposed))
    return top + rest[10 - len(exposed):]


def events(state, seat_=None, kind=None):
    return [e for e in state.view(seat_)["events"] if kind is None or e["type"] == kind]


def test_d1_kritische_at_the_cut():
    pack = bavarian_pack(["S7", "HK", "L9"])
    g = stich.game("watten", variant="bavarian_4")
    s = g.new_state(pack=pack, dealer=3)
    assert seat(s) == 3 and "cut 10" in s.legal_actions()
    s.apply("3:cut 10")
    assert [e["card"] for e in events(s, None, "cut_card")] == ["S7", "HK", "L9"]   # shown to all
    spectator = s.view(None)["known_hands"]
    assert spectator[2] == ["S7"] and spectator[3] == ["HK"]
    # Deal: lower part on top; round 1: 3, 3, 2 (seat 3), 2 (dealer); round 2: 2 each.
    top = [c for c in pack[:10] if c not in ("S7", "HK")]
    new = pack[10:] + top
    expect = {0: new[0:3] + new[10:12], 1: new[3:6] + new[12:14], 2: ["S7"] + new[6:8] + new[14:16],
              3: ["HK"] + new[8:10] + new[16:18]}
    assert sorted(s.view(0)["hand"]) == sorted(expect[0])
    assert sorted(s.view(3)["hand"]) == sorted(expect[3])
    assert s.view(1)["hand"] == [] and s.view(2)["hand"] == ["S7"]     # R30: not yet
    assert s.hand_summary()["stock_size"] == 12 and new[-1] == "L9"
    act(s, "1:schlag A 4:trump H")
    for i in range(4):
        assert sorted(s.view(i)["hand"]) == sorted(expect[i])


def test_d1_third_kritische_goes_to_the_cutter():
    s = stich.game("watten", variant="bavarian_4").new_state(pack=bavarian_pack(["S7", "HK", "E7", "L9"]))
    s.apply("3:cut 10")
    assert s.view(None)["known_hands"][2] == ["S7", "E7"]
    act(s, "1:schlag A 4:trump H")
    assert len(s.view(2)["hand"]) == 5 and s.hand_summary()["stock_size"] == 12


def test_d2_euregio_peeks():
    pack = list(G33)
    s = stich.game("watten", variant="euregio").new_state(pack=pack, dealer=3)
    s.apply("3:cut 12")
    peek = events(s, 2, "cut_peek")
    assert [e["card"] for e in peek] == [pack[11]]
    stock_peek = events(s, 3, "stock_peek")
    new = pack[12:] + pack[:12]
    assert stock_peek[0]["top"] == new[20] and stock_peek[0]["bottom"] == pack[11]
    for other in (0, 1, None):
        assert not events(s, other, "cut_peek") and not events(s, other, "stock_peek")
    assert s.hand_summary()["stock_size"] == 13


def d3_state():
    return position("euregio", {1: "H-8 L-7 E-A", 4: "L-A L-9 E-7"}, scores=[3, 5])


def test_d3_two_exchanges_then_redeal():
    s = d3_state()
    hand1 = s.view(0)["hand"]
    act(s, "1:ask_exchange 4:agree_exchange")
    assert s.view(0)["hand"] != hand1 and len(s.view(0)["hand"]) == 5
    assert len(events(s, 3, "stock_peek")) == 2       # after the deal, and again after the exchange
    assert seat(s) == 1 and any(a.verb == "show" for a in s.legal_actions())
    act(s, "1:ask_exchange 4:agree_exchange")
    assert len(events(s, 3, "stock_peek")) == 3
    # A third agreed request throws all hands in: the same dealer deals anew (cut first).
    act(s, "1:ask_exchange 4:agree_exchange")
    assert s.hand_number == 1 and s.view(None)["dealer"] == 3 and seat(s) == 3
    assert all(a.verb == "cut" for a in s.legal_actions())
    assert s.hand_summary()["scores"] == [3, 5]


def test_d3_exchange_after_ansage_restarts_it():
    s = d3_state()
    act(s, "1:show H-8 4:show L-A")
    assert "ask_exchange" in s.legal_actions() and "play L7" in s.legal_actions()
    act(s, "1:ask_exchange 4:agree_exchange")
    assert s.view(0)["schlag"] is None and all(a.verb in ("show", "ask_exchange", "ask_swap")
                                               for a in s.legal_actions())


def test_d3_refused_request_closes_the_window():
    s = d3_state()
    act(s, "1:ask_exchange 4:agree_exchange 1:ask_exchange 4:agree_exchange 1:ask_exchange 4:refuse_exchange")
    assert seat(s) == 1 and "ask_exchange" not in s.legal_actions()
    assert s.hand_number == 1 and "show" in {a.verb for a in s.legal_actions()}


def test_tyrolean_exchange_once_from_the_stock():
    s = position("tyrolean", {1: "H-8 L-7 E-A"})
    stock_top = s.stock[:10]
    act(s, "1:ask_exchange 4:agree_exchange")
    d = s.game.deck
    assert sorted(s.view(0)["hand"]) == sorted(d.code(c) for c in stock_top[:5])
    assert sorted(s.view(3)["hand"]) == sorted(d.code(c) for c in stock_top[5:])
    assert "ask_exchange" not in s.legal_actions()   # at most one (R8)


def test_three_players_viewing_and_replay_of_a_pack_setup():
    import json
    g = stich.game("watten", variant="bavarian_3")
    s = g.new_state(pack=list(G32), dealer=0)
    assert seat(s) == 3                       # P3 (dealer's right) cuts
    s.apply("3:cut 16")
    assert len(s.view(0)["hand"]) == 5 and len(s.view(1)["hand"]) == 5
    assert len(s.view(2)["hand"]) < 5         # P3 looks after the Ansage (R30)
    act(s, "2:schlag A 2:trump H")
    assert len(s.view(2)["hand"]) == 5
    again = stich.replay(json.loads(json.dumps(s.record())))
    assert again.record() == s.record()


def test_setup_scores_are_public_from_the_start():
    s = stich.game("watten", variant="euregio").new_state(seed=1, scores=[16, 10])
    assert s.view(0)["scores"] == [16, 10] == s.view(None)["scores"]
    assert stich.game("watten").new_state(seed=1).view(0).get("scores") is None   # a new match: none yet
