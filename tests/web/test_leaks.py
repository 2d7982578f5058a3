"""No leak over the wire.

1. In random matches, every frame each seat (and spectators, JSON and HTML) receives is checked
   against a local replay of the final record: the frame's view is ``state.view(seat)`` at some
   prefix of the record (never going back), ``legal`` is that seat's legal actions, and the whole
   frame text names no card beyond those the engine's view names (HTML: beyond the cards the seat
   saw in the match so far); the seed never appears before the end.
2. Twin tables that differ only in cards a seat cannot see (two opponents swap one card; same seed,
   same scripted actions) give that seat identical frames.  The deals come through the server's
   test-only hook (``STICH_TEST_HOOKS=1``: ``"test": {"seed", "setup"}`` in ``POST /api/tables``).
"""

from __future__ import annotations

import asyncio
import json
import random
import re

import pytest

import stich
from tests.web.checks import SeatOracle, canon, card_tokens, check_frames, derived_cards, replay_ok
from tests.web.client import SeatClient, create_table, get_record, http_client, run, seat_clients

RANDOM_MATCHES = [
    ("watten", "euregio", {"target": 3, "lock_at": 1}),
    ("watten", "tyrolean", {"target": 3, "lock_at": 1}),
    ("watten", "blind", {"target": 3, "lock_at": 1}),
    ("battn", None, {"target": 3, "x_threshold": 2}),
    ("biscambiggia", None, {"hands_per_match": 1}),
]


def _seats(game: str, rng: random.Random) -> list[str]:
    n = stich.game(game).num_players
    seats = ["human"] * n
    seats[rng.randrange(1, n)] = "bot:random"
    return seats


async def _random_match(srv, game, variant, options, rng):
    async with http_client(srv) as http:
        seats = _seats(game, rng)
        t = await create_table(http, game, variant, seats, options)
        clients = seat_clients(srv, t, script_seed=rng.random())
        watch_json = SeatClient(srv, t["table"], None)
        watch_html = SeatClient(srv, t["table"], None, fmt="html", lang=rng.choice(["de", "it", "en", "fr"]))
        # a second, HTML, connection of one human seat (as a second device of the same player)
        player = rng.choice(clients)
        seat_html = SeatClient(srv, t["table"], player.token, seat=player.seat, fmt="html",
                               lang=rng.choice(["de", "it", "en", "fr"]), act=False)
        for c in (watch_json, watch_html, seat_html):
            await c.connect()
        await asyncio.gather(*(c.play(timeout=60) for c in clients), watch_json.follow(timeout=60),
                             _follow_html(watch_html, clients), _follow_html(seat_html, clients))
        record = await get_record(http, t["table"])
        for c in clients + [watch_json, watch_html, seat_html]:
            await c.close()
    tokens = tuple(s["token"] for s in t["seats"] if s.get("token")) + (t["table"],)
    return record, clients, (watch_json, watch_html), (player, seat_html), tokens


async def _follow_html(watcher: SeatClient, players: list[SeatClient]) -> None:
    """An HTML frame has no 'terminal' flag: read until every player has seen the end."""
    while not all(p.finished for p in players):
        try:
            await watcher.recv(timeout=0.2)
        except TimeoutError:
            continue
    # and whatever the server still sends for the final state
    try:
        while True:
            await watcher.recv(timeout=0.3)
    except TimeoutError:
        pass


def _around(text: str, token: str, width: int = 300) -> str:
    m = re.search(rf"\b{re.escape(token)}\b", text)
    return f"...{text[max(0, m.start() - width):m.end() + width]}..." if m else ""


