"""Tournaments through the HTTP routes (issue 39): ``GET /v1/tournaments`` (newest first,
filters, pages), the per-client cap on running tournaments (429 with ``Retry-After``) and the
bounds on a tournament's search (422). No worker runs: created tournaments stay running."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from api import create_app
from shared.infra.config import Settings
from shared.tournaments.limits import seat_cost
from tests.api.test_errors import assert_problem
from tests.api.test_openapi import check

LIST = "/v1/tournaments"
TWO = [{"bot": {"kind": "random"}}, {"bot": {"kind": "greedy"}}]


def body(**extra: Any) -> dict[str, Any]:
    return {"game": "savanna", "format": "round_robin", "entrants": TWO, **extra}


def create(client: FlaskClient, address: str = "192.0.2.1", **extra: Any) -> Any:
    return client.post(LIST, json=body(**extra), environ_base={"REMOTE_ADDR": address})


def test_the_listing_is_newest_first_filtered_and_paged(client: FlaskClient,
                                                        redis_client: redis.Redis) -> None:
    ids = [check(create(client, name=f"t{i}"), LIST, "POST")["id"] for i in range(5)]
    evolution = check(create(client, game="evolution"), LIST, "POST")["id"]
    cancelled = client.post(f"{LIST}/{ids[1]}/cancel", headers={
        "Authorization": "Bearer x"})
    assert cancelled.status_code == 403  # not its owner: nothing changes

    everything = check(client.get(LIST), LIST, "GET")
    assert [t["id"] for t in everything["tournaments"]] == [evolution, *reversed(ids)]
    assert everything["next"] is None
    first = everything["tournaments"][1]
    assert first["name"] == "t4" and first["status"] == "running" and first["entrants"] == 2
    assert first["game"] == "savanna" and first["total"] == 2 and first["seeded"] is False

    savanna = check(client.get(f"{LIST}?game=savanna&limit=2"), LIST, "GET")
    assert [t["id"] for t in savanna["tournaments"]] == [ids[4], ids[3]]
    rest = check(client.get(f"{LIST}?game=savanna&limit=2&before={savanna['next']}"),
                 LIST, "GET")
    assert [t["id"] for t in rest["tournaments"]] == [ids[2], ids[1]]
    last = check(client.get(f"{LIST}?game=savanna&limit=2&before={rest['next']}"), LIST, "GET")
    assert [t["id"] for t in last["tournaments"]] == [ids[0]] and last["next"] is None
    assert check(client.get(f"{LIST}?status=finished"), LIST, "GET") == {
        "tournaments": [], "next": None}

    for query in ("status=over", "limit=0", "limit=101", "before=-1", "nope=1"):
        refused = client.get(f"{LIST}?{query}")
        assert refused.status_code == 422, query
        check(refused, LIST, "GET")
    twice = client.get(f"{LIST}?limit=1&limit=2")
    assert twice.status_code == 400
    check(twice, LIST, "GET")


@pytest.fixture
def capped(redis_url: str, redis_client: redis.Redis) -> FlaskClient:
    settings = dataclasses.replace(
        Settings.from_env(), redis_url=redis_url, broker_url=redis_url,
        tournaments_per_minute=0, tournaments_per_client=2,
        max_tournament_simulations=1_000_000)
    app: Flask = create_app(settings)
    return app.test_client()


def test_running_tournaments_are_capped_per_client_address(capped: FlaskClient) -> None:
    made = [create(capped, "192.0.2.5") for _ in range(2)]
    assert [m.status_code for m in made] == [201, 201]
    over = create(capped, "192.0.2.5")
    problem = assert_problem(over, 429, mentions="running tournaments")
    assert over.headers["Retry-After"] == "60" and problem["retry_after"] == 60
    check(over, LIST, "POST")
    assert create(capped, "192.0.2.6").status_code == 201  # per address
    # One of them ends (cancelled by its owner): that address may start another.
    first = made[0].get_json()
    cancel = capped.post(f"{LIST}/{first['id']}/cancel",
                         headers={"Authorization": f"Bearer {first['owner_token']}"})
    assert cancel.status_code == 200
    assert create(capped, "192.0.2.5").status_code == 201
    assert create(capped, "192.0.2.5").status_code == 429
    # A refused tournament took no place: the listing shows the four made.
    assert len(check(capped.get(LIST), LIST, "GET")["tournaments"]) == 4


def test_a_search_budget_over_the_bounds_is_refused(client: FlaskClient,
                                                    capped: FlaskClient) -> None:
    # The case: 64 bots at 20,000 simulations, 32 matches at once.
    heavy = [{"bot": {"kind": "ismcts", "simulations": 20_000}}] * 64
    refused = client.post(LIST, json={"game": "savanna", "format": "swiss", "rounds": 6,
                                      "concurrency": 32, "entrants": heavy})
    problem = assert_problem(refused, 422, mentions="simulations at a time")
    assert problem["field"] == "concurrency" and "1,280,000" in problem["detail"]
    check(refused, LIST, "POST")
    # The same at 16 matches at once fits the default bound (640,000 in flight).
    fits = client.post(LIST, json={"game": "savanna", "format": "swiss", "rounds": 6,
                                   "concurrency": 16, "entrants": heavy})
    assert fits.status_code == 201, fits.get_json()
    # Timed bots count at a custom budget's rate: 60 s a move is 10,000 simulations.
    assert seat_cost({"kind": "bot", "bot": {"kind": "ismcts", "level": "timed",
                                             "seconds": 60.0}}) == 10_000
    assert seat_cost({"kind": "bot", "bot": {"kind": "ismcts", "level": "easy"}}) == 100
    assert seat_cost({"kind": "account", "account": "a1"}) == 0

    # In total (this app: 1,000,000): 8 `hard` bots in a round robin plan 56 matches,
    # 56 x 2 x 10,000 = 1,120,000 simulations for one move of every seat.
    hard = [{"bot": {"kind": "ismcts", "level": "hard"}}] * 8
    total = capped.post(LIST, json=body(entrants=hard, concurrency=1),
                        environ_base={"REMOTE_ADDR": "192.0.2.20"})
    problem = assert_problem(total, 422, mentions="one move of every seat")
    assert problem["field"] == "entrants" and "1,120,000" in problem["detail"]
    seven = capped.post(LIST, json=body(entrants=hard[:7], concurrency=1),
                        environ_base={"REMOTE_ADDR": "192.0.2.20"})
    assert seven.status_code == 201  # 42 x 2 x 10,000 = 840,000
    cheap = capped.post(LIST, json=body(entrants=TWO * 30, concurrency=32),
                        environ_base={"REMOTE_ADDR": "192.0.2.21"})
    assert cheap.status_code == 201  # random and greedy search nothing
