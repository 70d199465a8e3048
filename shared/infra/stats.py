"""Counters the worker processes keep in Redis for the API's ``/metrics`` to export.

Celery's pool children come and go, so they cannot each serve metrics: they add to one Redis
hash (``evo:stats``) instead, and the API reads it at scrape time. Counting is best effort: a
store error while counting is logged and never fails the task that counted.
"""

from __future__ import annotations

import logging

import redis

from shared.infra.redis_client import RedisClient

log = logging.getLogger(__name__)
STATS_KEY = "evo:stats"
#: Upper bounds (seconds) of the bot search-time histogram buckets.
SEARCH_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


def count(client: RedisClient, name: str, amount: int = 1) -> None:
    try:
        client.hincrby(STATS_KEY, name, amount)
    except redis.RedisError as exc:
        log.warning("could not count %s: %s", name, exc)


def observe_search(client: RedisClient, seconds: float) -> None:
    """One bot search that took ``seconds``: a cumulative histogram, Prometheus-style."""
    try:
        with client.pipeline(transaction=False) as pipe:
            pipe.hincrby(STATS_KEY, "search_count", 1)
            pipe.hincrbyfloat(STATS_KEY, "search_seconds_sum", seconds)
            for bound in SEARCH_BUCKETS:
                if seconds <= bound:
                    pipe.hincrby(STATS_KEY, f"search_le_{bound}", 1)
            pipe.execute()
    except redis.RedisError as exc:
        log.warning("could not record a search time: %s", exc)


def read(client: RedisClient) -> dict[str, float]:
    return {key: float(value) for key, value in client.hgetall(STATS_KEY).items()}