def _check_html(record, json_client: SeatClient, html_client: SeatClient, secrets) -> int:
    """Each HTML frame of a connection names only cards its seat saw in the match so far, the cards
    of its legal actions, and cards the rules name (the record prefix is found from the JSON frame
    of the same seq on another connection of the same seat)."""
    seat = json_client.seat
    oracle = SeatOracle(record, seat, secrets)
    prefix_of_seq: dict[int, int] = {}
    for msg, raw in zip(json_client.frames, json_client.raw, strict=True):
        if msg.get("type") == "state":
            oracle.match_state(msg, raw)
            prefix_of_seq[msg["seq"]] = oracle.k
    game = oracle.game
    codes = frozenset(game.deck.codes)
    checked = 0
    for msg in html_client.frames:
        if msg.get("type") != "html" or msg["seq"] not in prefix_of_seq:
            continue
        assert msg.get("seat") == seat
        k = prefix_of_seq[msg["seq"]]
        state = game.new_state(record["seed"], **(record.get("setup") or {}))
        for who, text in record["actions"][:k]:
            state.apply(text, seat=who)
        view = state.view(seat)
        legal = [str(a) for a in state.legal_actions(seat)] if seat is not None else []
        assert sorted(msg["legal"]) == sorted(legal)
        seen = (card_tokens(json.dumps(state.visible_events(seat)), codes) | card_tokens(json.dumps(view), codes)
                | card_tokens(" ".join(legal), codes) | derived_cards(view, game.name))
        html = msg["html"]
        for s in secrets:
            html = html.replace(s, " ")
        extra = card_tokens(html, codes) - seen
        assert not extra, f"seat {seat} html at seq {msg['seq']} names unseen cards {sorted(extra)}:\n" + "\n".join(
            _around(html, card) for card in sorted(extra))
        if not state.is_terminal():
            assert str(record["seed"]) not in msg["html"]
        checked += 1
    return checked


@pytest.mark.timeout(150)
def test_every_frame_of_random_matches_is_within_the_seat_view(server):
    rng = random.Random(20261124)
    picks = [RANDOM_MATCHES[i] for i in range(len(RANDOM_MATCHES))]
    rng.shuffle(picks)

    async def go():
        return await asyncio.gather(*(_random_match(server, g, v, o, random.Random(rng.random()))
                                      for g, v, o in picks))

    results = run(go(), timeout=140)
    total = 0
    for record, clients, (watch_json, watch_html), (player, seat_html), secrets in results:
        replay_ok(record)
        for c in clients + [watch_json]:
            total += check_frames(record, c, secrets)
        assert _check_html(record, watch_json, watch_html, secrets) > 0
        assert _check_html(record, player, seat_html, secrets) > 0
    assert total > 100


# --- twin tables -----------------------------------------------------------------------------------------
HAND_SIZE = {"watten": (5, True), "battn": (5, True), "biscambiggia": (8, False), "barbu": (13, False)}
TWINS = [
    pytest.param("watten", "euregio", {"target": 3, "lock_at": 1}, (1, 3), id="watten"),
    pytest.param("battn", None, {"target": 3, "x_threshold": 2}, (1, 3), id="battn"),
    pytest.param("biscambiggia", None, {"hands_per_match": 1}, (1, 2), id="biscambiggia"),
    pytest.param("barbu", None, {}, (1, 3), id="barbu"),
]
OBSERVER = 0


def twin_setups(game, rng: random.Random, a: int, b: int) -> tuple[dict, dict]:
    """Two explicit first deals that differ only in one card swapped between seats a and b."""
    codes = list(game.deck.codes)
    rng.shuffle(codes)
    k, has_stock = HAND_SIZE[game.name]
    n = game.num_players
    hands = [codes[i * k:(i + 1) * k] for i in range(n)]
    one = {"hands": hands, "dealer": rng.randrange(n)}
    if has_stock:
        one["stock"] = codes[n * k:]
    swapped = [list(h) for h in hands]
    swapped[a][0], swapped[b][0] = swapped[b][0], swapped[a][0]
    return one, dict(one, hands=swapped)


async def _settle(clients: list[SeatClient], seq: int, timeout=10.0) -> None:
    for c in clients:
        if c.seq < seq:
            await c.recv_until(lambda m: m.get("type") in ("state", "html") and m["seq"] >= seq, timeout)


async def _step(clients: list[SeatClient], observers: list[SeatClient], mover: int, action: str) -> None:
    """One action by seat ``mover``, then wait until every seat has the resulting state."""
    c = clients[mover]
    before = c.seq
    aid = await c.act(action)
    await c.recv_until(lambda m: m.get("id") == aid and m.get("type") in ("ack", "error"), 10)
    assert aid in c.acked_ids, c.errors
    if c.seq <= before:
        await c.recv_until(lambda m: m.get("type") == "state" and m["seq"] > before, 10)
    await _settle(clients + observers, c.seq)


