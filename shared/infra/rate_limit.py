"""Rate limits kept in Redis, shared by every API process.

Limits count requests in fixed one-minute windows (``evo:rl:{bucket}:{who}:{window}``, each
key expiring with its window): cheap, exact across processes, and a refused client is told
when the window ends (``Retry-After``). ``who`` is a client address or the hash of a token.
This module is the only code that touches ``evo:rl:`` keys.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence

from shared.infra.redis_client import RedisClient


class RateLimiter:
    def __init__(self, client: RedisClient) -> None:
        self._redis = client

    def hit(self, bucket: str, who: str, limit: int, window: float = 60.0) -> float:
        """Count one request of ``who``; 0 if allowed, else the seconds until it may retry.

        ``limit`` 0 or less means unlimited (nothing is counted).
        """
        return self.hit_all(bucket, [who], limit, window)[0]

    def hit_all(self, bucket: str, whos: Sequence[str], limit: int, window: float = 60.0
                ) -> list[float]:
        """Count one request against each of ``whos`` (an address, a token) in one round
        trip; for each, 0 if allowed, else the seconds until it may retry. ``limit`` 0 or
        less means unlimited (nothing is counted)."""
        if limit <= 0 or not whos:
            return [0.0] * len(whos)
        now = time.time()
        slot = int(now // window)
        # INCR then EXPIRE per key, in one pipeline: not a transaction, as on a cluster the
        # keys live in different slots (each key's pair runs in order on its own node).
        with self._redis.pipeline(transaction=False) as pipe:
            for who in whos:
                key = f"evo:rl:{bucket}:{who}:{slot}"
                pipe.incr(key)
                pipe.expire(key, math.ceil(window) + 1)
            answers = pipe.execute()
        retry = max(1.0, math.ceil((slot + 1) * window - now))
        return [0.0 if int(count) <= limit else retry for count in answers[::2]]
