"""Watchers cost no subscription each: hundreds of long-polls and event streams on one API
process (gunicorn, one gevent worker) share one Redis pub/sub connection, and every one of
them wakes on a move."""

from __future__ import annotations

import json
import selectors
import socket
import time
from collections.abc import Callable, Iterator

import pytest
import redis

from shared.matches.store import MatchStore
from tests.integration.conftest import Client, running_api, stack_env

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("integration")]

LONG_POLLS, STREAMS = 300, 100


@pytest.fixture(scope="module")
def one_process_api(redis_url: str, tmp_path_factory: pytest.TempPathFactory
                    ) -> Iterator[str]:
    with running_api(stack_env(redis_url), tmp_path_factory.mktemp("api1"), workers=1) as url:
        yield url


def subscribed_connections(store: redis.Redis) -> int:
    return sum(c["sub"] != "0" for c in store.client_list())


def read_until(sockets: list[socket.socket], done: Callable[[bytes], bool], seconds: float
               ) -> dict[socket.socket, bytes]:
    """Read every socket until ``done(bytes)`` holds for it; returns socket -> bytes read."""
    got = {sock: b"" for sock in sockets}
    selector = selectors.DefaultSelector()
    for sock in sockets:
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)
    deadline = time.monotonic() + seconds
    pending = set(sockets)
    while pending and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=0.5):
            sock = key.fileobj
            assert isinstance(sock, socket.socket)
            chunk = sock.recv(65536)
            got[sock] += chunk
            if not chunk or done(got[sock]):
                selector.unregister(sock)
                pending.discard(sock)
    selector.close()
    return got


def long_poll_version(raw: bytes) -> int | None:
    head, _, body = raw.partition(b"\r\n\r\n")
    length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                   if line.lower().startswith(b"content-length:")), None)
    if length is None or len(body) < length:
        return None
    return int(json.loads(body[:length])["version"])


def test_hundreds_of_watchers_share_one_subscription_and_all_wake(
        one_process_api: str, redis_url: str) -> None:
    client = Client(one_process_api)
    host, port = "127.0.0.1", int(one_process_api.rsplit(":", 1)[1])
    match = client.create({"game": "savanna", "seats": [{"kind": "human"}] * 2})
    match_id, version = match["id"], match["version"]
    poll = (f"GET /v1/matches/{match_id}?version={version}&wait=30 HTTP/1.1\r\n"
            f"Host: {host}\r\n\r\n").encode()
    stream = (f"GET /v1/matches/{match_id}/stream HTTP/1.1\r\nHost: {host}\r\n"
              "Accept: text/event-stream\r\n\r\n").encode()
    store = redis.Redis.from_url(redis_url, decode_responses=True)
    channel = MatchStore.channel(match_id)
    polls: list[socket.socket] = []
    streams: list[socket.socket] = []
    try:
        before = subscribed_connections(store)
        for _ in range(LONG_POLLS):
            polls.append(socket.create_connection((host, port), timeout=10))
            polls[-1].sendall(poll)
        for _ in range(STREAMS):
            streams.append(socket.create_connection((host, port), timeout=10))
            streams[-1].sendall(stream)
        deadline = time.monotonic() + 30
        while (waiting := client.waiting_clients()) < LONG_POLLS + STREAMS:
            assert time.monotonic() < deadline, f"only {waiting} watchers are waiting"
            time.sleep(0.2)
        assert dict(store.pubsub_numsub(channel))[channel] == 1
        assert subscribed_connections(store) - before <= 1  # 400 watchers, one connection

        token = match["tokens"][0]["token"]
        moves = client.call("GET", f"/v1/matches/{match_id}/moves", token).json()
        moved = client.call("POST", f"/v1/matches/{match_id}/moves", token, json={
            "version": moves["version"], "move_id": moves["moves"][0]["id"]})
        assert moved.status_code == 200, moved.text
        new = moved.json()["version"]
        answers = read_until(polls, lambda raw: long_poll_version(raw) is not None, 20)
        assert [long_poll_version(raw) for raw in answers.values()] == [new] * LONG_POLLS
        marker = f"id: {new}\nevent: version".encode()
        events = read_until(streams, lambda raw: marker in raw, 20)
        assert sum(marker in raw for raw in events.values()) == STREAMS
    finally:
        for sock in polls + streams:
            sock.close()
        store.close()

