"""Bad input over HTTP: every error is a problem+json with a clear detail, and nothing is a 500.

Runs the real app (Flask's test client) against a real Redis (the ``redis_url`` fixture).
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from api.errors import TITLES
from tests.api.test_openapi import component

PROBLEM = "application/problem+json"
TWO_HUMANS = {"game": "savanna", "seats": [{"kind": "human"}, {"kind": "human"}]}


@pytest.fixture
def match(client: FlaskClient) -> dict[str, Any]:
    """A running two-human Savanna match: its id, version and seat-0 auth header."""
    games = [game["id"] for game in client.get("/v1/games").get_json()["games"]]
    assert "savanna" in games, "the savanna engine is not in /v1/games"
    body = client.post("/v1/matches", json={**TWO_HUMANS, "seed": 11}).get_json()
    return {"id": body["id"], "version": body["version"],
            "auth": {"Authorization": f"Bearer {body['tokens'][0]['token']}"},
            "auth1": {"Authorization": f"Bearer {body['tokens'][1]['token']}"}}


def assert_problem(response: TestResponse, status: int, *, mentions: str = "") -> dict[str, Any]:
    """``response`` is a ``status`` problem+json whose detail is non-empty (and mentions …)."""
    text = response.get_data(as_text=True)
    assert response.status_code == status, text
    assert response.mimetype == PROBLEM, text
    body = json.loads(text)
    component("Problem").validate(body)
    assert body["status"] == status and body["detail"].strip()
    assert body["title"] == TITLES[status]  # about:blank: the title is the status phrase
    assert mentions.lower() in body["detail"].lower(), body["detail"]
    assert "Traceback" not in text
    return body


# -- 400: not JSON -------------------------------------------------------------------------

@pytest.mark.parametrize(("data", "content_type", "mentions"), [
    ('{"game": "savanna",', "application/json", "not valid JSON"),
    ("", "application/json", "JSON object"),
    ("[1, 2]", "application/json", "JSON object"),
    ('"savanna"', "application/json", "JSON object"),
    ("null", "application/json", "JSON object"),
    (b'{"game": "\xff"}', "application/json", "not valid JSON"),
    ("{'game': 'savanna'}", "application/json", "not valid JSON"),
    ('{"game": NaN}', "application/json", ""),
    (json.dumps(TWO_HUMANS), "text/plain", "Content-Type"),
    (json.dumps(TWO_HUMANS), "application/x-www-form-urlencoded", "Content-Type"),
    (json.dumps(TWO_HUMANS), None, "Content-Type"),
])
def test_a_body_that_is_not_a_json_object_is_a_400(client: FlaskClient, data: str | bytes,
                                                    content_type: str | None,
                                                    mentions: str) -> None:
    response = client.post("/v1/matches", data=data, content_type=content_type)
    if data == '{"game": NaN}':  # Python's json accepts NaN; then the schema refuses it
        assert response.status_code in (400, 422)
        assert response.mimetype == PROBLEM
        return
    assert_problem(response, 400, mentions=mentions)


def test_join_and_move_bodies_must_be_json_too(client: FlaskClient,
                                               match: dict[str, Any]) -> None:
    url = f"/v1/matches/{match['id']}"
    assert_problem(client.post(f"{url}/join"), 400, mentions="Content-Type")
    assert_problem(client.post(f"{url}/moves", headers=match["auth"], data="version=1",
                               content_type="application/x-www-form-urlencoded"), 400)
    assert_problem(client.post(f"{url}/moves", headers=match["auth"], data="{",
                               content_type="application/json"), 400)


# -- 422: validation -----------------------------------------------------------------------

@pytest.mark.parametrize(("body", "field"), [
    ({**TWO_HUMANS, "colour": "red"}, "colour"),
    ({"seats": TWO_HUMANS["seats"]}, "game"),
    ({"game": "savanna"}, "seats"),
    ({"game": "", "seats": TWO_HUMANS["seats"]}, "game"),
    ({"game": 5, "seats": TWO_HUMANS["seats"]}, "game"),
    ({**TWO_HUMANS, "seed": "5"}, "seed"),
    ({**TWO_HUMANS, "seed": True}, "seed"),
    ({**TWO_HUMANS, "seed": 5.5}, "seed"),
    ({**TWO_HUMANS, "seed": -1}, "seed"),
    ({**TWO_HUMANS, "seed": 2**63}, "seed"),
    ({**TWO_HUMANS, "options": []}, "options"),
    ({"game": "savanna", "seats": []}, "seats"),
    ({"game": "savanna", "seats": [{"kind": "human"}] * 9}, "seats"),
    ({"game": "savanna", "seats": "two"}, "seats"),
    ({"game": "savanna", "seats": [{"kind": "alien"}, {"kind": "human"}]}, "seats"),
    ({"game": "savanna", "seats": [{"kind": "human", "token": "x"}, {"kind": "human"}]},
     "seats"),
    ({"game": "savanna", "seats": [{"kind": "human", "name": ""}, {"kind": "human"}]},
     "seats"),
    ({"game": "savanna", "seats": [{"kind": "human", "name": "x" * 41}, {"kind": "human"}]},
     "seats"),
    ({"game": "savanna", "seats": [{"kind": "bot"}, {"kind": "human"}]}, "seats"),
    ({"game": "savanna", "seats": [{"kind": "human", "bot": {"kind": "random"}},
                                   {"kind": "human"}]}, "seats"),
    ({"game": "savanna", "seats": [{"kind": "bot", "bot": {"kind": "genius"}},
                                   {"kind": "human"}]}, "seats"),
    ({"game": "savanna", "seats": [{"kind": "bot", "bot": {"kind": "ismcts",
                                                           "level": "godlike"}},
                                   {"kind": "human"}]}, "seats"),
    ({"game": "savanna", "seats": [{"kind": "bot", "bot": {"kind": "ismcts",
                                                           "simulations": "100"}},
                                   {"kind": "human"}]}, "seats"),
    ({"game": "savanna", "seats": [{"kind": "bot", "bot": {"kind": "ismcts",
                                                           "simulations": 10**6}},
                                   {"kind": "human"}]}, "seats"),
    ({"game": "savanna", "seats": [{"kind": "bot", "bot": {"kind": "ismcts", "level": "easy",
                                                           "simulations": 5}},
                                   {"kind": "human"}]}, "seats"),
    ({"game": "savanna", "seats": [{"kind": "bot", "bot": {"kind": "random", "x": 1}},
                                   {"kind": "human"}]}, "seats"),
    *[({"game": "savanna", "seats": [{"kind": "bot", "bot": bot}, {"kind": "human"}]}, "seats")
      for bot in ({"kind": "ismcts", "seconds": 0}, {"kind": "ismcts", "seconds": 61},
                  {"kind": "ismcts", "seconds": "2"}, {"kind": "ismcts", "seconds": True},
                  {"kind": "ismcts", "seconds": 2, "level": "easy"},
                  {"kind": "ismcts", "seconds": 2, "simulations": 100})],
])
def test_an_invalid_create_body_is_a_422_naming_the_field(client: FlaskClient,
                                                          body: dict[str, Any],
                                                          field: str) -> None:
    problem = assert_problem(client.post("/v1/matches", json=body), 422)
    assert field in problem["detail"]
    assert "errors" in problem or "field" in problem


@pytest.mark.parametrize(("body", "field"), [
    ({"version": "1", "move_id": "x"}, "version"),
    ({"version": True, "move_id": "x"}, "version"),
    ({"version": 1.5, "move_id": "x"}, "version"),
    ({"version": 1.5, "move_id": "x"}, "version"),
    ({"version": -1, "move_id": "x"}, "version"),
    ({"version": None, "move_id": "x"}, "version"),
    ({"move_id": "x"}, "version"),
    ({"version": 1}, "move"),
    ({"version": 1, "move_id": "x", "move": {"type": "pick"}}, "move"),
    ({"version": 1, "move": "pick:zebra"}, "move"),
    ({"version": 1, "move": [1]}, "move"),
    ({"version": 1, "move_id": ""}, "move_id"),
    ({"version": 1, "move_id": 7}, "move_id"),
    ({"version": 1, "move_id": "x" * 201}, "move_id"),
    ({"version": 1, "move_id": "x", "seat": 1}, "seat"),
])
def test_an_invalid_move_body_is_a_422(client: FlaskClient, match: dict[str, Any],
                                       body: dict[str, Any], field: str) -> None:
    response = client.post(f"/v1/matches/{match['id']}/moves", headers=match["auth"],
                           json=body)
    assert field in assert_problem(response, 422)["detail"]


@pytest.mark.parametrize("body", [
    {"seat": "1"}, {"seat": True}, {"seat": 1.5}, {"seat": -1}, {"seat": 8}, {"name": ""},
    {"name": 5}, {"token": "x"},
])
def test_an_invalid_join_body_is_a_422(client: FlaskClient, body: dict[str, Any]) -> None:
    games = [game["id"] for game in client.get("/v1/games").get_json()["games"]]
    assert "savanna" in games, "the savanna engine is not in /v1/games"
    created = client.post("/v1/matches", json={"game": "savanna",
                                               "seats": [{"kind": "human"}, {"kind": "open"}]})
    assert_problem(client.post(f"/v1/matches/{created.get_json()['id']}/join", json=body), 422)


def test_joining_a_seat_that_is_not_in_the_match_is_a_422(client: FlaskClient) -> None:
    games = [game["id"] for game in client.get("/v1/games").get_json()["games"]]
    assert "savanna" in games, "the savanna engine is not in /v1/games"
    created = client.post("/v1/matches", json={"game": "savanna",
                                               "seats": [{"kind": "human"}, {"kind": "open"}]})
    url = f"/v1/matches/{created.get_json()['id']}/join"
    assert assert_problem(client.post(url, json={"seat": 5}), 422)["field"] == "seat"
    assert_problem(client.post(url, json={"seat": 0}), 409, mentions="not open")


@pytest.mark.parametrize("query", [
    "version=abc", "version=-1", "version=1.5", "wait=abc", "wait=-1", "wait=61", "wait=nan",
    "wait=inf", "colour=red",
])
def test_an_invalid_read_query_is_a_422(client: FlaskClient, match: dict[str, Any],
                                        query: str) -> None:
    assert_problem(client.get(f"/v1/matches/{match['id']}?{query}"), 422)


@pytest.mark.parametrize(("route", "query"), [
    ("events", "since=abc"), ("events", "since=-1"), ("events", "since=1.5"),
    ("events", "version=1"), ("stream", "since=abc"), ("stream", "since=-2"),
    ("stream", "colour=red"),
])
def test_an_invalid_events_or_stream_query_is_a_422(client: FlaskClient,
                                                    match: dict[str, Any], route: str,
                                                    query: str) -> None:
    assert_problem(client.get(f"/v1/matches/{match['id']}/{route}?{query}"), 422)


def test_illegal_moves_are_422_with_the_reason(client: FlaskClient,
                                               match: dict[str, Any]) -> None:
    url = f"/v1/matches/{match['id']}/moves"
    # The game's move schema names the wrong shape before the engine sees it (shared.matches.moves);
    # a move of the right shape that the rules refuse gets the engine's reason.
    for move, reason in (({"type": "pass"}, "savanna has no move type 'pass'"),
                         ({"type": "pick", "card": "unicorn"}, "card: 'unicorn' is not one of"),
                         ({"type": "pick", "card": "zebra", "row": 0, "col": 0},
                          "('col', 'row' were unexpected)"),
                         ({"type": "place", "row": 0, "col": 0}, "pick a card first"),
                         ({"type": "pick", "card": ["zebra"]}, "card"),
                         ({"type": "pick", "card": {"a": 1}}, "card"),
                         ({"type": ["pick"]}, "move type")):
        problem = assert_problem(client.post(url, headers=match["auth"],
                                             json={"version": match["version"],
                                                   "move": move}), 422, mentions=reason)
        assert problem["version"] == match["version"]
    assert_problem(client.post(url, headers=match["auth"], json={
        "version": match["version"], "move_id": "pick:unicorn"}), 422,
        mentions="no legal move")


def test_idempotency_key_errors(client: FlaskClient, match: dict[str, Any]) -> None:
    url = f"/v1/matches/{match['id']}/moves"
    move = client.get(url, headers=match["auth"]).get_json()["moves"][0]
    body = {"version": match["version"], "move_id": move["id"]}
    for key in ("x" * 201, "tab\there"):
        assert_problem(client.post(url, headers={**match["auth"], "Idempotency-Key": key},
                                   json=body), 422, mentions="Idempotency-Key")
    headers = {**match["auth"], "Idempotency-Key": "once"}
    assert client.post(url, headers=headers, json=body).status_code == 200
    assert client.post(url, headers=headers, json=body).status_code == 200
    assert_problem(client.post(url, headers=headers, json={**body, "move_id": "other"}), 422,
                   mentions="different request")


# -- 401 / 403 / 404 / 405 / 409 / 413 -----------------------------------------------------

def test_tokens(client: FlaskClient, match: dict[str, Any]) -> None:
    url = f"/v1/matches/{match['id']}"
    body = {"version": match["version"], "move_id": "x"}
    assert_problem(client.get(f"{url}/moves"), 401, mentions="Bearer")
    assert_problem(client.post(f"{url}/moves", json=body), 401, mentions="Bearer")
    for header in ("Basic dXNlcjpwdw==", "Bearer", "Bearer   ", "token abc"):
        assert_problem(client.get(f"{url}/moves", headers={"Authorization": header}), 401)
        assert_problem(client.get(url, headers={"Authorization": header}), 401)
    wrong = {"Authorization": "Bearer not-a-token"}
    for response in (client.get(url, headers=wrong), client.get(f"{url}/moves", headers=wrong),
                     client.post(f"{url}/moves", headers=wrong, json=body),
                     client.get(f"{url}/events", headers=wrong)):
        assert_problem(response, 403, mentions="token")
    other = client.post("/v1/matches", json=TWO_HUMANS).get_json()["id"]
    assert_problem(client.get(f"/v1/matches/{other}/moves", headers=match["auth"]), 403)


@pytest.mark.parametrize(("method", "path", "kwargs"), [
    ("GET", "/v1/matches/0123456789abcdef", {}),
    ("GET", "/v1/matches/0123456789abcdef/events", {}),
    ("GET", "/v1/matches/0123456789abcdef/stream", {}),
    ("POST", "/v1/matches/0123456789abcdef/join", {"json": {}}),
    ("GET", "/v1/games/chess", {}),
    ("GET", "/v1/nothing-here", {}),
    ("GET", "/v2/games", {}),
    ("POST", "/v1/matches/0123456789abcdef/resign", {"json": {}}),
    ("GET", "/static/../openapi.yaml", {}),
])
def test_unknown_things_are_404(client: FlaskClient, method: str, path: str,
                                kwargs: dict[str, Any]) -> None:
    assert_problem(client.open(path, method=method, **kwargs), 404)


def test_unknown_match_is_404_whatever_the_token(client: FlaskClient,
                                                 match: dict[str, Any]) -> None:
    """The match is looked up before the token is checked."""
    url = "/v1/matches/0123456789abcdef"
    assert_problem(client.get(url, headers=match["auth"]), 404)
    assert_problem(client.get(f"{url}/moves"), 404)
    assert_problem(client.get(f"{url}/events", headers=match["auth"]), 404)
    assert_problem(client.post(f"{url}/moves", json={"version": 1, "move_id": "x"}), 404)


@pytest.mark.parametrize("query", ["since=1_0", "since=%201", "since=%2B1", "since=-1",
                                   "since=1.0", "since=%C2%B2"])
def test_query_integers_are_plain_digits(client: FlaskClient, match: dict[str, Any],
                                         query: str) -> None:
    assert_problem(client.get(f"/v1/matches/{match['id']}/events?{query}"), 422)


def test_repeated_query_parameter_is_400(client: FlaskClient, match: dict[str, Any]) -> None:
    response = client.get(f"/v1/matches/{match['id']}/events?since=1&since=2")
    assert_problem(response, 400, mentions="since")


def test_wait_without_version_returns_at_once(client: FlaskClient,
                                              match: dict[str, Any]) -> None:
    """The contract allows ``wait`` alone (issue 18): there is nothing to wait past."""
    started = time.monotonic()
    response = client.get(f"/v1/matches/{match['id']}?wait=5")
    assert response.status_code == 200 and time.monotonic() - started < 4
    assert response.get_json()["version"] == match["version"]


def test_integral_numbers_are_integers(client: FlaskClient) -> None:
    """JSON Schema's ``integer`` includes ``5.0``; the server agrees (issue 18)."""
    body = client.post("/v1/matches", json={**TWO_HUMANS, "seed": 5.0}).get_json()
    assert body["seeded"] is True
    finished_seed = client.post("/v1/matches", json={**TWO_HUMANS, "seed": 5}).get_json()
    assert body["view"] == finished_seed["view"]


