"""Redis keys of post-match analyses: the store of :mod:`shared.replays`.

* ``evo:analysis:{<match id>}:<seat>`` string — a finished analysis of that seat's decisions
  (JSON), kept as long as the match's log (``LOG_TTL``): the analysis is rebuilt from the log
  alone, so it outlives nothing it comes from;
* ``evo:analysis:{<match id>}:<seat>:asked`` string — an analysis sent to a worker and not
  finished yet (``SET NX``: one search per seat however often it is asked), expiring after
  the task's time limit so a lost task is sent again.

The braces are a Redis Cluster hash tag: a match's analyses share its slot.
"""

from __future__ import annotations

import json
from typing import Any

from shared.infra.redis_client import RedisClient


class AnalysisStore:
    def __init__(self, redis: RedisClient, keep_seconds: int) -> None:
        self.redis = redis
        self.keep_seconds = keep_seconds  # how long a finished analysis is kept

    @staticmethod
    def _key(match_id: str, seat: int, suffix: str = "") -> str:
        return f"evo:analysis:{{{match_id}}}:{seat}{suffix}"

    def kept(self, match_id: str, seat: int) -> dict[str, Any] | None:
        """The finished analysis of ``seat`` (None: not computed, or no longer kept)."""
        value = self.redis.get(self._key(match_id, seat))
        return None if value is None else dict(json.loads(value))

    def claim(self, match_id: str, seat: int, ttl: float) -> bool:
        """Mark the analysis as asked for ``ttl`` seconds; False if it already is."""
        return bool(self.redis.set(self._key(match_id, seat, ":asked"), "1", nx=True,
                                   px=max(1, round(ttl * 1000))))

    def release(self, match_id: str, seat: int) -> None:
        """Forget an asked analysis that will not finish (the next ask sends another)."""
        self.redis.delete(self._key(match_id, seat, ":asked"))

    def keep(self, match_id: str, seat: int, analysis: dict[str, Any]) -> None:
        """Keep a finished analysis and drop its asked mark (both keys in one slot)."""
        pipe = self.redis.pipeline(transaction=True)
        pipe.set(self._key(match_id, seat), json.dumps(analysis), ex=self.keep_seconds)
        pipe.delete(self._key(match_id, seat, ":asked"))
        pipe.execute()
