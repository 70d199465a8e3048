"""What the probes and ``/metrics`` read: whether the store and the broker answer (and the
store takes writes), the bot queues' lengths and the worker's counters. Routes reach them
through this one object (built in ``shared.services``), never through a client of their own.

Key: ``evo:readyz:probe`` — a one-byte write with a 10 s expiry, refused when Redis is at
``maxmemory`` or read-only (this module is the only code that writes it).
"""

from __future__ import annotations

import logging
from typing import Any

import redis

from shared.infra.queue import BOT_QUEUE, TOURNAMENT_QUEUE, broker_reachable
from shared.infra.redis_client import RedisClient
from shared.infra.stats import WorkerStats

log = logging.getLogger(__name__)
PROBE_KEY = "evo:readyz:probe"
QUEUES = (BOT_QUEUE, TOURNAMENT_QUEUE)


class Monitoring:
    """Readiness checks and the worker's figures, on the store's client and the broker."""

    def __init__(self, client: RedisClient, stats: WorkerStats, broker_url: str,
                 broker_is_store: bool) -> None:
        self._redis = client
        self.stats = stats
        self.broker_url = broker_url
        # The queues are in the store's own Redis when the broker is that Redis (never so
        # with a cluster); else in the broker's Redis, or not in Redis at all (RabbitMQ: its
        # queue lengths are RabbitMQ's own metrics).
        self._broker_is_store = broker_is_store
        self._broker_client: redis.Redis | None = None

    def redis_ok(self) -> bool:
        try:
            return bool(self._redis.ping())
        except Exception:  # any client error means "not ready"
            return False

    def redis_writable(self) -> bool:
        """A tiny write with a short expiry: refused when Redis is at ``maxmemory``."""
        try:
            return bool(self._redis.set(PROBE_KEY, "1", px=10_000))
        except Exception:  # OOM, read-only replica, unreachable: not ready
            return False

    def broker_ok(self) -> bool:
        return broker_reachable(self.broker_url)

    def readiness(self) -> dict[str, bool]:
        """Each dependency's check: the store answers, takes writes; the broker answers."""
        return {"redis": self.redis_ok(), "redis_writable": self.redis_writable(),
                "broker": self.broker_ok()}

    def _broker(self) -> Any:
        if self._broker_is_store:
            return self._redis
        if not self.broker_url.startswith(("redis://", "rediss://")):
            return None
        if self._broker_client is None:
            self._broker_client = redis.Redis.from_url(self.broker_url, socket_timeout=2)
        return self._broker_client

    def queue_lengths(self) -> dict[str, int]:
        """Tasks waiting in each Celery queue ({} for a broker that is not Redis)."""
        broker = self._broker()
        return {} if broker is None else {queue: int(broker.llen(queue)) for queue in QUEUES}

    def worker_counters(self) -> dict[str, float]:
        return self.stats.read()
