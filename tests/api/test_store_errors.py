"""Store errors told apart, against a real redis-server at its ``maxmemory``: a full store is a
507 with a Retry-After (not "unreachable"), readiness says not ready, reads still answer, and
once space is back the same move is accepted with nothing lost or applied twice."""

from __future__ import annotations

import dataclasses
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from flask.testing import FlaskClient

from api import create_app
from scripts.localredis import free_port, start_redis
from shared.infra.config import Settings


@pytest.fixture
def full_redis(tmp_path: Path) -> Iterator[tuple[str, redis.Redis]]:
    """A redis-server of its own (its memory limit is changed by the test)."""
    port = free_port()
    process = start_redis(tmp_path, port, appendonly=False)
    url = f"redis://127.0.0.1:{port}/0"
    client = redis.Redis.from_url(url, decode_responses=True)
    try:
        yield url, client
    finally:
        client.close()
        process.terminate()
        process.wait(timeout=10)


def test_a_full_store_is_a_507_with_retry_after_and_not_ready(
        full_redis: tuple[str, redis.Redis]) -> None:
    url, admin = full_redis
    settings = dataclasses.replace(Settings.from_env(), redis_url=url, broker_url=url)
    http: FlaskClient = create_app(settings).test_client()
    created = http.post("/v1/matches", json={"game": "savanna", "seed": 3, "seats": [
        {"kind": "human"}, {"kind": "human"}]}).get_json()
    match_id, token = created["id"], created["tokens"][0]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    moves = http.get(f"/v1/matches/{match_id}/moves", headers=auth).get_json()
    body = {"version": moves["version"], "move_id": moves["moves"][0]["id"]}

    admin.config_set("maxmemory", 1)  # every write is now refused with OOM (noeviction)
    refused = http.post(f"/v1/matches/{match_id}/moves", json=body, headers=auth)
    assert refused.status_code == 507
    assert refused.content_type == "application/problem+json"
    assert "out of memory" in refused.get_json()["detail"]
    assert int(refused.headers["Retry-After"]) > 0
    ready = http.get("/readyz")
    assert ready.status_code == 503
    assert ready.get_json()["checks"]["redis"] is True
    assert ready.get_json()["checks"]["redis_writable"] is False
    assert http.get(f"/v1/matches/{match_id}").status_code == 200  # reads still answer
    assert b'evo_store_errors_total{kind="out_of_memory"}' in http.get("/metrics").data

    admin.config_set("maxmemory", 0)
    assert http.get("/readyz").status_code == 200
    accepted = http.post(f"/v1/matches/{match_id}/moves", json=body, headers=auth)
    assert accepted.status_code == 200, accepted.get_json()
    events = http.get(f"/v1/matches/{match_id}/events").get_json()["events"]
    assert [e["version"] for e in events] == [2]  # applied once, after the refusal: none


def test_an_unreachable_store_is_a_503_with_retry_after() -> None:
    settings = dataclasses.replace(Settings.from_env(), redis_url="redis://127.0.0.1:1/0",
                                   broker_url="redis://127.0.0.1:1/0")
    response = create_app(settings).test_client().get("/v1/matches/0123456789abcdef")
    assert response.status_code == 503
    assert "unreachable" in response.get_json()["detail"]
    assert int(response.headers["Retry-After"]) > 0


def test_readiness_answers_within_a_second_while_redis_is_frozen(
        full_redis: tuple[str, redis.Redis]) -> None:
    """A frozen Redis (SIGSTOP: the kernel still accepts connections, nothing replies) made
    /readyz hang (issue 39): now it is a 503 problem within a second, again and again (no
    probe is left holding anything), /healthz does not ask Redis at all, and once Redis
    thaws the service is ready again."""
    url, admin = full_redis
    settings = dataclasses.replace(Settings.from_env(), redis_url=url, broker_url=url)
    http: FlaskClient = create_app(settings).test_client()
    assert http.get("/readyz").status_code == 200  # its clients connected before the freeze
    pid = int(admin.info("server")["process_id"])
    os.kill(pid, signal.SIGSTOP)
    # Thawed after 5 s whatever happens, so a probe that hangs fails this test, not the run.
    thaw = threading.Timer(5.0, os.kill, (pid, signal.SIGCONT))
    thaw.start()
    try:
        for _ in range(3):
            started = time.monotonic()
            ready = http.get("/readyz")
            took = time.monotonic() - started
            assert ready.status_code == 503 and took < 1.0, took
            assert ready.content_type == "application/problem+json"
            assert ready.get_json()["checks"] == {"redis": False, "redis_writable": False,
                                                  "broker": False}
        started = time.monotonic()
        assert http.get("/healthz").status_code == 200
        assert time.monotonic() - started < 0.5
    finally:
        thaw.cancel()
        os.kill(pid, signal.SIGCONT)
    deadline = time.monotonic() + 10
    while http.get("/readyz").status_code != 200:
        assert time.monotonic() < deadline, "not ready again after Redis thawed"
        time.sleep(0.1)
