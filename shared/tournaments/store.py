"""Redis keys of tournaments: the store of :mod:`shared.tournaments`.

Tournament ``evo:t:{id}`` (every key of one tournament shares the prefix):

* ``evo:t:{id}`` hash — ``meta`` (spec, status, times; JSON) and ``version`` (bumped and
  published on channel ``evo:t:{id}:chg`` on every change);
* ``evo:t:{id}:slots`` hash — slot number -> the planned match (entrants by seat, seed, round);
* ``evo:t:{id}:ids`` hash — slot number -> match id, claimed with HSETNX *before* the match is
  created, so a slot never gets two matches;
* ``evo:t:{id}:results`` hash — slot number -> the finished match's outcome (HSETNX: once);
* ``evo:t:{id}:lock`` string — the scheduler's lease (TTL); ``evo:t:{id}:dirty`` — another
  finished match arrived while the lease was held;
* ``evo:t:running`` set — tournaments still running (the periodic tick reads it).

No write spans two of these keys atomically (on Redis Cluster they live in different slots):
``create`` and ``save_meta`` write one key at a time, in an order whose every prefix is safe.
"""

from __future__ import annotations

import json
from typing import Any

from shared.infra.notifier import wait_on
from shared.infra.redis_client import RedisClient

Rating = dict[str, Any]  # {"name", "mu", "sigma", "matches"}


class TournamentStore:
    def __init__(self, client: RedisClient) -> None:
        self.redis = client

    @staticmethod
    def _key(tournament_id: str, suffix: str = "") -> str:
        return f"evo:t:{tournament_id}{suffix}"

    def channel(self, tournament_id: str) -> str:
        return self._key(tournament_id, ":chg")

    # -- reads ------------------------------------------------------------------------------
    def load(self, tournament_id: str) -> dict[str, Any] | None:
        meta, version = self.redis.hmget(self._key(tournament_id), ["meta", "version"])
        if meta is None:
            return None
        return {**json.loads(meta), "version": int(version or 0)}

    def version(self, tournament_id: str) -> int | None:
        value = self.redis.hget(self._key(tournament_id), "version")
        return None if value is None else int(value)

    def _json_hash(self, tournament_id: str, suffix: str) -> dict[int, Any]:
        raw = self.redis.hgetall(self._key(tournament_id, suffix))
        return {int(slot): json.loads(value) for slot, value in raw.items()}

    def slots(self, tournament_id: str) -> dict[int, dict[str, Any]]:
        return self._json_hash(tournament_id, ":slots")

    def results(self, tournament_id: str) -> dict[int, dict[str, Any]]:
        return self._json_hash(tournament_id, ":results")

    def match_ids(self, tournament_id: str) -> dict[int, str]:
        raw = self.redis.hgetall(self._key(tournament_id, ":ids"))
        return {int(slot): str(match_id) for slot, match_id in raw.items()}

    def running(self) -> list[str]:
        return sorted(self.redis.smembers("evo:t:running"))

    def wait_for_change(self, tournament_id: str, seen: int, timeout: float) -> int | None:
        return wait_on(self.redis, [self.channel(tournament_id)],
                       lambda: self.version(tournament_id), seen, timeout)

    # -- writes -----------------------------------------------------------------------------
    def create(self, meta: dict[str, Any], slots: dict[int, dict[str, Any]]) -> None:
        """Store a new tournament: its plan, then the running index, then its metadata, in
        that order (one key at a time, as a cluster keeps them in different slots): the
        tournament exists once its metadata does, and a tick of an id without metadata, or of
        one no longer running, changes nothing."""
        tournament_id = meta["id"]
        if slots:
            self.redis.hset(self._key(tournament_id, ":slots"),
                            mapping={str(k): json.dumps(v) for k, v in slots.items()})
        self.redis.sadd("evo:t:running", tournament_id)
        self.redis.hset(self._key(tournament_id), mapping={"meta": json.dumps(meta),
                                                           "version": 1})

    def add_slots(self, tournament_id: str, slots: dict[int, dict[str, Any]]) -> None:
        """Plan more matches (a Swiss round), never replacing a planned one."""
        with self.redis.pipeline(transaction=False) as pipe:
            for slot, plan in slots.items():
                pipe.hsetnx(self._key(tournament_id, ":slots"), str(slot), json.dumps(plan))
            pipe.execute()

    def save_meta(self, meta: dict[str, Any]) -> int:
        """Store ``meta``, bump the version and announce it; returns the new version."""
        tournament_id = meta["id"]
        stored = {key: value for key, value in meta.items() if key != "version"}
        with self.redis.pipeline(transaction=True) as pipe:  # one key: one slot
            pipe.hset(self._key(tournament_id), "meta", json.dumps(stored))
            pipe.hincrby(self._key(tournament_id), "version", 1)
            _, version = pipe.execute()
        if meta["status"] != "running":  # the global index, after the tournament's own write
            self.redis.srem("evo:t:running", tournament_id)
        self.redis.publish(self.channel(tournament_id), version)
        return int(version)

    def claim_match_id(self, tournament_id: str, slot: int, match_id: str) -> str:
        """Give ``slot`` the id ``match_id`` unless it has one; returns the slot's id."""
        key = self._key(tournament_id, ":ids")
        self.redis.hsetnx(key, str(slot), match_id)
        return str(self.redis.hget(key, str(slot)))

    def record_result(self, tournament_id: str, slot: int, outcome: dict[str, Any]) -> bool:
        return bool(self.redis.hsetnx(self._key(tournament_id, ":results"), str(slot),
                                      json.dumps(outcome)))

    def lock(self, tournament_id: str, ttl: float) -> bool:
        return bool(self.redis.set(self._key(tournament_id, ":lock"), "1", nx=True,
                                   px=int(ttl * 1000)))

    def unlock(self, tournament_id: str) -> None:
        self.redis.delete(self._key(tournament_id, ":lock"))

    def mark_dirty(self, tournament_id: str) -> None:
        self.redis.set(self._key(tournament_id, ":dirty"), "1", ex=60)

    def is_dirty(self, tournament_id: str) -> bool:
        return bool(self.redis.exists(self._key(tournament_id, ":dirty")))

    def take_dirty(self, tournament_id: str) -> bool:
        return self.redis.getdel(self._key(tournament_id, ":dirty")) is not None

