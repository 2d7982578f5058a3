"""A bot's fallbacks around game code reach the server's ``stich_bot_fallbacks_total{reason}``: the
decision made in a worker process (or a ``stich bot-worker``) comes back with the fallbacks it made,
per reason, and the server counts them; a reply that miscounts them is refused."""

from __future__ import annotations

import json

import pytest

from stich.web import metrics
from stich.web.botpool import BotPool, think_timed
from stich.web.botqueue import VERSION, BadMessage, Reply, encode_reply, parse_reply
from tests.bots.test_fallbacks import broken_sampler, first_card_decision, production  # noqa: F401 (fixtures)
from tests.web.client import run


def counted(reason: str) -> float:
    return metrics.REGISTRY.get_sample_value("stich_bot_fallbacks_total", {"reason": reason}) or 0.0


def test_a_decision_brings_its_fallbacks_back(broken_sampler, production):  # noqa: F811
    view, legal = first_card_decision()
    answer, seconds, fell = think_timed("pimc@8it", 1, view, legal)
    assert answer in legal and seconds >= 0 and fell.get("sampler", 0) >= 1
    answer, _seconds, fell = think_timed("random", 1, view, legal)
    assert answer in legal and fell == {}    # nothing fell back in this one


def test_the_servers_pool_counts_them(broken_sampler, production):  # noqa: F811
    view, legal = first_card_decision()
    pool = BotPool(workers=0)   # threads: the sampler patched in this process is the one used
    try:
        before = counted("sampler")
        answer, fault = run(pool.choose("pimc@8it", 1, view, legal), timeout=60)
    finally:
        pool.close()
    assert answer in legal and fault is None and counted("sampler") > before


def test_a_reply_carries_its_fallbacks_and_a_wrong_count_is_refused():
    reply = Reply("job-1", "play EO", None, 0.5, "w", {"sampler": 2})
    assert parse_reply(encode_reply(reply)) == reply
    for fell in ({"sampler": 0}, {"no_such_reason": 1}, {"sampler": True}, ["sampler"]):
        raw = json.dumps({"v": VERSION, "id": "job-1", "action": "play EO", "error": None, "seconds": 0.5,
                          "worker": "w", "fallbacks": fell})
        with pytest.raises(BadMessage, match="fallbacks count reasons"):
            parse_reply(raw)
