"""shared.infra.notifier on a real Redis: hundreds of waiters share one subscription, all wake on a
change, and a change made while the hub's connection is down is not missed."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator

import pytest
import redis

from scripts.localredis import free_port
from shared.infra.notifier import Hub

WAITERS = 300


@pytest.fixture
def client(redis_client: redis.Redis, redis_url: str) -> Iterator[redis.Redis]:
    """A client whose pool lets every waiter thread read at once (as the API's does)."""
    pooled = redis.Redis.from_url(redis_url, decode_responses=True, max_connections=1000)
    yield pooled
    pooled.close()


@pytest.fixture
def hub(client: redis.Redis) -> Iterator[Hub]:
    running = Hub(client)
    yield running
    running.stop()


def start_waiters(hub: Hub, client: redis.Redis, channel: str, key: str, count: int,
                  timeout: float = 30) -> tuple[list[threading.Thread], list[str | None]]:
    woke: list[str | None] = []

    def wait() -> None:
        woke.append(hub.wait_on([channel], lambda: client.get(key), "1", timeout))

    threads = [threading.Thread(target=wait, daemon=True) for _ in range(count)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 20
    while hub.waiting() < count or channel not in hub.subscribed_channels():
        assert time.monotonic() < deadline, (hub.waiting(), hub.subscribed_channels())
        time.sleep(0.02)
    return threads, woke


def change(client: redis.Redis, channel: str, key: str) -> None:
    client.set(key, "2")
    client.publish(channel, "2")


def join_all(threads: list[threading.Thread], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    for thread in threads:
        thread.join(timeout=max(0.0, deadline - time.monotonic()))


def test_hundreds_of_waiters_share_one_subscription_and_all_wake(
        hub: Hub, client: redis.Redis) -> None:
    redis_client = client
    channel, key = f"evo:test:{uuid.uuid4().hex}:chg", f"evo:test:{uuid.uuid4().hex}"
    redis_client.set(key, "1")
    subscribed_before = sum(c["sub"] != "0" for c in redis_client.client_list())
    threads, woke = start_waiters(hub, redis_client, channel, key, WAITERS)
    assert dict(redis_client.pubsub_numsub(channel))[channel] == 1
    subscribed = sum(c["sub"] != "0" for c in redis_client.client_list())
    assert subscribed - subscribed_before == 1  # one connection for all 300
    started = time.monotonic()
    change(redis_client, channel, key)
    join_all(threads, 10)
    assert woke == ["2"] * WAITERS
    assert time.monotonic() - started < 10
    # The last waiter gone, its channel is dropped.
    deadline = time.monotonic() + 5
    while dict(redis_client.pubsub_numsub(channel))[channel] != 0:
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_a_change_while_the_connection_is_down_is_not_missed(
        hub: Hub, client: redis.Redis) -> None:
    """The hub's connection is killed and the change published before it can subscribe
    again: the waiters, subscribed and asleep for 30 s, must still wake and see it."""
    redis_client = client
    channel, key = f"evo:test:{uuid.uuid4().hex}:chg", f"evo:test:{uuid.uuid4().hex}"
    redis_client.set(key, "1")
    threads, woke = start_waiters(hub, redis_client, channel, key, 50)
    local = hub._pubsub.connection._sock.getsockname()  # its connection
    killed = redis_client.client_kill_filter(_type="pubsub",
                                             addr=f"{local[0]}:{local[1]}")
    change(redis_client, channel, key)  # nobody hears this one
    assert killed == 1
    join_all(threads, 10)
    assert woke == ["2"] * 50
    assert hub.reconnects >= 1


@pytest.mark.slow  # waits out real TTLs or deadlines (in `make test`, not test-fast)
def test_waiters_re_read_once_a_second_while_the_hub_cannot_subscribe(
        redis_client: redis.Redis) -> None:
    """A hub whose Redis is away (nothing listens on its port) confirms no subscription; its
    waiter still sees a change, never announced, within about a second."""
    away = redis.Redis(port=free_port(), socket_connect_timeout=0.2)
    unsubscribed = Hub(away)
    key = f"evo:test:{uuid.uuid4().hex}"
    redis_client.set(key, "1")
    result: list[str | None] = []
    thread = threading.Thread(target=lambda: result.append(
        unsubscribed.wait_on(["evo:test:none"], lambda: redis_client.get(key), "1", 30)))
    try:
        thread.start()
        time.sleep(0.3)
        redis_client.set(key, "2")  # never published
        thread.join(timeout=5)
        assert result == ["2"]
    finally:
        unsubscribed.stop()
        away.close()