@pytest.mark.parametrize("name", ["a\x00b", "tab\there", "new\n", "\x85", "   "])
def test_names_with_control_characters_are_422(client: FlaskClient, name: str) -> None:
    seats = [{"kind": "human", "name": name}, {"kind": "human"}]
    assert_problem(client.post("/v1/matches", json={"game": "savanna", "seats": seats}), 422,
                   mentions="control")


#: Right-to-left override, left-to-right/right-to-left marks and isolates, zero-width space
#: and joiner, the byte order mark, a soft hyphen, a tag character, a line separator.
INVISIBLE = ["evil\u202egnp.exe", "a\u202db", "a\u200fb", "a\u2067b\u2069", "a\u200bb",
             "a\u200db", "\ufeffname", "soft\u00adhyphen", "flag\U000e0041", "two\u2028lines"]


@pytest.mark.parametrize("name", INVISIBLE)
def test_names_with_bidi_or_format_characters_are_422(client: FlaskClient, name: str) -> None:
    """A seat name is shown to everyone: nothing in it may reorder or hide text (issue 39,
    a regression), when the match is created and when a seat is joined."""
    seats = [{"kind": "human", "name": name}, {"kind": "human"}]
    assert_problem(client.post("/v1/matches", json={"game": "savanna", "seats": seats}), 422,
                   mentions="bidirectional")
    waiting = client.post("/v1/matches", json={"game": "savanna", "seats": [
        {"kind": "human"}, {"kind": "open"}]}).get_json()
    assert_problem(client.post(f"/v1/matches/{waiting['id']}/join", json={"name": name}), 422,
                   mentions="bidirectional")
    assert client.get(f"/v1/matches/{waiting['id']}").get_json()["seats"][1]["joined"] is False


