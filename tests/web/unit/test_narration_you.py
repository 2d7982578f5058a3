"""The table's story addresses its reader (issue #34): his own moves read in the second person in his
language ("Giochi …", "Du spielst …", "Vous contrez …"), another seat's by its name ("Anna (Posto 1)
gioca …"), and a spectator, who is nobody at the table, reads every seat by its name.  Real engine states
of each game, the table rendered as the page sends it (``render_table``), the log read back as text."""

from __future__ import annotations

import html
import random
import re

import pytest

import stich
from stich.i18n import translator
from stich.web.ui import narration, render_table
from stich.web.ui.table import seat_label

NAMES = ["Anna", "Ben", "Carla", "Dario", "Ema"]


def log(state, seat, lang) -> list[str]:
    """The lines of the table's "What happened" as the reader at ``seat`` (None: a spectator) reads them."""
    g = state.game
    ctx = {"table": "T", "game": g.name, "variant": g.variant, "options": dict(g.options), "seat": seat,
           "view": state.view(seat), "legal": [], "events": state.visible_events(seat),
           "seats": [{"seat": s, "name": NAMES[s]} for s in range(g.num_players)], "lang": lang, "seq": 1,
           "finished": state.is_terminal(), "chat": []}
    page = render_table(ctx)
    return [html.unescape(x) for x in re.findall(r'<li data-i="\d+">(.*?)</li>', page, re.S)]


def card(g, code, lang) -> str:
    return g.deck.long_name(g.deck.parse(code), lang)


def until(state, rng, found, limit=400):
    """Plays random legal actions until ``found(event)`` holds for an event the last action made; that event."""
    for _ in range(limit):
        seen = len(state.events)
        state.apply(rng.choice(state.legal_actions()))
        for _aud, ev in state.events[seen:]:
            if found(ev):
                return ev
    raise AssertionError("no such event in the first moves")


@pytest.mark.parametrize("lang,you_cut,cuts,you_play,plays", [
    ("it", "Tagli, alzando {k} carte", "{who} taglia, alzando {k} carte", "Giochi {card}.", "{who} gioca {card}."),
    ("de", "Du hebst ab, {k} Karten", "{who} hebt ab, {k} Karten", "Du spielst {card}.", "{who} spielt {card}."),
])
def test_watten_the_reader_cuts_and_plays_in_the_second_person(lang, you_cut, cuts, you_play, plays):
    g = stich.game("watten", "euregio")
    state, rng = g.new_state(seed=4), random.Random(2)
    cut = until(state, rng, lambda ev: ev.get("type") == "cut")
    c = cut["seat"]
    other = (c + 1) % 4
    who = seat_label(c, [{"seat": c, "name": NAMES[c]}], None, translator(lang).gettext)   # "Anna (Posto 1)"
    assert you_cut.format(k=cut["k"]) in log(state, c, lang)
    for reader in (other, None):
        lines = log(state, reader, lang)
        assert cuts.format(who=who, k=cut["k"]) in lines and you_cut.format(k=cut["k"]) not in lines
    play = until(state, rng, lambda ev: ev.get("type") == "play" and ev["seat"] == c)
    name = card(g, play["card"], lang)
    mine = log(state, c, lang)
    assert you_play.format(card=name) in mine
    assert not any(line.startswith(who) for line in mine)   # not "Tu (Posto 1) gioca …" either
    for reader in (other, None):
        assert plays.format(who=who, card=name) in log(state, reader, lang)


@pytest.mark.parametrize("lang,doubler,doubled,spectator", [
    ("fr", "Vous contrez {target}", "{by} vous contre", "{by} contre {target}"),
    ("en", "You double {target}", "{by} doubles you", "{by} doubles {target}"),
])
def test_barbu_a_double_reads_from_where_each_sits(lang, doubler, doubled, spectator):
    g = stich.game("barbu")
    state, rng = g.new_state(seed=1), random.Random(3)
    ev = until(state, rng, lambda ev: ev.get("type") == "double" and len(ev.get("doubles") or []) == 1
               and not ev.get("redoubles"), limit=2000)
    by, target = ev["seat"], ev["doubles"][0]
    _ = translator(lang).gettext
    label = {s: seat_label(s, [{"seat": s, "name": NAMES[s]}], None, _) for s in range(4)}   # "Ben (Place 2)"
    assert doubler.format(target=label[target]) in log(state, by, lang)
    assert doubled.format(by=label[by]) in log(state, target, lang)
    bystander = next(s for s in range(4) if s not in (by, target))
    for reader in (bystander, None):
        assert spectator.format(by=label[by], target=label[target]) in log(state, reader, lang)


#: a game of each kind (partners, three alone, five with a secret partner, four each for himself)
GAMES = [("watten", "euregio"), ("watten", "bavarian_3"), ("battn", "standard"), ("biscambiggia", "standard"),
         ("barbu", "standard")]


@pytest.mark.parametrize("lang", ["en", "it"])
def test_no_sentence_names_its_reader_in_the_third_person(lang):
    """Every event any game tells, read from every seat: the reader's page name ("Tu (Posto 1)") is in no
    sentence, only where a list gives each seat a value (scores, a draw's cards).  A new kind of event that
    forgets its "you" sentence fails here."""
    _ = translator(lang).gettext
    told = set()
    for game, variant in GAMES:
        g = stich.game(game, variant)
        state, rng = g.new_state(seed=7), random.Random(7)
        for _step in range(1500):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        values = tuple(card(g, c, lang) for c in g.deck.codes)
        for me in range(g.num_players):
            label = lambda s, me=me: seat_label(s, [], me, _)   # noqa: E731
            names = narration.names_for(g, lang, me, label)
            you = label(me)
            for ev in state.visible_events(me):
                for line in narration.event_lines([ev], names, _, label):
                    told.add(ev.get("type"))
                    for m in re.finditer(re.escape(you), line):
                        rest = line[m.end():]
                        assert re.match(r" [+-]?\d", rest) or rest[1:].startswith(values), (game, me, line)
    # the events that name seats were told: plays, tricks, deals, each game's own decisions
    assert {"play", "trick", "hand_start", "cut", "double", "bid", "exchange", "raise"} <= told
