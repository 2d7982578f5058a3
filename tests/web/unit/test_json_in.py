"""Bad JSON gets a specific answer and changes nothing (issue #35): a body that is not sent as JSON
(another site's form) is refused with 415, a deeply nested one and one with a lone surrogate with 400
(a plain-text 500 before), on the API, on the socket (an error message, the connection still
answers) and on the upload page."""

from __future__ import annotations

import json

import pytest

from stich.web.jsonin import MAX_DEPTH, BadJSON, loads

DEEP = "[" * 5000 + "]" * 5000              # past Python's recursion limit in json.loads
NESTED = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)   # within it, past stich's depth
SURROGATE = '{"game": "watten", "seats": ["human", "bot:random", "human", "bot:random"], "name": "\\ud800"}'


@pytest.mark.parametrize("raw, words", [(DEEP, "nested more than"), (NESTED, "nested more than"),
                                        (SURROGATE, "lone surrogate"), (b"\xff", "not UTF-8"),
                                        ("{", "not valid JSON")])
def test_the_reader_names_what_is_wrong(raw, words):
    with pytest.raises(BadJSON, match=words):
        loads(raw, "the body")


def test_a_record_nests_well_within_the_limit():
    import stich

    record = stich.game("battn").new_state(seed=1).record()
    assert loads(json.dumps(record), "a record") == record


def test_the_api_refuses_forms_deep_json_and_lone_surrogates(serve):
    srv = serve()
    status, body = srv.call("POST", "/api/tables", raw=DEEP.encode())
    assert status == 400 and "nested more than" in body["error"]
    status, body = srv.call("POST", "/api/tables", raw=SURROGATE.encode())
    assert status == 400 and "lone surrogate" in body["error"]
    status, body = srv.call("POST", "/api/tables", raw=b"game=watten",
                            content_type="application/x-www-form-urlencoded")
    assert status == 415 and "application/json" in body["error"]
    status, body = srv.call("POST", "/api/quickplay", raw=b'{"game": "watten"}', content_type="text/plain")
    assert status == 415
    status, body = srv.call("POST", "/api/records", raw=DEEP.encode())
    assert status == 400 and "nested more than" in body["error"]
    status, body = srv.call("GET", "/api/lobby")
    assert status == 200 and body["tables"] == []      # nothing was created


def test_the_socket_answers_bad_json_and_goes_on(serve):
    srv = serve()
    status, t = srv.post("/api/tables", {"game": "watten", "variant": "bavarian_2", "options": {"target": 3},
                                         "seats": ["human", "human"]})
    assert status == 201
    with srv.socket(t["table"], t["seats"][0]["token"]) as c:
        for raw, words in ((DEEP, "nested more than"), ('{"type": "act", "id": "\\udc00", "action": "x"}',
                                                        "lone surrogate")):
            c.send(raw)
            err = c.until(lambda m: m.get("type") == "error")
            assert words in err["message"]
        c.send({"type": "ping"})
        assert c.until(lambda m: m.get("type") == "pong")   # still connected and answered
