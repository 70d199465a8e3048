"""The quick-play routes through the app on a real Redis: join, the ticket (long-poll), leave,
the listing, and their refusals."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api import create_app
from shared.infra.config import Settings
from tests.api.test_openapi import check


@pytest.fixture(scope="module")
def app(redis_url: str) -> Flask:
    settings = dataclasses.replace(
        Settings.from_env(), redis_url=redis_url, broker_url=redis_url, accounts_per_minute=0,
        joins_per_minute=0, pool_window=1.0, pool_widen_per_second=0.0, pool_max_window=1.0,
        pool_bot_fill_seconds=3600.0)
    return create_app(settings)


@pytest.fixture
def client(app: Flask, redis_url: str) -> Iterator[FlaskClient]:
    with app.test_client() as test_client:
        yield test_client


def account(client: FlaskClient, name: str) -> dict[str, str]:
    response = client.post("/v1/accounts", json={"name": f"{name}-{time.time_ns()}"})
    assert response.status_code == 201, response.get_json()
    return {"Authorization": f"Bearer {response.get_json()['key']}"}


def call(client: FlaskClient, method: str, path: str, headers: dict[str, str] | None = None,
         **kwargs: Any) -> tuple[int, Any]:
    response = client.open(path, method=method, headers=headers or {}, **kwargs)
    check(response, path.split("?")[0], method)  # status and body as the contract says
    return response.status_code, response.get_json()


def test_two_accounts_join_and_are_matched(client: FlaskClient) -> None:
    ada, bob = account(client, "ada"), account(client, "bob")
    body = {"game": "evolution", "players": 2}
    status, first = call(client, "POST", "/v1/me/pool", ada, json=body)
    assert status == 201 and first["status"] == "waiting" and first["match"] is None
    status, again = call(client, "POST", "/v1/me/pool", ada, json={**body, "bot_fill": "easy"})
    assert status == 200 and again["bot_fill"] == "easy"
    _, pools = call(client, "GET", "/v1/pools?game=evolution")
    [mine] = [p for p in pools["pools"] if p["pool"] == first["pool"]]
    assert mine["waiting"] == 1
    answers: list[dict[str, Any]] = []
    waiter = threading.Thread(target=lambda: answers.append(call(
        client.application.test_client(), "GET", "/v1/me/pool?wait=20", ada)[1]))
    started = time.monotonic()
    waiter.start()
    time.sleep(0.5)
    status, second = call(client, "POST", "/v1/me/pool", bob, json=body)
    waiter.join()
    assert status == 201 and second["status"] == "matched"
    assert time.monotonic() - started < 10  # woken by the match, not by the wait's end
    assert answers[0]["status"] == "matched" and answers[0]["match"] == second["match"]
    response = client.get(f"/v1/matches/{second['match']}")
    match = response.get_json()
    assert response.status_code == 200 and match["status"] == "running" and match["rated"]
    status, _ = call(client, "DELETE", "/v1/me/pool", ada)
    assert status == 409
    # Each account is told "match_found" (its stream, its app's webhook: the delivery log).
    for key in (ada, bob):
        found = [d for d in client.get("/v1/me/deliveries", headers=key).get_json()[
            "deliveries"] if d["kind"] == "match_found"]
        assert [d["data"]["match"] for d in found] == [second["match"]]
    # The account learns it as any new seat: its turns list the match when it owes a move.
    keys = {answers[0]["seat"]: ada, second["seat"]: bob}
    for seat, key in keys.items():
        turns = client.get("/v1/me/turns", headers=key).get_json()["turns"]
        owed = [turn["match"] for turn in turns]
        assert owed == ([second["match"]] if seat in match["to_move"] else []), (seat, owed)


def test_one_pool_at_a_time_leave_and_refusals(client: FlaskClient) -> None:
    ada = account(client, "ada")
    assert call(client, "GET", "/v1/me/pool", ada)[0] == 404
    assert call(client, "DELETE", "/v1/me/pool", ada)[0] == 404
    assert call(client, "POST", "/v1/me/pool", ada, json={"game": "savanna", "players": 4}
                )[0] == 201
    assert call(client, "POST", "/v1/me/pool", ada, json={"game": "savanna", "players": 5}
                )[0] == 409
    status, left = call(client, "DELETE", "/v1/me/pool", ada)
    assert status == 200 and left["status"] == "left"
    assert call(client, "GET", "/v1/me/pool", ada)[0] == 404  # left: no ticket any more
    for body in ({"game": "nope", "players": 2}, {"game": "savanna", "players": 9},
                 {"game": "darwinning", "players": 2, "options": {"edition": "0.1"}},
                 {"game": "savanna", "players": 2, "bot_fill": "godlike"},
                 {"game": "savanna"}):
        assert call(client, "POST", "/v1/me/pool", ada, json=body)[0] == 422, body
    assert call(client, "POST", "/v1/me/pool", json={"game": "savanna", "players": 2}
                )[0] == 401
    assert call(client, "GET", "/v1/me/pool?wait=99", ada)[0] == 422


def test_the_time_control_is_part_of_the_pool_and_of_its_matches(client: FlaskClient) -> None:
    turn_based = {"kind": "turn_based", "per_move": 86400}
    ada, bob, cy = account(client, "tc-ada"), account(client, "tc-bob"), account(client, "tc-cy")
    body = {"game": "savanna", "players": 2}
    status, plain = call(client, "POST", "/v1/me/pool", ada, json=body)
    assert status == 201 and "time_control" not in plain
    status, timed = call(client, "POST", "/v1/me/pool", bob,
                         json={**body, "time_control": turn_based})
    # Another pool: the person who chose no clock is not matched with one who did.
    assert status == 201 and timed["status"] == "waiting" and timed["pool"] != plain["pool"]
    assert timed["time_control"] == {**turn_based, "resign_after": 3}
    status, second = call(client, "POST", "/v1/me/pool", cy,
                          json={**body, "time_control": {**turn_based, "resign_after": 3}})
    assert status == 201 and second["status"] == "matched" and second["pool"] == timed["pool"]
    match = client.get(f"/v1/matches/{second['match']}").get_json()
    assert match["time_control"] == {"kind": "turn_based", "per_move": 86400.0,
                                     "resign_after": 3}
    for wrong in ({"kind": "turn_based"}, {"kind": "turn_based", "per_move": 0},
                  {"kind": "realtime", "base": 60, "per_move": 5}, {"kind": "sundial"}):
        status, problem = call(client, "POST", "/v1/me/pool", account(client, "tc-x"),
                               json={**body, "time_control": wrong})
        assert status == 422, (wrong, problem)
