"""One client's flood of bot work leaves another client's bot replies as quick (issue 18).

Two clients on two loopback addresses against an API with the default cap of bot seats
(``BOT_SEATS_PER_CLIENT`` 8) and the session's real worker (two pool processes). Client A asks
for four 8-bot Evolution matches with a heavy search budget: one is admitted, three are 429s.
Client B's random-bot reply latency is measured before and while A's match runs; without the
cap A's four matches would hold both pool processes for seconds a move.
"""

from __future__ import annotations

import http.client
import json
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from scripts.localredis import free_port
from scripts.stack import start_api, wait_healthy
from shared.matches.store import MatchStore
from shared.services import match_service
from tests.integration.conftest import Worker, stack_env, stop_api

pytestmark = pytest.mark.xdist_group("flood")
HEAVY = {"kind": "ismcts", "simulations": 1500}


@pytest.fixture(scope="module")
def capped_api(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    env = stack_env(redis_url)
    env.update(BOT_SEATS_PER_CLIENT="8")
    port = free_port()
    log = open(tmp_path_factory.mktemp("flood-api") / "gunicorn.log", "wb")  # noqa: SIM115
    process = start_api(env, f"127.0.0.1:{port}", log, workers=2)
    try:
        wait_healthy(f"http://127.0.0.1:{port}", process)
        yield port
    finally:
        stop_api(process)
        log.close()


def call(port: int, source: str, method: str, path: str, body: Any = None,
         token: str | None = None) -> tuple[int, Any]:
    """One request from the loopback address ``source`` (the API sees it as the client)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=70,
                                            source_address=(source, 0))
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    connection.request(method, path, json.dumps(body) if body is not None else None, headers)
    response = connection.getresponse()
    status, data = response.status, json.loads(response.read() or b"null")
    connection.close()
    return status, data


def bot_reply_latencies(port: int, source: str, samples: int) -> list[float]:
    """Seconds from B's accepted move to its random bot's answer, ``samples`` times."""
    status, match = call(port, source, "POST", "/v1/matches", {
        "game": "evolution", "seats": [{"kind": "human"},
                                       {"kind": "bot", "bot": {"kind": "random"}}]})
    assert status == 201, match
    match_id, token = match["id"], match["tokens"][0]["token"]
    latencies: list[float] = []
    while len(latencies) < samples:
        status, read = call(port, source, "GET", f"/v1/matches/{match_id}", token=token)
        assert read["status"] == "running", read["status"]
        if 0 not in read["to_move"]:  # the bot owes: wait for it (not a measured reply)
            call(port, source, "GET", f"/v1/matches/{match_id}?version={read['version']}"
                 "&wait=20", token=token)
            continue
        _, moves = call(port, source, "GET", f"/v1/matches/{match_id}/moves", token=token)
        status, answer = call(port, source, "POST", f"/v1/matches/{match_id}/moves", {
            "version": read["version"], "move_id": moves["moves"][0]["id"]}, token)
        assert status == 200, answer
        version = answer["version"]
        if 1 in answer["to_move"]:
            started = time.monotonic()
            _, after = call(port, source, "GET",
                            f"/v1/matches/{match_id}?version={version}&wait=60", token=token)
            assert after["version"] > version
            latencies.append(time.monotonic() - started)
            version = after["version"]
    return latencies


def test_a_flood_leaves_another_clients_bot_latency_unchanged(
        capped_api: int, worker: Worker, redis_url: str, tmp_path: Path) -> None:
    before = bot_reply_latencies(capped_api, "127.0.0.3", 5)
    flood = {"game": "evolution", "seats": [{"kind": "bot", "bot": HEAVY}] * 8}
    answers = [call(capped_api, "127.0.0.2", "POST", "/v1/matches", flood) for _ in range(4)]
    assert [status for status, _ in answers] == [201, 429, 429, 429]
    flood_id = answers[0][1]["id"]
    try:
        time.sleep(1.0)  # A's first search is running
        during = bot_reply_latencies(capped_api, "127.0.0.3", 5)
        _, flooded = call(capped_api, "127.0.0.2", "GET", f"/v1/matches/{flood_id}")
        assert flooded["status"] == "running"
    finally:
        client = redis.Redis.from_url(redis_url, decode_responses=True)
        match_service(MatchStore(client), lambda *_: None).abort(flood_id, "test over")
        client.close()
    # A heavy search holds one pool process for seconds a move; B's replies do not wait for
    # it (the other process is free), so they stay within a fraction of a second of before.
    assert statistics.median(during) < statistics.median(before) + 1.0, (before, during)
    assert max(during) < 3.0, (before, during)
