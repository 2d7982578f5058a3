"""The engine against a direct transcription of the rules file's pseudo-code (§2.3, B1.5, T1.6),
on many random positions reached through the public API."""

from __future__ import annotations

import random

import pytest

import stich

RANKS = {"6": 0, "7": 1, "8": 2, "9": 3, "10": 4, "U": 5, "O": 6, "K": 7, "A": 8}
KRIT = {"HK": 3, "S7": 2, "E7": 1}


def split(card: str) -> tuple[str, int]:
    return card[0], RANKS[card[1:]]


def guate_rank(schlag: int, trump7: bool) -> int | None:
    if schlag == 0:
        return 1 if trump7 else None
    return 1 if schlag == 8 else schlag + 1


def klass(variant, opts, schlag, trump, card):
    """(class, sub) of §2.3 without the led-suit part."""
    s, r = split(card)
    weli = card == "S6"
    if variant.startswith("bavarian") and card in KRIT:
        return (9, KRIT[card])
    if variant in ("guate", "blind", "euregio"):
        g = guate_rank(schlag, opts.get("guate_when_weli_schlag") == "trump7")
        if g is not None and s == trump and r == g:
            return (8, 0)
    if r == schlag and (s == trump or weli):
        return (7, 0)
    if r == schlag:
        return (6, 0)
    if s == trump:
        return (5, r)
    if weli and variant == "tyrolean":
        return (5, 0)
    return None


def ref_winner(variant, opts, schlag, trump, cards):
    led = split(cards[0])[0]
    best, win = (-1, -1), 0
    for i, c in enumerate(cards):
        k = klass(variant, opts, schlag, trump, c)
        if k is None:
            s, r = split(c)
            k = (2, r) if s == led else (0, 0)
        if k > best:
            best, win = k, i
    return win


def ref_legal(variant, opts, schlag, trump, hand, trick, trick_no, seat, forehand, dealer):
    def cls(c):
        return klass(variant, opts, schlag, trump, c)
    if not trick:
        return set(hand)
    if variant.startswith("bavarian"):
        lead = trick[0]
        haupt = cls(lead) == (7, 0)
        if trick_no == 1 and haupt and not any(c in KRIT for c in trick[1:]):
            t = {c for c in hand if cls(c) is not None}
            return t or set(hand)
        return set(hand)
    if variant in ("blind", "euregio") and seat not in (forehand, dealer):
        return set(hand)
    if opts.get("zugeben_scope") == "first_trick" and trick_no != 1:
        return set(hand)

    def is_trump(c):
        k = cls(c)
        return k is not None and k[0] != 6
    lead = trick[0]
    if not is_trump(lead):
        return set(hand)
    if cls(lead) == (8, 0) and opts.get("guate_lead_is_trump_lead") == "false":
        return set(hand)
    t = {c for c in hand if is_trump(c)}
    rechte = {c for c in hand if cls(c) == (7, 0)}
    forcing = t - rechte if opts.get("rechte_exempt", "true") == "true" else t
    if not forcing:
        return set(hand)
    if opts.get("linke_may_follow_trump", "true") == "true":
        t |= {c for c in hand if cls(c) == (6, 0)}
    return t


OPTION_SETS = [{}, {"rechte_exempt": "false"}, {"linke_may_follow_trump": "false"},
               {"guate_lead_is_trump_lead": "false"}, {"zugeben_scope": "first_trick"},
               {"guate_when_weli_schlag": "trump7"}]


@pytest.mark.parametrize("variant", stich.game("watten").variants)
@pytest.mark.parametrize("opts", OPTION_SETS)
def test_engine_matches_reference(variant, opts):
    g0 = stich.game("watten", variant=variant)
    opts = {k: v for k, v in opts.items() if next(s for s in g0.option_specs if s.name == k).applies_to(variant)}
    g = stich.game("watten", variant=variant, **opts)
    rng = random.Random(f"{variant}/{sorted(opts.items())}")
    checked = 0
    for seed in range(6):
        s = g.new_state(seed)
        hand_no = 1
        while not s.is_terminal() and s.hand_number <= 3:
            if s.hand_number != hand_no:
                hand_no = s.hand_number
            ansager = s.view(None)["forehand"]
            v = s.view(ansager)
            acts = s.legal_actions()
            if v["schlag"] is not None and v["trump"] is not None and s.phase == 3:
                schlag, trump = RANKS[v["schlag"]], v["trump"]
                me = s.current_player
                mine = s.view(me)
                trick = [x["card"] for x in mine["trick"]]
                legal = {a.arg for a in acts if a.verb == "play"}
                exp = ref_legal(variant, opts, schlag, trump, mine["hand"], trick, len(mine["tricks"]) + 1,
                                me, v["forehand"], v["dealer"])
                assert legal == exp, (variant, opts, v["schlag"], trump, mine["hand"], trick)
                checked += 1
                plays = [a for a in acts if a.verb == "play"]
                a = rng.choice(plays)
                before = len(s.view(None)["tricks"])
                s.apply(a)
                after = s.view(None)
                if s.hand_number == hand_no and len(after["tricks"]) > before:
                    t = after["tricks"][-1]
                    cards = [x["card"] for x in t["cards"]]
                    w = ref_winner(variant, opts, schlag, trump, cards)
                    assert t["cards"][w]["seat"] == t["winner"], (variant, v["schlag"], trump, cards)
                continue
            s.apply(rng.choice([a for a in acts if a.verb not in ("raise", "ask_exchange", "ask_swap")] or acts))
    assert checked > 60
