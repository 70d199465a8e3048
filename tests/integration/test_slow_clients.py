"""Watchers and slow clients cost no thread: with 500 idle long-polls, 500 open event streams
and 100 half-sent requests held open at once (the issue's numbers), ``/healthz`` and a move
still answer within a second. Raw sockets on the client side, so the test itself holds no
thread per connection; the API's count of waiting clients proves the server really holds
every watcher (not the kernel's listen backlog), on one Redis subscription per process."""

from __future__ import annotations

import socket
import time
from urllib.parse import urlsplit

import pytest
import redis

from shared.matches.store import MatchStore
from tests.integration.conftest import Client, Worker

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("integration")]

LONG_POLLS, STREAMS, HALF_SENT = 500, 500, 100
API_WORKERS = 2  # tests/integration/conftest.py's api_url


def open_raw(host: str, port: int, request: bytes) -> socket.socket:
    sock = socket.create_connection((host, port), timeout=10)
    sock.sendall(request)
    return sock


def test_idle_watchers_and_half_sent_requests_starve_nobody(
        client: Client, worker: Worker, redis_url: str) -> None:
    host, port = urlsplit(client.base).hostname or "", urlsplit(client.base).port or 80
    polled = client.create({"game": "savanna", "seats": [{"kind": "human"}] * 2})
    streamed = client.create({"game": "savanna", "seats": [{"kind": "human"}] * 2})
    played = client.create({"game": "savanna", "seats": [{"kind": "human"}] * 2})
    poll = (f"GET /v1/matches/{polled['id']}?version={polled['version']}&wait=30 HTTP/1.1\r\n"
            f"Host: {host}\r\n\r\n").encode()
    stream = (f"GET /v1/matches/{streamed['id']}/stream HTTP/1.1\r\nHost: {host}\r\n"
              "Accept: text/event-stream\r\n\r\n").encode()
    half = f"GET /healthz HTTP/1.1\r\nHost: {host}\r\nX-Slow: ".encode()  # never finished
    sockets: list[socket.socket] = []
    store = redis.Redis.from_url(redis_url, decode_responses=True)
    try:
        sockets += [open_raw(host, port, poll) for _ in range(LONG_POLLS)]
        sockets += [open_raw(host, port, stream) for _ in range(STREAMS)]
        sockets += [open_raw(host, port, half) for _ in range(HALF_SENT)]
        deadline = time.monotonic() + 30
        while True:  # every watcher is being served: it waits in its worker's notifier
            waiting = client.waiting_clients()
            if waiting >= LONG_POLLS + STREAMS:
                break
            assert time.monotonic() < deadline, f"watchers not all served: {waiting}"
            time.sleep(0.2)
        # ... on one Redis subscription per API worker process, not one each.
        channels = [MatchStore.channel(polled["id"]), MatchStore.channel(streamed["id"])]
        assert all(count <= API_WORKERS for _, count in store.pubsub_numsub(*channels))

        started = time.monotonic()
        health = client.call("GET", "/healthz")
        health_seconds = time.monotonic() - started
        token = played["tokens"][0]["token"]
        moves = client.call("GET", f"/v1/matches/{played['id']}/moves", token).json()
        started = time.monotonic()
        moved = client.call("POST", f"/v1/matches/{played['id']}/moves", token, json={
            "version": moves["version"], "move_id": moves["moves"][0]["id"]})
        move_seconds = time.monotonic() - started
        assert health.status_code == 200 and health_seconds < 1.0, health_seconds
        assert moved.status_code == 200 and move_seconds < 1.0, move_seconds
    finally:
        for sock in sockets:
            sock.close()
        store.close()