def test_names_in_any_script_are_accepted(client: FlaskClient) -> None:
    for name in ("Žluťoučký kůň", "Jyväskylä", "Łódź", "שלום", "مرحبا", "東京 🦒"):
        seats = [{"kind": "human", "name": name}, {"kind": "human"}]
        created = client.post("/v1/matches", json={"game": "savanna", "seats": seats})
        assert created.status_code == 201, name
        assert created.get_json()["seats"][0]["name"] == name


def test_seat_name_must_be_valid_text(client: FlaskClient) -> None:
    for name in ("\ud800", "   ", "tab\there"):
        body = {"game": "savanna", "seats": [{"kind": "human", "name": name},
                                             {"kind": "human"}]}
        assert_problem(client.post("/v1/matches", json=body), 422)


def test_move_object_must_match_exactly(client: FlaskClient, match: dict[str, Any]) -> None:
    """A string where the move has an int is not that move (no lenient matching by id)."""
    url = f"/v1/matches/{match['id']}/moves"
    for auth in (match["auth"], match["auth1"]):  # both pick: the place stage has the ints
        moves = client.get(url, headers=auth).get_json()
        picked = client.post(url, headers=auth, json={"version": moves["version"],
                                                      "move_id": moves["moves"][0]["id"]})
        assert picked.status_code == 200, picked.get_data(as_text=True)
    moves = client.get(url, headers=match["auth"]).get_json()
    move = dict(moves["moves"][0]["move"])
    assert move["type"] == "place"
    move["row"] = str(move["row"])
    response = client.post(url, headers=match["auth"],
                           json={"version": moves["version"], "move": move})
    assert_problem(response, 422, mentions=f"place: row: '{move['row']}' is not of type 'integer'")


