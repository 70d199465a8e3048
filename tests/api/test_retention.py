"""After the end (issue 18), through the HTTP routes and checked against the contract: an
ended match whose state has expired answers from its kept result and log (``archived``),
410 where nothing can be served any more, then 404; a match stored under retired rules is a
410 on every route."""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from api import create_app
from shared.infra.config import Settings
from shared.matches.store import match_key
from tests.api.test_errors import assert_problem
from tests.api.test_openapi import MATCH, _first_open_sse_events, check
from tests.worker.test_retired_rules import store_as_savanna_1

# Seconds: short, the test waits for each. Between the stages it checks whole answers against
# the contract, whose per-game move unions take jsonschema about a second for a whole log
# under load; the later keys' countdowns are paused while it does (``pause_expiry``).
TTLS = {"ended_ttl": 1, "log_ttl": 4, "result_ttl": 7}


@pytest.fixture(scope="module")
def app(redis_url: str) -> Flask:
    settings = dataclasses.replace(Settings.from_env(), redis_url=redis_url,
                                   broker_url=redis_url, matches_per_minute=0,
                                   joins_per_minute=0, moves_per_minute=0,
                                   bot_seats_per_client=0, **TTLS)
    return create_app(settings)


@pytest.fixture
def client(app: Flask, redis_client: redis.Redis) -> Iterator[FlaskClient]:
    with app.test_client() as test_client:
        yield test_client


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def play_to_the_end(client: FlaskClient) -> tuple[dict[str, Any], list[str]]:
    """A two-person Savanna match played with the first legal move each time."""
    created = client.post("/v1/matches", json={"game": "savanna", "seats": [
        {"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]}).get_json()
    url, tokens = f"/v1/matches/{created['id']}", [t["token"] for t in created["tokens"]]
    match = created
    while match["status"] == "running":
        seat = match["to_move"][0]
        legal = client.get(f"{url}/moves", headers=auth(tokens[seat])).get_json()
        client.post(f"{url}/moves", headers=auth(tokens[seat]), json={
            "version": legal["version"], "move_id": legal["moves"][0]["id"]})
        match = client.get(url).get_json()
    return match, tokens


def wait_until(done: Any, timeout: float = 6.0) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def pause_expiry(redis_client: redis.Redis, *keys: str) -> dict[str, int]:
    """Stop the keys' countdowns; their milliseconds left (each must still be counting)."""
    left = {key: int(redis_client.pttl(key)) for key in keys}
    assert all(ms > 0 for ms in left.values()), left  # a kept key without a TTL, or gone
    for key in keys:
        redis_client.persist(key)
    return left


@pytest.mark.slow  # waits out real TTLs or deadlines (in `make test`, not test-fast)
def test_an_ended_match_answers_from_what_is_kept_until_each_ttl(
        client: FlaskClient, redis_client: redis.Redis) -> None:
    final, tokens = play_to_the_end(client)
    url = f"/v1/matches/{final['id']}"
    events = client.get(f"{url}/events").get_json()
    assert final["status"] == "finished" and not events["redacted"]
    stream_text = client.get(f"{url}/stream?since=0").get_data(as_text=True)

    log_key, result_key = match_key(final["id"], ":logz"), match_key(final["id"], ":result")
    # The state and tokens expire (ENDED_TTL): the match is read from what was kept.
    wait_until(lambda: not redis_client.exists(match_key(final["id"])))
    # Each stage's checks take seconds under load: the next key's countdown is paused
    # meanwhile (and resumed where it stood), so no check races its expiry.
    paused = pause_expiry(redis_client, log_key, result_key)
    kept = check(client.get(url), MATCH, "GET")
    assert kept == {**final, "archived": True}  # the same answer, the final view included
    assert check(client.get(url, headers=auth(tokens[0])), MATCH, "GET") == kept
    assert check(client.get(f"{url}/events"), f"{MATCH}/events", "GET") == events
    since = final["version"] - 1
    assert client.get(f"{url}/events?since={since}").get_json()["events"] == events[
        "events"][-1:]
    assert client.get(f"{url}/stream?since=0").get_data(as_text=True) == stream_text
    assert client.get(f"{url}/stream?since={final['version']}").status_code == 204
    for method, path, response in (
            ("POST", f"{MATCH}/moves", client.post(f"{url}/moves", headers=auth(tokens[0]),
                                                   json={"version": final["version"],
                                                         "move_id": "x"})),
            ("GET", f"{MATCH}/moves", client.get(f"{url}/moves", headers=auth(tokens[0]))),
            ("POST", f"{MATCH}/join", client.post(f"{url}/join", json={})),
            ("GET", f"{MATCH}/hint", client.get(f"{url}/hint", headers=auth(tokens[0])))):
        check(response, path, method)
        assert assert_problem(response, 410, mentions="only its result")["archived"] is True

    # The log goes (LOG_TTL): its routes are a 410, the match itself still reads.
    for key, left in paused.items():
        redis_client.pexpire(key, left)
    wait_until(lambda: not redis_client.exists(log_key))
    paused = pause_expiry(redis_client, result_key)
    gone = client.get(f"{url}/events")
    check(gone, f"{MATCH}/events", "GET")
    assert_problem(gone, 410, mentions="no longer kept")
    assert_problem(client.get(f"{url}/stream"), 410, mentions="no longer kept")
    assert client.get(url).get_json()["result"] == final["result"]

    # Then the result (RESULT_TTL): nothing is left, a 404.
    redis_client.pexpire(result_key, paused[result_key])
    wait_until(lambda: not redis_client.exists(result_key))
    missing = client.get(url)
    check(missing, MATCH, "GET")
    assert_problem(missing, 404)
    assert redis_client.keys(match_key(final["id"]) + "*") == []


def test_a_match_stored_under_retired_rules_is_gone_on_every_route(
        client: FlaskClient, redis_client: redis.Redis) -> None:
    created = client.post("/v1/matches", json={"game": "savanna", "seats": [
        {"kind": "human"}, {"kind": "open"}]}).get_json()
    store_as_savanna_1(redis_client, created["id"])
    url, token = f"/v1/matches/{created['id']}", created["tokens"][0]["token"]
    for method, path, response in (
            ("GET", MATCH, client.get(url)),
            ("GET", f"{MATCH}/events", client.get(f"{url}/events")),
            ("GET", f"{MATCH}/stream", client.get(f"{url}/stream")),
            ("GET", f"{MATCH}/moves", client.get(f"{url}/moves", headers=auth(token))),
            ("POST", f"{MATCH}/moves", client.post(f"{url}/moves", headers=auth(token),
                                                   json={"version": 1, "move_id": "x"})),
            ("POST", f"{MATCH}/join", client.post(f"{url}/join", json={})),
            ("GET", f"{MATCH}/hint", client.get(f"{url}/hint", headers=auth(token)))):
        check(response, path, method)
        body = assert_problem(response, 410, mentions="savanna-1")
        assert body["rules_version"] == "savanna-1", json.dumps(body)


def test_a_pull_bot_is_not_offered_a_turn_in_a_match_under_retired_rules(
        client: FlaskClient, redis_client: redis.Redis) -> None:
    account = client.post("/v1/accounts", json={"name": "Puller"}).get_json()
    seats = [{"kind": "account", "account": account["id"]}, {"kind": "human"}]
    old, playable = (client.post("/v1/matches", headers=auth(account["key"]),
                                 json={"game": "savanna", "seats": seats})
                     .get_json() for _ in range(2))
    store_as_savanna_1(redis_client, old["id"])
    turns = check(client.get("/v1/me/turns", headers=auth(account["key"])), "/v1/me/turns",
                  "GET")
    assert [t["match"] for t in turns["turns"]] == [playable["id"]]
    blocks = _first_open_sse_events(client, "/v1/me/stream", 2, auth(account["key"]))
    assert json.loads(blocks[1].split("data: ", 1)[1]) == turns
    # The turn left out is one no route would let it play.
    url = f"/v1/matches/{old['id']}"
    assert_problem(client.get(f"{url}/moves", headers=auth(account["key"])), 410,
                   mentions="savanna-1")


def test_the_lobby_leaves_out_a_match_under_retired_rules(
        client: FlaskClient, redis_client: redis.Redis) -> None:
    old, waiting = (client.post("/v1/matches", json={"game": "savanna", "seats": [
        {"kind": "human"}, {"kind": "open"}]}).get_json() for _ in range(2))
    store_as_savanna_1(redis_client, old["id"])
    listed = check(client.get("/v1/matches?open=true"), "/v1/matches", "GET")
    assert [m["id"] for m in listed["matches"]] == [waiting["id"]]