def _frames(client: SeatClient, kind: str, blank: tuple[str, ...]) -> list[str]:
    """The connection's frames of one type as text, the last of each seq, with the table id and tokens
    blanked (the things twins may not share).  A page is drawn again when the seat list changes, at
    most every 0.2 s (table/fanout.py): how many drawings of one seq a connection gets depends on when
    the other connections came, so each seq's last drawing is what twins must share."""
    by_seq: dict[int, str] = {}
    for m in client.frames:
        if m.get("type") == kind:
            text = json.dumps(m, sort_keys=True)
            for b in blank:
                text = text.replace(b, "<blank>")
            by_seq[m["seq"]] = text
    return [by_seq[k] for k in sorted(by_seq)]


@pytest.mark.timeout(90)
@pytest.mark.parametrize("game_name,variant,options,swap", TWINS)
def test_twin_tables_give_a_seat_identical_frames(server, game_name, variant, options, swap):
    game = stich.game(game_name, variant, **options)
    rng = random.Random(f"twins/{game_name}")
    one, other = twin_setups(game, rng, *swap)
    seed = rng.randrange(2**62)
    max_steps = 40

    async def go():
        async with http_client(server) as http:
            n = game.num_players
            tables = [await create_table(http, game_name, variant, ["human"] * n, options,
                                         test={"seed": seed, "setup": setup}) for setup in (one, other)]
            both = [seat_clients(server, t) for t in tables]
            # the observer's seat also watches through an HTML connection (what its browser gets)
            pages = [SeatClient(server, t["table"], clients[OBSERVER].token, seat=OBSERVER, fmt="html", lang="en",
                                act=False) for t, clients in zip(tables, both, strict=True)]
            for clients, page in zip(both, pages, strict=True):
                for c in clients + [page]:
                    await c.connect()
                    await c.recv_until(lambda m: m.get("type") in ("state", "html"), 10)
            await asyncio.sleep(0.5)   # the seat lists of everybody's arrival (coalesced, 0.2 s) are out
            steps = 0
            while steps < max_steps:
                views = [clients[OBSERVER].state["view"] for clients in both]
                if views[0]["terminal"]:
                    break
                mover = views[0]["current_player"]
                assert views[1]["current_player"] == mover
                legal = [set(clients[mover].state["legal"]) for clients in both]
                common = sorted(legal[0] & legal[1])
                if not common:       # a swapped card would have to show: the twins part here
                    break
                action = rng.choice(common)
                for clients, page in zip(both, pages, strict=True):
                    await _step(clients, [page], mover, action)
                steps += 1
            for clients, page in zip(both, pages, strict=True):
                for c in [page] + clients:   # the page first: the others leaving would redraw it
                    await c.close()
        return tables, both, pages, steps

    tables, both, pages, steps = run(go(), timeout=80)
    assert steps >= 5, f"the twins parted after {steps} actions: no test"
    blanks = [(t["table"],) + tuple(s["token"] for s in t["seats"]) for t in tables]
    for kind, conns in (("state", [clients[OBSERVER] for clients in both]), ("html", pages)):
        frames = [_frames(c, kind, b) for c, b in zip(conns, blanks, strict=True)]
        assert len(frames[0]) == len(frames[1]) > steps
        for i, (x, y) in enumerate(zip(*frames, strict=True)):
            assert x == y, f"{kind} frame {i} differs between twins for seat {OBSERVER}:\n{x[:1500]}\n{y[:1500]}"
    # and the frames really do come from different deals: the swapping seats saw different hands
    a = swap[0]
    hands = [[m["view"]["hand"] for m in clients[a].frames if m.get("type") == "state"] for clients in both]
    assert hands[0] != hands[1]
    # the observer's frames equal the engine's views along the actions both tables took
    state = game.new_state(seed, **one)
    want = canon(state.view(OBSERVER))
    first = next(m for m in both[0][OBSERVER].frames if m.get("type") == "state")
    assert first["view"] == want
