"""The analysis route without a worker: refused where a replay is (unknown, running,
sealed), a 202 that queues one task on the tournament queue however often it is asked, and
the kept analysis once a worker's side (``ReplayService.compute``) has run."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from shared.infra.queue import ANALYSIS_TASK, TOURNAMENT_QUEUE
from shared.kernel.budget import SearchBudget
from shared.replays.service import ReplayService
from tests.api.test_openapi import check
from tests.api.test_replays import play_out

ANALYSIS = "/v1/matches/{match_id}/analysis"


@pytest.fixture
def broker(redis_url: str) -> Iterator[redis.Redis]:
    """The test app's broker (its own Redis): the tournament queue's messages are read here."""
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    try:
        yield client
    finally:
        client.close()


def queued_analyses(broker: redis.Redis, match_id: str) -> int:
    bodies = [json.loads(m) for m in broker.lrange(TOURNAMENT_QUEUE, 0, -1)]
    return sum(1 for m in bodies if m["headers"]["task"] == ANALYSIS_TASK
               and m["headers"]["argsrepr"].startswith(f"['{match_id}'"))


def ask(client: FlaskClient, match_id: str, **params: object) -> tuple[object, int]:
    response = client.get(ANALYSIS.format(match_id=match_id), query_string=params)
    return check(response, ANALYSIS, "GET"), response.status_code


def test_refused_where_a_replay_is(app: Flask, client: FlaskClient) -> None:
    assert ask(client, "0" * 16, seat=0)[1] == 404
    running = client.post("/v1/matches", json={"game": "savanna", "seats": [
        {"kind": "human"}, {"kind": "human"}]}).get_json()
    assert ask(client, running["id"], seat=0)[1] == 409
    assert ask(client, running["id"])[1] == 422  # the seat is required
    service = app.extensions["evo.service"]
    record, _ = service.create_match("savanna", None, None, [
        {"kind": "human"}, {"kind": "human"}], sealed=True)
    while record.status == "running":
        seat = record.to_move[0]
        service.submit_move(record.id, seat, record.version,
                            service.legal_moves(record, seat)[0]["move"])
        record = service.load(record.id)
    body, status = ask(client, record.id, seat=0)
    assert status == 409 and body["sealed"] is True  # type: ignore[index]


def test_asked_twice_it_queues_one_task_then_serves_the_kept_analysis(
        app: Flask, client: FlaskClient, broker: redis.Redis) -> None:
    match_id, _ = play_out(client, "savanna", 31)
    assert ask(client, match_id, seat=2)[1] == 422  # no such seat
    first, status = ask(client, match_id, seat=1)
    assert status == 202 and first["status"] == "computing"  # type: ignore[index]
    assert ask(client, match_id, seat=1)[1] == 202
    assert queued_analyses(broker, match_id) == 1  # one search however often asked
    replays: ReplayService = app.extensions["evo.replays"]
    # What the worker's task runs, with a small budget (the app's is the default 300).
    worker_side = ReplayService(replays.matches, replays.store, replays.send,
                                SearchBudget(simulations=20, time_cap=5.0))
    computed = worker_side.compute(match_id, 1)
    done, status = ask(client, match_id, seat=1)
    assert status == 200 and done == {"id": match_id, **computed}
    assert queued_analyses(broker, match_id) == 1
