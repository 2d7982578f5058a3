"""A Watten variant from a package of its own (issue #33: "a variant is a row") played over real sockets:
the server finds the package through its entry point (the directory on its ``PYTHONPATH``, as an
installed package), names the variant by its title on the table page, and a match of it, with bots of
both kinds in two seats, ends and replays (tests/watten/test_watten_new_variant.py plays it in the
terminal and with every bot)."""

from __future__ import annotations

import os

import httpx
import pytest

from tests.watten.variant_package import TITLE, TITLES, installed, write_package
from tests.web.checks import check_acks_in_record, check_frames, replay_ok
from tests.web.test_matches import play_table

GAME, PACKAGE = "watten_house", "house_watten"


@pytest.fixture(scope="module")
def house(tmp_path_factory):
    root = tmp_path_factory.mktemp("house")
    target = write_package(root, PACKAGE, GAME)
    with installed(root, PACKAGE, GAME, target):   # here too: the test replays the record
        yield root


@pytest.mark.timeout(120)
def test_a_match_of_the_new_variant_over_sockets(server_factory, house):
    path = os.pathsep.join(p for p in (str(house), os.environ.get("PYTHONPATH", "")) if p)
    srv = server_factory(env={"PYTHONPATH": path})
    record, clients, spectator = _run(srv)
    state = replay_ok(record)
    assert record["game"] == GAME and record["variant"] == "house" and state.game.variant_lineage[-1] == "euregio"
    check_acks_in_record(record, clients)
    assert all(not c.errors for c in clients), [c.errors for c in clients]
    for c in clients + [spectator]:
        check_frames(record, c)
    # the pages name the variant by its title, in the reader's language
    for lang, title in {"en": TITLE, **TITLES}.items():
        page = httpx.get(f"{srv.base_url}/replay/{clients[0].table}", params={"lang": lang}, timeout=10)
        assert page.status_code == 200 and title in page.text, (lang, page.status_code, page.text[:500])


def _run(srv):
    from tests.web.client import run
    return run(play_table(srv, GAME, "house", {"target": 3, "lock_at": 1},
                          ["human", "bot:heuristic", "human", "bot:pimc"]), timeout=110)
