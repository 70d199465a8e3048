"""RabbitMQ as the broker, for real: a local RabbitMQ node (Debian's ``rabbitmq-server``,
``scripts/localrabbit.py``), the API under gunicorn and a Celery worker with
``BROKER_URL=amqp://…``, the match store on Redis. Bot turns travel over AMQP in a quorum
queue, a hint's task too (its answer comes back through the match store, so no result
backend is needed), and a bot turn outlives a SIGKILLed worker in RabbitMQ's queue until a
new worker plays it."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import kombu
import pytest
import redis

from scripts.localrabbit import LocalRabbit, installed, start_rabbitmq
from shared.infra.queue import BOT_QUEUE, BOT_TURN_TASK
from tests.api.test_openapi import component
from tests.integration.conftest import Client, Worker, running_api, stack_env
from tests.integration.test_hints_http import ask_hint
from tests.integration.test_matches_http import play_human_until_over

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("rabbitmq")]


@dataclass
class RabbitStack:
    rabbit: LocalRabbit
    store: redis.Redis
    worker: Worker
    client: Client


@pytest.fixture(scope="module")
def rabbit_stack(redis_url: str, tmp_path_factory: pytest.TempPathFactory,
                 compiled_build: Path) -> Iterator[RabbitStack]:
    if not installed():
        pytest.fail("rabbitmq-server is needed: run `make test` (scripts/install_rabbitmq.sh)")
    rabbit = start_rabbitmq(tmp_path_factory.mktemp("rabbitmq"))
    # Its own store database: the Redis-broker stack's sweeps (database 1) never see these
    # matches, and this stack's never see theirs.
    store_url = redis_url[:-1] + "3"
    store = redis.Redis.from_url(store_url, decode_responses=True)
    store.flushdb()
    worker = Worker(store_url, tmp_path_factory.mktemp("rabbit-worker"),
                    broker_url=rabbit.url)
    try:
        worker.start()
        with running_api(stack_env(store_url, rabbit.url),
                         tmp_path_factory.mktemp("rabbit-api")) as url, Client(url) as client:
            yield RabbitStack(rabbit, store, worker, client)
    finally:
        worker.stop()
        store.close()
        rabbit.stop()


def queued_tasks(rabbit: LocalRabbit) -> list[tuple[str, list[Any]]]:
    """The tasks waiting in the bot queue on RabbitMQ, as (task name, args): read without
    acknowledging, so closing the channel puts every one back."""
    tasks = []
    with kombu.Connection(rabbit.url) as connection:
        channel = connection.channel()
        queue = kombu.Queue(BOT_QUEUE)(channel)
        while (message := queue.get(no_ack=False)) is not None:
            args, _, _ = message.decode()
            tasks.append((message.headers["task"], args))
        channel.close()
    return tasks


def test_a_person_and_two_bots_play_to_the_end_over_amqp(rabbit_stack: RabbitStack) -> None:
    client = rabbit_stack.client
    assert client.call("GET", "/readyz").status_code == 200  # the API reaches RabbitMQ
    created = client.create({"game": "savanna", "seed": 31, "seats": [
        {"kind": "human"}, {"kind": "bot", "bot": {"kind": "random"}},
        {"kind": "bot", "bot": {"kind": "greedy"}}]})
    final = play_human_until_over(client, created["id"], created["tokens"][0]["token"], 0,
                                  random.Random(3))
    assert final["result"]["winners"] and len(final["result"]["scores"]) == 3
    events = client.call("GET", f"/v1/matches/{created['id']}/events").json()["events"]
    assert [e["version"] for e in events] == list(range(2, final["version"] + 1))
    assert sum(e.get("seat") in (1, 2) and "move" in e for e in events) == 80  # the bots'
    # The tasks went over AMQP: nothing of Celery's Redis transport is in the store.
    assert not rabbit_stack.store.keys("_kombu*") and not rabbit_stack.store.exists(BOT_QUEUE)
    with kombu.Connection(rabbit_stack.rabbit.url) as connection:
        channel = connection.channel()
        declared = channel.queue_declare(BOT_QUEUE, passive=True)
        assert declared.consumer_count == 1  # the worker, on RabbitMQ
        # A quorum queue (shared.infra.queue.celery_config): declaring it as one again is accepted;
        # RabbitMQ refuses it (406 PRECONDITION_FAILED) were it a classic queue.
        channel.queue_declare(BOT_QUEUE, durable=True, auto_delete=False,
                              arguments={"x-queue-type": "quorum"})


def test_hints_come_back_with_an_amqp_broker(rabbit_stack: RabbitStack) -> None:
    """Three people ask at once (three greenlets of the same API processes, the tasks sent
    over AMQP, the answers waited for in the match store): each gets the answer to their own
    question."""
    client = rabbit_stack.client
    asks = []
    for seed in (41, 42, 43):
        created = client.create({"game": "evolution", "seed": seed, "seats": [
            {"kind": "human"}, {"kind": "human"}]})
        tokens = [t["token"] for t in created["tokens"]]
        match = client.match(created["id"], tokens[0])
        owing = match["to_move"][0]
        asks.append((created["id"], tokens[owing], owing, match["version"]))
    answers: dict[str, Any] = {}

    def ask(match_id: str, token: str) -> None:
        with Client(client.base) as own:  # 202s: both pool processes were busy
            answers[match_id] = ask_hint(own, f"/v1/matches/{match_id}/hint", token)

    threads = [threading.Thread(target=ask, args=(match_id, token))
               for match_id, token, _, _ in asks]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    for match_id, token, seat, version in asks:
        response = answers[match_id]
        assert response.status_code == 200, response.text
        hint = response.json()
        assert component("Hint").is_valid(hint), hint
        assert hint["seat"] == seat and hint["version"] == version
        legal = client.call("GET", f"/v1/matches/{match_id}/moves", token).json()
        assert hint["move_id"] in {move["id"] for move in legal["moves"]}
        played = client.call("POST", f"/v1/matches/{match_id}/moves", token,
                             json={"version": hint["version"], "move_id": hint["move_id"]})
        assert played.status_code == 200, played.text


def test_a_bot_turn_waits_in_rabbitmq_while_no_worker_runs(rabbit_stack: RabbitStack
                                                           ) -> None:
    """The Redis-broker test's worker crash (test_matches_http), on RabbitMQ: the worker is
    SIGKILLed mid-match; the turn it held (acknowledged late) or the next one it had sent
    is back in RabbitMQ's queue, nobody plays until a worker starts, then the match ends with
    an unbroken log."""
    client, worker = rabbit_stack.client, rabbit_stack.worker
    created = client.create({"game": "savanna", "seed": 33, "seats": [
        {"kind": "bot", "bot": {"kind": "greedy"}} for _ in range(4)]})
    match_id = created["id"]
    match = client.match(match_id)
    while match["version"] < 6:
        match = client.match(match_id, version=match["version"], wait=10)
    worker.kill()
    time.sleep(1.5)
    stalled = client.match(match_id)
    assert stalled["status"] == "running", "the match ended before the worker was killed"
    waiting = queued_tasks(rabbit_stack.rabbit)
    assert any(name == BOT_TURN_TASK and args[0] == match_id for name, args in waiting), \
        waiting
    time.sleep(1)
    assert client.match(match_id)["version"] == stalled["version"]  # nobody plays
    worker.start()
    final = client.wait_finished(match_id, timeout=120)
    events = client.call("GET", f"/v1/matches/{match_id}/events").json()["events"]
    assert [e["version"] for e in events] == list(range(2, final["version"] + 1))
    assert all(len(final["view"]["savannas"][s]) == 20 for s in range(4))
