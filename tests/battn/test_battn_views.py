"""View invariance for Battn's information options (Kritish, partner hands, manual mode):
re-dealing the cards a seat has not lawfully seen leaves its view unchanged (BT-7, BT-18)."""

from __future__ import annotations

import random

import pytest

import stich
from stich import IllegalActionError
from stich.rulesets.battn.cards import DECK


def seen_by(state, seat):
    codes = set(DECK.codes)
    out = set()
    reveal = state.game.reveal_events

    def walk(v):
        if isinstance(v, str):
            if v in codes:
                out.add(v)
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    for aud, ev in state.events:
        if aud is not None and not aud >> seat & 1:
            continue
        if (ev["type"] == "deal" and ev["seat"] == seat) or (ev["type"] == "play" and aud is None) \
                or ev["type"] in reveal:
            walk(ev)
    return out


def redeal(setup, seat, seen, rng):
    slots = [("h", s, i) for s, h in enumerate(setup["hands"]) if s != seat for i, c in enumerate(h)
             if c not in seen]
    slots += [("s", None, i) for i, c in enumerate(setup["stock"]) if c not in seen]
    get = {("h", s, i): setup["hands"][s][i] for k, s, i in slots if k == "h"}
    get.update({("s", None, i): setup["stock"][i] for k, s, i in slots if k == "s"})
    cards = [get[x] for x in slots]
    rng.shuffle(cards)
    new = {"hands": [list(h) for h in setup["hands"]], "stock": list(setup["stock"]), "dealer": setup["dealer"]}
    for (k, s, i), c in zip(slots, cards, strict=True):
        if k == "h":
            new["hands"][s][i] = c
        else:
            new["stock"][i] = c
    return new


@pytest.mark.parametrize("options", [{}, {"kritish": True}, {"partners_see_hands": False},
                                     {"manual_mode": True, "scheanara_first_speaker": "D"}])
def test_views_depend_only_on_seen_cards(options):
    g = stich.game("battn", **options)
    compared = 0
    for trial in range(10):
        rng = random.Random(f"battn/{trial}/{options}")
        codes = list(DECK.codes)
        rng.shuffle(codes)
        setup = {"hands": [codes[i * 5:(i + 1) * 5] for i in range(4)], "stock": codes[20:],
                 "dealer": rng.randrange(4)}
        state = g.new_state(seed=trial, **setup)
        for _ in range(rng.randrange(45)):
            probe = state.clone()
            probe.apply(rng.choice(state.legal_actions()))
            if probe.hand_number != 1:
                break
            state = probe
        seat = rng.randrange(4)
        view = state.view(seat)
        seen = seen_by(state, seat)
        for _ in range(20):
            other = redeal(setup, seat, seen, rng)
            if other == setup:
                continue
            try:
                twin = g.new_state(seed=trial, **other)
                for _s, a in state.history:
                    twin.apply(a)
            except IllegalActionError:
                continue
            assert twin.view(seat) == view
            compared += 1
            break
    assert compared >= 4
