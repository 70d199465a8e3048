"""Faults under ``make run``'s supervisor (real processes: Redis, gunicorn, two Celery workers
of people's matches, beat): a SIGKILLed Celery worker, Redis SIGKILLed and restarted, Redis at
``maxmemory``, a SIGKILLed gunicorn worker. Each ends with every match finished and every
move the API accepted in its log, once. Also: exactly one beat with two workers, and
identical keyed POSTs at once never told "stale"."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator

import pytest
import redis
import requests

from shared.infra.stats import STATS_KEY
from tests.integration.conftest import Client
from tests.integration.faults import (
    RunStack,
    assert_intact,
    children_of,
    group_alive,
    new_human_match,
    start_run_stack,
)

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("faults")]


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunStack]:
    running = start_run_stack(tmp_path_factory.mktemp("run"))
    try:
        yield running
    finally:
        running.stop()
        assert not group_alive(running.process.pid)


@pytest.fixture
def client(stack: RunStack) -> Iterator[Client]:
    # Closed after each test: the last test's client would otherwise still hold a kept-alive
    # connection when the module's stack stops, and gunicorn's graceful stop waits 10 s on it.
    with Client(stack.base) as opened:
        yield opened


def bot_match(client: Client, seed: int) -> str:
    return client.create({"game": "savanna", "seed": seed, "seats": [
        {"kind": "bot", "bot": {"kind": "greedy"}} for _ in range(3)]})["id"]


def finish_all(client: Client, players: list, threads: list[threading.Thread],
               bots: list[str]) -> None:
    for thread in threads:
        thread.join(timeout=180)
    # A pooled keep-alive connection may still point at a killed process: reconnect, as any
    # client does after a reset.
    client.http.close()
    for player in players:
        assert_intact(client, player)
    for match_id in bots:
        final = client.wait_finished(match_id, timeout=120)
        log = client.call("GET", f"/v1/matches/{match_id}/events").json()["events"]
        assert [e["version"] for e in log] == list(range(2, final["version"] + 1))


def test_a_killed_celery_worker_comes_back_by_itself(stack: RunStack, client: Client) -> None:
    players = [new_human_match(client, seed) for seed in (101, 102)]
    bots = [bot_match(client, seed) for seed in (103, 104)]
    threads = [p.start() for p in players]
    time.sleep(2)
    for name in ("worker-0", "worker-1"):
        old = stack.pid(name)
        os.kill(old, signal.SIGKILL)  # the main process only: its pool child is orphaned
        stack.wait_restarted(name, old)
        assert not group_alive(old)  # the supervisor killed what was left of its group
    finish_all(client, players, threads, bots)
    assert stack.children()["worker-0"]["restarts"] >= 1


def test_redis_killed_and_restarted(stack: RunStack, client: Client) -> None:
    players = [new_human_match(client, seed) for seed in (201, 202)]
    bots = [bot_match(client, 203)]
    threads = [p.start() for p in players]
    time.sleep(2)
    old = stack.pid("redis")
    os.kill(old, signal.SIGKILL)
    stack.wait_restarted("redis", old)  # the same data directory: the AOF is replayed
    finish_all(client, players, threads, bots)


def test_redis_at_maxmemory_then_freed(stack: RunStack, client: Client) -> None:
    players = [new_human_match(client, seed) for seed in (301, 302)]
    bots = [bot_match(client, 303)]
    threads = [p.start() for p in players]
    time.sleep(1.5)
    workers = {name: stack.pid(name) for name in stack.children() if "worker" in name}
    restarts = {name: stack.children()[name]["restarts"] for name in workers}
    admin = redis.Redis.from_url(stack.redis_url)
    try:
        admin.config_set("maxmemory", 1)  # full: every write is refused
        time.sleep(1)
        ready = requests.get(f"{stack.base}/readyz", timeout=5)
        assert ready.status_code == 503 and ready.json()["checks"]["redis_writable"] is False
        created = requests.post(f"{stack.base}/v1/matches", timeout=5, json={
            "game": "savanna", "seats": [{"kind": "human"}] * 2})
        assert created.status_code == 507 and "out of memory" in created.json()["detail"]
        assert int(created.headers["Retry-After"]) > 0
        time.sleep(4)
    finally:
        admin.config_set("maxmemory", 0)
        admin.close()
    finish_all(client, players, threads, bots)
    assert requests.get(f"{stack.base}/readyz", timeout=5).status_code == 200
    # The workers rode it out: the same processes, never restarted by the supervisor...
    assert {name: stack.pid(name) for name in workers} == workers
    assert {name: stack.children()[name]["restarts"] for name in workers} == restarts
    # A consumer that meets the full store (acknowledging a task that ended meanwhile) now
    # restarts itself; without broker_channel_error_retry Celery logs this and exits.
    log = (stack.var / "run.log").read_text(errors="replace")
    assert "Unrecoverable error" not in log


def test_a_killed_gunicorn_worker(stack: RunStack, client: Client) -> None:
    players = [new_human_match(client, seed) for seed in (401, 402)]
    threads = [p.start() for p in players]
    time.sleep(2)
    master = stack.pid("api")
    workers = children_of(master)
    assert len(workers) == 2
    os.kill(workers[0], signal.SIGKILL)
    finish_all(client, players, threads, [])
    assert requests.get(f"{stack.base}/healthz", timeout=5).status_code == 200
    deadline = time.monotonic() + 20  # the master replaces it (a busy machine boots it slowly)
    while len(children_of(master)) != 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert len(children_of(master)) == 2


def test_one_beat_with_two_workers(stack: RunStack) -> None:
    """The deadline sweep is due every second: two schedulers would send it twice as often."""
    children = stack.children()
    assert sum(name.startswith("worker-") for name in children) == 2
    assert sum(name == "beat" for name in children) == 1
    store = redis.Redis.from_url(stack.redis_url, decode_responses=True)
    try:
        before = int(store.hget(STATS_KEY, "sweeps_deadlines") or 0)
        time.sleep(8)
        ran = int(store.hget(STATS_KEY, "sweeps_deadlines") or 0) - before
    finally:
        store.close()
    assert 5 <= ran <= 11, ran


def test_identical_keyed_posts_at_once_never_get_stale(client: Client) -> None:
    created = client.create({"game": "savanna", "seed": 7, "seats": [{"kind": "human"}] * 2})
    token = created["tokens"][0]["token"]
    for burst in range(8):
        moves = client.call("GET", f"/v1/matches/{created['id']}/moves", token).json()
        body = {"version": moves["version"], "move_id": moves["moves"][0]["id"]}
        answers = burst_posts(client, created["id"], token, body, f"http-burst-{burst}")
        assert [a.status_code for a in answers] == [200] * len(answers), \
            [a.text for a in answers if a.status_code != 200]
        assert all(a.json() == answers[0].json() for a in answers)
        # Seat 1 moves too, so the next burst finds seat 0 to move again.
        other = client.call("GET", f"/v1/matches/{created['id']}/moves",
                            created["tokens"][1]["token"]).json()
        if other["moves"]:
            client.call("POST", f"/v1/matches/{created['id']}/moves",
                        created["tokens"][1]["token"],
                        json={"version": other["version"], "move_id": other["moves"][0]["id"]})
    log = client.call("GET", f"/v1/matches/{created['id']}/events", token).json()["events"]
    assert sum(e.get("seat") == 0 for e in log) == 8  # each burst applied once


def burst_posts(client: Client, match_id: str, token: str, body: dict, key: str,
                copies: int = 6) -> list[requests.Response]:
    barrier = threading.Barrier(copies)
    answers: list[requests.Response] = []

    def post() -> None:
        session = requests.Session()
        barrier.wait()
        answers.append(session.post(f"{client.base}/v1/matches/{match_id}/moves", json=body,
                                    headers={"Authorization": f"Bearer {token}",
                                             "Idempotency-Key": key}, timeout=30))

    threads = [threading.Thread(target=post) for _ in range(copies)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers
