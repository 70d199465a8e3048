"""What the probes and ``/metrics`` read: whether the store and the broker answer (and the
store takes writes), the bot queues' lengths and the worker's counters. Routes reach them
through this one object (built in ``shared.services``), never through a client of their own.

Key: ``evo:readyz:probe`` — a one-byte write with a 10 s expiry, refused when Redis is at
``maxmemory`` or read-only (this module is the only code that writes it).

The readiness checks answer within ``READY_DEADLINE`` whatever Redis or the broker does (a
frozen Redis accepts connections and never replies): they run at once, each on a client of
its own whose connect and reply take at most ``PROBE_TIMEOUT`` without retries, and a check
still running at the deadline counts as failed.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import redis

from shared.infra.queue import BOT_QUEUE, TOURNAMENT_QUEUE, broker_reachable
from shared.infra.redis_client import RedisClient
from shared.infra.stats import WorkerStats

log = logging.getLogger(__name__)
PROBE_KEY = "evo:readyz:probe"
QUEUES = (BOT_QUEUE, TOURNAMENT_QUEUE)
PROBE_TIMEOUT = 0.4  # seconds a probe's connect or reply may take
READY_DEADLINE = 0.8  # seconds the readiness checks may take together


class Monitoring:
    """Readiness checks and the worker's figures, on the store's client and the broker."""

    def __init__(self, client: RedisClient, stats: WorkerStats, broker_url: str,
                 broker_is_store: bool,
                 probe: Callable[[], RedisClient] | None = None) -> None:
        """``probe`` builds the store's client of the checks, one with short timeouts (the
        store's own client by default, which waits as long as Redis does)."""
        self._redis = client
        self._make_probe = probe
        self._probe: RedisClient | None = None
        self._probe_lock = threading.Lock()
        self.stats = stats
        self.broker_url = broker_url
        # The queues are in the store's own Redis when the broker is that Redis (never so
        # with a cluster); else in the broker's Redis, or not in Redis at all (RabbitMQ: its
        # queue lengths are RabbitMQ's own metrics).
        self._broker_is_store = broker_is_store
        self._broker_client: redis.Redis | None = None

    def _probe_client(self) -> RedisClient:
        with self._probe_lock:  # built once, on first use: a cluster's asks its nodes
            if self._probe is None:
                self._probe = self._redis if self._make_probe is None else self._make_probe()
            return self._probe

    def redis_ok(self) -> bool:
        try:
            return bool(self._probe_client().ping())
        except Exception:  # any client error (a timeout too) means "not ready"
            return False

    def redis_writable(self) -> bool:
        """A tiny write with a short expiry: refused when Redis is at ``maxmemory``."""
        try:
            return bool(self._probe_client().set(PROBE_KEY, "1", px=10_000))
        except Exception:  # OOM, read-only replica, unreachable: not ready
            return False

    def broker_ok(self) -> bool:
        if self._broker_is_store:  # the same Redis: asked with the probe's short timeouts
            return self.redis_ok()
        return broker_reachable(self.broker_url, 1)  # bounded by READY_DEADLINE too

    def readiness(self) -> dict[str, bool]:
        """Each dependency's check: the store answers, takes writes; the broker answers. All
        at once, within ``READY_DEADLINE``: a check not done by then is a failed one."""
        checks: dict[str, Callable[[], bool]] = {
            "redis": self.redis_ok, "redis_writable": self.redis_writable,
            "broker": self.broker_ok}
        results = dict.fromkeys(checks, False)

        def run(name: str, check: Callable[[], bool]) -> None:
            results[name] = check()

        threads = [threading.Thread(target=run, args=item, daemon=True, name=f"ready-{item[0]}")
                   for item in checks.items()]
        deadline = time.monotonic() + READY_DEADLINE
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        return {name: results[name] and not thread.is_alive()
                for (name, thread) in zip(checks, threads, strict=True)}

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
