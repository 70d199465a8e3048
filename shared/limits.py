"""Rate limits and the cap on a client's bot work, kept in Redis (shared by every API process).

Limits count requests in fixed one-minute windows (``evo:rl:{bucket}:{who}:{window}``, each
key expiring with its window): cheap, exact across processes, and a refused client is told
when the window ends (``Retry-After``). ``who`` is a client address or the hash of a token.

The bot-work cap bounds the bot seats one client address can have in live (waiting or
running) matches, so a flood of bot matches from one client is refused at creation instead
of queueing ahead of everybody else's bots.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable

from shared.redis_client import RedisClient
from shared.store import match_key

LIVE = ("waiting", "running")


class RateLimiter:
    def __init__(self, client: RedisClient) -> None:
        self.redis = client

    def hit(self, bucket: str, who: str, limit: int, window: float = 60.0) -> float:
        """Count one request of ``who``; 0 if allowed, else the seconds until it may retry.

        ``limit`` 0 or less means unlimited (nothing is counted).
        """
        if limit <= 0:
            return 0.0
        now = time.time()
        slot = int(now // window)
        key = f"evo:rl:{bucket}:{who}:{slot}"
        # One key, so one slot: a transaction on a cluster too.
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.incr(key)
            pipe.expire(key, math.ceil(window) + 1)
            count, _ = pipe.execute()
        if int(count) <= limit:
            return 0.0
        return max(1.0, math.ceil((slot + 1) * window - now))


class BotWorkCap:
    """How many bot seats a client has in live matches (``evo:bots:{who}`` set of ids)."""

    def __init__(self, client: RedisClient, ttl: int = 86400) -> None:
        self.redis = client
        self.ttl = ttl

    def _key(self, who: str) -> str:
        return f"evo:bots:{who}"

    def live_seats(self, who: str) -> int:
        """Bot seats in the client's live matches; ended or vanished matches are forgotten."""
        entries = self.redis.hgetall(self._key(who))
        if not entries:
            return 0
        ids = list(entries)
        with self.redis.pipeline(transaction=False) as pipe:
            for match_id in ids:
                pipe.hget(match_key(match_id), "status")
            statuses = pipe.execute()
        gone = [m for m, status in zip(ids, statuses, strict=True) if status not in LIVE]
        if gone:
            self.redis.hdel(self._key(who), *gone)
        return sum(int(entries[m]) for m in ids if m not in gone)

    def add(self, who: str, match_id: str, seats: int) -> None:
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(self._key(who), match_id, seats)
            pipe.expire(self._key(who), self.ttl)
            pipe.execute()


def bot_seat_count(seats: Iterable[dict]) -> int:
    return sum(1 for seat in seats if seat.get("kind") == "bot")