@pytest.mark.parametrize(("method", "path"), [
    ("PUT", "/v1/matches"), ("DELETE", "/v1/matches"), ("PUT", "/v1/games"),
    ("POST", "/healthz"), ("DELETE", "/v1/matches/0123456789abcdef"),
    ("PATCH", "/v1/matches/0123456789abcdef/moves"), ("GET", "/v1/matches/abc/join"),
    ("POST", "/v1/matches/abc/events"), ("POST", "/docs"),
])
def test_a_wrong_method_is_405_with_allow(client: FlaskClient, method: str, path: str) -> None:
    response = client.open(path, method=method)
    assert_problem(response, 405)
    assert response.headers["Allow"]


def test_conflicts_are_409(client: FlaskClient, match: dict[str, Any]) -> None:
    url = f"/v1/matches/{match['id']}/moves"
    move = client.get(url, headers=match["auth"]).get_json()["moves"][0]
    stale = assert_problem(client.post(url, headers=match["auth"], json={
        "version": match["version"] + 5, "move_id": move["id"]}), 409, mentions="stale")
    assert stale["version"] == match["version"]
    accepted = client.post(url, headers=match["auth"], json={"version": match["version"],
                                                             "move_id": move["id"]})
    version = accepted.get_json()["version"]
    again = assert_problem(client.post(url, headers=match["auth"], json={
        "version": version, "move_id": move["id"]}), 409, mentions="owes no move")
    assert again["to_move"] == [1]
    assert_problem(client.post(f"/v1/matches/{match['id']}/join", json={}), 409,
                   mentions="no open seat")


