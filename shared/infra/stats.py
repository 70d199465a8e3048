"""Counters the worker processes keep in Redis for the API's ``/metrics`` to export.

Celery's pool children come and go, so they cannot each serve metrics: they add to one Redis
hash (``evo:stats``) instead, and the API reads it at scrape time. Counting is best effort: a
store error while counting is logged and never fails the task that counted. This module is
the only code that touches ``evo:stats``; :class:`WorkerStats` is its door for the services.
"""

from __future__ import annotations

import logging
from typing import Any

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


def _observe(pipe: Any, seconds: float) -> None:
    pipe.hincrby(STATS_KEY, "search_count", 1)
    pipe.hincrbyfloat(STATS_KEY, "search_seconds_sum", seconds)
    for bound in SEARCH_BUCKETS:
        if seconds <= bound:
            pipe.hincrby(STATS_KEY, f"search_le_{bound}", 1)


def observe_search(client: RedisClient, seconds: float, played: bool = False) -> None:
    """One bot search that took ``seconds``: a cumulative histogram, Prometheus-style; with
    ``played``, its move was accepted (``bot_moves``), counted in the same round trip."""
    try:
        with client.pipeline(transaction=False) as pipe:
            _observe(pipe, seconds)
            if played:
                pipe.hincrby(STATS_KEY, "bot_moves", 1)
            pipe.execute()
    except redis.RedisError as exc:
        log.warning("could not record a search time: %s", exc)


def read(client: RedisClient) -> dict[str, float]:
    return {key: float(value) for key, value in client.hgetall(STATS_KEY).items()}


class WorkerStats:
    """The worker's counters on one Redis client (the services' door to ``evo:stats``)."""

    def __init__(self, client: RedisClient) -> None:
        self._redis = client

    def count(self, name: str, amount: int = 1) -> None:
        count(self._redis, name, amount)

    def bot_search(self, seconds: float, played: bool) -> None:
        """A bot's search took ``seconds``; ``played``: its move was accepted."""
        observe_search(self._redis, seconds, played)

    def read(self) -> dict[str, float]:
        return read(self._redis)
