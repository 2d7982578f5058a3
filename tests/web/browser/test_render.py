"""render_table on engine views directly (no server, no browser): every game at many moments, every
language; each legal action is offered exactly once, and nothing of another seat's hand is on the page."""

from __future__ import annotations

import html
import random
import re

import pytest

import stich
from stich.web.ui import render_table

GAMES = [("watten", "euregio"), ("watten", "bavarian_3"), ("watten", "blind"), ("battn", "standard"),
         ("biscambiggia", "standard"), ("barbu", "standard")]


def ctx_for(state, seat, lang):
    g = state.game
    return {"table": "T", "game": g.name, "variant": g.variant, "options": dict(g.options), "seat": seat,
            "view": state.view(seat), "legal": [str(a) for a in state.legal_actions(seat)]
            if seat is not None else [],
            "events": state.visible_events(seat), "seats": [], "lang": lang, "seq": 1,
            "finished": state.is_terminal(), "chat": []}


def offered(page: str) -> list[str]:
    """Every action the page lets its reader take: buttons' data-action and drop-down options."""
    acts = re.findall(r'data-action="([^"]*)"', page) + re.findall(r'<option value="([^"]*)"', page)
    for form in re.findall(r'<form class="choose-set" data-actions="([^"]*)">(.*?)</form>', page, re.S):
        # Barbu's doubles as check boxes: every combination the form may send, each one made of its boxes
        boxes = set(re.findall(r'<input type="checkbox" name="(\w+)" value="(\d+)"', form[1]))
        for action in form[0].split("|"):
            words = action.split()
            assert {(v, n) for v, arg in zip(words[::2], words[1::2], strict=True)
                    for n in arg.split(",")} <= boxes, action
            acts.append(action)
    return [html.unescape(a) for a in acts]


@pytest.mark.parametrize("game,variant", GAMES)
def test_every_legal_action_is_offered_and_no_hidden_card_is_shown(game, variant):
    g = stich.game(game, variant)
    rng = random.Random(f"{game}/{variant}")
    state = g.new_state(seed=rng.randrange(1 << 30))
    langs = ["de", "it", "en", "fr"]
    for step in range(160):
        if state.is_terminal():
            break
        seat = state.current_player
        lang = langs[step % 4]
        page = render_table(ctx_for(state, seat, lang))
        assert sorted(offered(page)) == sorted(str(a) for a in state.legal_actions()), (step, lang)
        # the other seats' cards, by name, are not on the page unless the seat may see them
        view = state.view(seat)
        visible = set(view.get("hand") or []) | {p["card"] for p in view.get("trick") or []}
        for t in view.get("tricks") or []:
            visible |= {p["card"] for p in t.get("cards", [])}
        for k in view.get("known_hands") or []:
            visible |= set(k or [])
        for ev in state.visible_events(seat):   # cards the seat was shown (cuts, peeks, Ansage, stock)
            visible |= {v for v in ev.values() if isinstance(v, str) and g.deck.is_card(v)}
            for v in ev.values():
                if isinstance(v, list):
                    visible |= {x for x in v if isinstance(x, str) and g.deck.is_card(x)}
        hidden = set(g.deck.codes) - visible
        for code in hidden:
            name = g.deck.long_name(g.deck.parse(code), lang)
            assert f'aria-label="{html.escape(name)}"' not in page, (step, code)
            assert f'data-action="play {code}"' not in page
            assert f'data-card="{code}"' not in page, (step, code)
        # every card the reader may play is a button with its code and its action (the markup contract)
        for code in re.findall(r'data-action="play (\w+)"', page):
            assert f'class="card play" data-card="{code}" data-action="play {code}"' in page, code
        # what a card button shows (its corner index) is part of its name (axe: label-content-name-mismatch)
        for label, index in re.findall(r'<button[^>]*aria-label="([^"]*)"[^>]*><span class="face[^"]*" '
                                       r'aria-hidden="true"><span class="ix">([^<]*)</span>', page):
            assert len(index) == 1 or index.lower() in html.unescape(label).lower(), (label, index)
        spectator = render_table(ctx_for(state, None, lang))
        assert "data-action" not in spectator and not re.search(r"data-hand[ >]", spectator)
        state.apply(rng.choice(state.legal_actions()))


def test_a_seat_not_on_turn_sees_its_out_of_turn_decisions_as_buttons():
    # Euregio E.5: seat 1 decides the 4-point question; seat 4, not on turn, may ask for a Schönere.
    state = stich.game("watten", "euregio").new_state(seed=7, scores=[16, 10])
    while any(a.verb in ("cut", "show") for a in state.legal_actions()):
        state.apply(next(a for a in state.legal_actions() if a.verb in ("cut", "show")))
    assert state.current_player == 0 and [str(a) for a in state.legal_actions(3)] == ["ask_exchange"]
    for lang in ("de", "en"):
        page = render_table(ctx_for(state, 3, lang))
        assert offered(page) == ["ask_exchange"]                       # a button, not hidden
        assert re.search(r'<button type="button" class="act[^"]*" data-action="ask_exchange"[^>]*>', page)
        # the turn line names the seat on turn (seat 1) and nothing says "not your turn"
        assert 'data-turn="other"' in page and "not your turn" not in page.lower()
        assert re.search(r'id="turn">([^<]*)<', page).group(1) == {"de": "Platz 1 ist am Zug.",
                                                                    "en": "Seat 1 to act."}[lang]
        # the blind players (2 and 3) have nothing to do and get no buttons
        assert offered(render_table(ctx_for(state, 1, lang))) == []


def test_a_required_double_is_ticked_and_fixed():
    # Barbu's obligation (rules §3.3): a seat may have to double the caller; no pass is offered then,
    # and the caller's box is ticked and cannot be unticked, so every choice the form allows is legal
    g, rng = stich.game("barbu"), random.Random(2)
    for seed in range(40):
        state = g.new_state(seed=seed)
        while not state.is_terminal():
            legal = [str(a) for a in state.legal_actions()]
            if "pass" not in legal and any(a.startswith("double") for a in legal):
                break
            state.apply(rng.choice(state.legal_actions()))
        else:
            continue
        break
    page = render_table(ctx_for(state, state.current_player, "fr"))
    required = set.intersection(*({int(n) for n in a.split()[1].split(",")} for a in legal))
    assert required and "data-action=\"pass\"" not in page
    for n in required:
        assert f'name="double" value="{n}" checked disabled> Place {n} (obligatoire)' in page
    assert sorted(offered(page)) == sorted(legal)