def test_a_body_over_the_limit_is_413(app: Flask, client: FlaskClient) -> None:
    limit = app.config["MAX_CONTENT_LENGTH"]
    big = json.dumps({**TWO_HUMANS, "padding": "x" * limit})
    assert_problem(client.post("/v1/matches", data=big, content_type="application/json"), 413,
                   mentions=str(limit))
    assert_problem(client.post("/v1/matches/0123456789abcdef/join", data=big,
                               content_type="application/json"), 413)


# -- no 500s -------------------------------------------------------------------------------

def test_deeply_nested_json_is_not_a_500(client: FlaskClient) -> None:
    depth = 10_000  # deeper than json.loads can recurse, within the body limit
    for body in ("[" * depth + "]" * depth, '{"a":' * depth + "1" + "}" * depth):
        response = client.post("/v1/matches", data=body, content_type="application/json")
        assert_problem(response, 400, mentions="nested")


def test_odd_last_event_ids_are_not_a_500(client: FlaskClient, match: dict[str, Any]) -> None:
    for last_id in ("abc", "-1", "1.5", "\u00b2", "\u00b9\u00b3", ""):
        response = client.get(f"/v1/matches/{match['id']}/stream",
                              headers={"Last-Event-ID": last_id}, buffered=False)
        response.close()
        assert response.status_code == 200, last_id  # '²' is a digit to isdigit(), not int()


