"""Settings read from environment variables (one place, shared by the API and the worker)."""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    redis_url: str
    broker_url: str
    max_body_bytes: int
    bot_stale_after: float  # seconds a bot turn may wait before the sweep re-enqueues it
    bot_lease_seconds: float  # a bot task holds its turn for its think cap plus this
    idempotency_ttl: int  # seconds an Idempotency-Key's answer is kept
    max_wait_seconds: float  # longest long-poll / SSE wait a client may ask for

    @classmethod
    def from_env(cls) -> Settings:
        redis_url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
        return cls(
            redis_url=redis_url,
            broker_url=os.environ.get("BROKER_URL", redis_url),
            max_body_bytes=int(os.environ.get("MAX_BODY_BYTES", 64 * 1024)),
            bot_stale_after=float(os.environ.get("BOT_STALE_AFTER", 5)),
            bot_lease_seconds=float(os.environ.get("BOT_LEASE_SECONDS", 15)),
            idempotency_ttl=int(os.environ.get("IDEMPOTENCY_TTL", 24 * 3600)),
            max_wait_seconds=float(os.environ.get("MAX_WAIT_SECONDS", 30)),
        )
