"""``/metrics``: Prometheus text with requests by route template and status, latencies, moves
accepted, the bot queue's length and the worker's counters (read from a real Redis)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import redis

from api import create_app
from scripts.localredis import free_port, start_redis
from shared.infra import stats
from shared.infra.config import Settings


def sample(text: str, name: str) -> float:
    """The value of the sample line that starts with ``name`` (labels included)."""
    match = re.search(rf"^{re.escape(name)} (\S+)$", text, re.M)
    assert match, f"no sample {name} in /metrics"
    return float(match.group(1))


def test_metrics_count_routes_moves_queue_and_searches(tmp_path: Path) -> None:
    # A redis-server of its own: the fake queue entries must never reach a real worker.
    port = free_port()
    process = start_redis(tmp_path, port, appendonly=False)
    try:
        check_metrics(f"redis://127.0.0.1:{port}/0")
    finally:
        process.terminate()
        process.wait(timeout=10)


def check_metrics(redis_url: str) -> None:
    redis_client = redis.Redis.from_url(redis_url)
    settings = dataclasses.replace(Settings.from_env(), redis_url=redis_url,
                                   broker_url=redis_url)
    http = create_app(settings).test_client()
    route = 'evo_http_requests_total{method="GET",route="/v1/matches/<match_id>",status="404"}'
    before = http.get("/metrics").get_data(as_text=True)
    old_404 = sample(before, route) if route.split(" ")[0] in before else 0.0
    old_moves = sample(before, "evo_moves_accepted_total")
    assert http.get("/v1/matches/nope").status_code == 404
    created = http.post("/v1/matches", json={"game": "savanna", "seed": 4, "seats": [
        {"kind": "human"}, {"kind": "human"}]}).get_json()
    auth = {"Authorization": f"Bearer {created['tokens'][0]['token']}"}
    moves = http.get(f"/v1/matches/{created['id']}/moves", headers=auth).get_json()
    assert http.post(f"/v1/matches/{created['id']}/moves", headers=auth, json={
        "version": moves["version"], "move_id": moves["moves"][0]["id"]}).status_code == 200
    redis_client.rpush("bots", "a", "b", "c")  # three tasks waiting in the bot queue
    stats.observe_search(redis_client, 0.3)

    text = http.get("/metrics").get_data(as_text=True)
    assert sample(text, route) == old_404 + 1  # by template: ids never become labels
    assert sample(text, "evo_moves_accepted_total") == old_moves + 1
    assert sample(text, 'evo_bot_queue_length{queue="bots"}') == 3
    assert sample(text, 'evo_bot_search_seconds_bucket{le="0.25"}') == 0
    assert sample(text, 'evo_bot_search_seconds_bucket{le="0.5"}') == 1
    assert sample(text, "evo_bot_search_seconds_sum") == 0.3
    assert 'evo_http_request_duration_seconds_bucket{le="0.005",method="POST",route=' \
           '"/v1/matches/<match_id>/moves"}' in text


def test_queue_lengths_come_from_the_broker_when_it_is_not_the_store(tmp_path: Path) -> None:
    """A scaled-out deployment has its broker apart (always so with a Redis Cluster): the
    queue lengths are the broker's, not an empty key of the store's."""
    port = free_port()
    process = start_redis(tmp_path, port, appendonly=False)
    try:
        store_url, broker_url = f"redis://127.0.0.1:{port}/0", f"redis://127.0.0.1:{port}/1"
        settings = dataclasses.replace(Settings.from_env(), redis_url=store_url,
                                       broker_url=broker_url)
        redis.Redis.from_url(broker_url).rpush("bots", "a", "b")
        redis.Redis.from_url(store_url).rpush("bots", "x")  # not a queue: the store's
        text = create_app(settings).test_client().get("/metrics").get_data(as_text=True)
        assert sample(text, 'evo_bot_queue_length{queue="bots"}') == 2
    finally:
        process.terminate()
        process.wait(timeout=10)