_ODD_VALUES: list[Any] = [
    None, True, False, 0, -1, 1.5, 2**64, -(2**70), 1e308, "", " ", "0", "1", "\u0000",
    "\ud800", "é" * 50, "x" * 300, [], [None], [[[]]], {}, {"type": None},
    {"type": "pick", "card": None}, {"type": "pick", "card": "zebra", "row": 0, "col": 0},
    {"type": "place", "row": None, "col": None},
    {"type": "place", "row": 10**30, "col": -(10**30)},
    {"type": "place", "row": 0.0, "col": True},
    {"type": "place", "row": [0], "col": {"a": 0}},
    {"type": {"nested": [1, 2]}, "card": ["x"]}, {"__proto__": 1},
]
_KEYS = ["game", "seats", "seed", "options", "version", "move", "move_id", "seat", "name",
         "kind", "bot", "type"]


def _odd_body(rng: random.Random) -> Any:
    roll = rng.random()
    if roll < 0.15:
        return rng.choice(_ODD_VALUES)
    body = {rng.choice(_KEYS): rng.choice(_ODD_VALUES) for _ in range(rng.randint(0, 4))}
    if roll < 0.6:
        body.setdefault("version", rng.choice([1, 2, 0, "1", None]))
        body.setdefault("move", rng.choice(_ODD_VALUES))
    if roll > 0.8:
        body["seats"] = [{"kind": rng.choice(["human", "open", "bot", "x", 1]),
                          rng.choice(_KEYS): rng.choice(_ODD_VALUES)}
                         for _ in range(rng.randint(0, 3))]
        body["game"] = rng.choice(["savanna", "evolution", "", None])
    return body


