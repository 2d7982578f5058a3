"""The pages over plain HTTP (no browser): languages, bad records, unknown tables and games."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request

from tests.web.browser.conftest import api


def get(server, path, headers=None, data=None):
    req = urllib.request.Request(server.base_url + path, headers=headers or {}, data=data)
    try:
        with urllib.request.urlopen(req, timeout=10) as res:
            return res.status, res.read().decode(), res.headers
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode(), exc.headers


def test_language_from_accept_language_query_and_cookie(server):
    status, body, headers = get(server, "/lobby", {"Accept-Language": "fr-CH, fr;q=0.9, en;q=0.8"})
    assert status == 200 and '<html lang="fr">' in body and "Salon" in body
    status, body, headers = get(server, "/lobby?lang=de", {"Accept-Language": "fr"})
    assert '<html lang="de">' in body and "lang=de" in headers.get("set-cookie", "")
    status, body, _ = get(server, "/lobby", {"Accept-Language": "fr", "Cookie": "lang=it"})
    assert '<html lang="it">' in body
    status, body, _ = get(server, "/lobby?lang=xx", {"Accept-Language": "es"})
    assert '<html lang="en">' in body


def test_unknown_table_game_and_unfinished_replay(server):
    assert get(server, "/t/no-such-table")[0] == 404
    assert get(server, "/rules/poker")[0] == 404
    made = api(server, "/api/tables", {"game": "barbu", "variant": "standard", "seats": ["human"] * 4})
    status, body, _ = get(server, f"/replay/{made['table']}")
    assert status == 404 and "not over" in body


def test_rules_pages_for_every_game(server):
    for game in ("watten", "battn", "biscambiggia", "barbu"):
        status, body, _ = get(server, f"/rules/{game}")
        assert status == 200 and "<h1" in body, game


def test_a_bad_record_is_refused_with_the_reason(server):
    status, body, _ = get(server, "/replay", data=urllib.parse.urlencode({"record": "{not json", "step": "0"}).encode())
    assert status == 400 and "not a JSON record" in body
    record = {"format": "stich-record/1", "game": "watten", "variant": "euregio", "options": {}, "seed": 1,
              "actions": [[0, "play XX"]]}
    status, body, _ = get(server, "/replay", data=urllib.parse.urlencode({"record": json.dumps(record)}).encode())
    assert status == 400 and "cannot be replayed" in body
