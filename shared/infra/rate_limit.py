"""Rate limits kept in Redis, shared by every API process.

Limits count requests in fixed one-minute windows (``evo:rl:{bucket}:{who}:{window}``, each
key expiring with its window): cheap, exact across processes, and a refused client is told
when the window ends (``Retry-After``). ``who`` is a client address or the hash of a token.
"""

from __future__ import annotations

import math
import time

from shared.infra.redis_client import RedisClient


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