def test_fuzzed_requests_never_get_a_500(client: FlaskClient, match: dict[str, Any]) -> None:
    rng = random.Random(20261129)
    mid = match["id"]
    posts = ["/v1/matches", f"/v1/matches/{mid}/join", f"/v1/matches/{mid}/moves",
             "/v1/matches/0123456789abcdef/moves", "/v1/matches/%00/join"]
    gets = [f"/v1/matches/{mid}", f"/v1/matches/{mid}/moves", f"/v1/matches/{mid}/events",
            f"/v1/matches/{mid}/stream", "/v1/games/%ff%fe", "/v1/matches/..%2f..",
            "/v1/bots", "/readyz"]
    query_values = ["", "-1", "1.5", "abc", "1e3", "%00", "9" * 40, "true", "[]", "%ff",
                    "0x10", " 3", "nan"]
    headers_pool: list[dict[str, str]] = [
        {}, match["auth"], match["auth1"], {"Authorization": "Bearer "},
        {"Authorization": "Bearer \u00e9\u00e8"}, {"Authorization": "bearer " + "a" * 5000},
        {"Idempotency-Key": ""}, {"Idempotency-Key": "\u00e9" * 10},
        {"Last-Event-ID": "\u00e9"}, {"Content-Encoding": "gzip"},
    ]
    seen: set[int] = set()
    for _ in range(400):
        headers = {**rng.choice(headers_pool), **rng.choice(headers_pool)}
        if rng.random() < 0.5:
            body = _odd_body(rng)
            raw = json.dumps(body) if rng.random() < 0.9 else json.dumps(body)[:-1]
            content_type = rng.choice(["application/json", "application/json; charset=utf-8",
                                       "application/problem+json", "text/plain", None])
            response = client.post(rng.choice(posts), data=raw, content_type=content_type,
                                   headers=headers)
        else:
            query = "&".join(f"{rng.choice(['version', 'wait', 'since', 'x'])}="
                             f"{rng.choice(query_values)}" for _ in range(rng.randint(0, 3)))
            response = client.get(f"{rng.choice(gets)}?{query}", headers=headers,
                                  buffered=False)
            response.close()  # an event stream would otherwise run for minutes
        seen.add(response.status_code)
        assert response.status_code < 500, (response.request.path, response.status_code)
        if response.status_code >= 400:
            assert response.mimetype == PROBLEM
    assert {200, 400, 401, 403, 404, 422} <= seen


@pytest.mark.parametrize("rated", [0, 1, "true", "false", "", None, 0.0, [], {}])
def test_rated_is_a_json_boolean(client: FlaskClient, rated: Any) -> None:
    """The contract's ``rated`` is ``boolean``: 0, 1 and strings are refused (issue 39)."""
    assert_problem(client.post("/v1/matches", json={**TWO_HUMANS, "rated": rated}), 422,
                   mentions="rated")


@pytest.mark.parametrize("value", ["1", "0", "yes", "on", "True", "t", ""])
def test_a_boolean_query_parameter_is_true_or_false(client: FlaskClient, value: str) -> None:
    assert_problem(client.get(f"/v1/matches?open={value}"), 422, mentions="open")
    assert client.get("/v1/matches?open=false").status_code == 200


def test_every_boolean_field_is_strict() -> None:
    """Marshmallow's Boolean takes 0/1 and many strings: every schema of the API uses the
    strict fields instead (a JSON boolean in bodies, true/false in query strings)."""
    import inspect

    from marshmallow import Schema, fields

    import api.arena_schemas
    import api.match_schemas
    from api.match_schemas import QueryBool, StrictBool

    loose = []
    for module in (api.match_schemas, api.arena_schemas):
        for name, schema in inspect.getmembers(module, inspect.isclass):
            if issubclass(schema, Schema) and schema.__module__ == module.__name__:
                for field_name, field in schema._declared_fields.items():
                    if isinstance(field, fields.Boolean) and not isinstance(
                            field, (StrictBool, QueryBool)):
                        loose.append(f"{name}.{field_name}")
    assert loose == []
