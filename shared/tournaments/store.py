"""Redis keys of tournaments: the store of :mod:`shared.tournaments`.

Tournament ``evo:t:{id}`` (every key of one tournament shares the prefix):

* ``evo:t:{id}`` hash — ``meta`` (spec, status, times; JSON) and ``version`` (bumped and
  published on channel ``evo:t:{id}:chg`` on every change);
* ``evo:t:{id}:slots`` hash — slot number -> the planned match (entrants by seat, seed, round);
* ``evo:t:{id}:ids`` hash — slot number -> match id, claimed with HSETNX *before* the match is
  created, so a slot never gets two matches;
* ``evo:t:{id}:results`` hash — slot number -> the finished match's outcome (HSETNX: once);
* ``evo:t:{id}:started`` set — slots whose match was created (a claimed slot not in it is
  created again: its scheduler may have died between the claim and the creation);
* ``evo:t:{id}:ended`` set — ids of matches whose end was handled and whose outcome is not
  recorded yet (the finish handling adds them; the scheduler records and removes them), so
  a tick reads what ended instead of every running match;
* ``evo:t:{id}:lock`` string — the scheduler's lease (TTL); ``evo:t:{id}:dirty`` — another
  finished match arrived while the lease was held;
* ``evo:t:running`` set — tournaments still running or waiting for invited accounts (the
  periodic tick reads it);
* ``evo:t:all`` sorted set — every kept tournament by creation number (``evo:t:seq``, a
  counter), newest last: ``GET /v1/tournaments`` pages through it (an expired one is dropped
  when met);
* ``evo:t:expiring`` sorted set — ended tournaments by the time their keys expire: each
  creation drops the expired ones from the listing (so the listing index stays the size of
  what is kept, listed or not);
* ``evo:t:client:<address>`` hash — the running tournaments a client address created:
  tournament id -> reserved at (the per-client cap).

A tournament that is over (finished or cancelled) keeps its own keys ``ended_ttl`` seconds
(``TOURNAMENT_TTL``; 0: for ever); a running one never expires.

No write spans two of these keys atomically (on Redis Cluster they live in different slots):
``create`` and ``save_meta`` write one key at a time, in an order whose every prefix is safe.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from shared.infra.notifier import wait_on
from shared.infra.redis_client import RedisClient, is_cluster

Rating = dict[str, Any]  # {"name", "mu", "sigma", "matches"}


#: The statuses a tournament stays in the ``evo:t:running`` index with.
LIVE = frozenset({"running", "waiting"})


@dataclass
class Snapshot:
    """What a scheduler step reads of a tournament, in one pipeline."""

    meta: dict[str, Any] | None
    slots: dict[int, dict[str, Any]]
    ids: dict[int, str]
    results: dict[int, dict[str, Any]]
    ended: set[str]  # matches whose end was handled, outcome maybe not recorded yet
    started: set[int]  # slots whose match was created


#: The keys of one tournament that outlive its end (its lock and dirty mark have TTLs).
OWN_SUFFIXES = ("", ":slots", ":ids", ":results", ":started", ":ended")

#: Counts the client's running tournaments and reserves one more, in one step (one key), so
#: concurrent creations never together overshoot the cap. KEYS[1] the client's hash; ARGV
#: cap, tournament id, now, ttl, then the ids found over (read before: an ended tournament
#: never runs again). Returns -1 when reserved, else the running count.
_RESERVE = """
for i = 5, #ARGV do redis.call('HDEL', KEYS[1], ARGV[i]) end
local live = redis.call('HLEN', KEYS[1])
if live >= tonumber(ARGV[1]) then return live end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[4]))
return -1
"""


class TournamentStore:
    #: Seconds a client's reservation counts although its tournament does not exist (yet).
    RESERVATION_GRACE = 60.0

    def __init__(self, client: RedisClient, ended_ttl: int = 0) -> None:
        """``ended_ttl``: seconds a tournament's keys are kept after its end (0: for ever)."""
        self.redis = client
        self.ended_ttl = ended_ttl
        self._reserve = client.register_script(_RESERVE)

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

    def snapshot(self, tournament_id: str) -> Snapshot:
        """Everything a scheduler step reads, in one pipeline (one round trip on a single
        Redis, whatever the number of matches)."""
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.hmget(self._key(tournament_id), ["meta", "version"])
            for suffix in (":slots", ":ids", ":results"):
                pipe.hgetall(self._key(tournament_id, suffix))
            pipe.smembers(self._key(tournament_id, ":ended"))
            pipe.smembers(self._key(tournament_id, ":started"))
            (meta, version), slots, ids, results, ended, started = pipe.execute()
        return Snapshot(
            None if meta is None else {**json.loads(meta), "version": int(version or 0)},
            {int(k): json.loads(v) for k, v in slots.items()},
            {int(k): str(v) for k, v in ids.items()},
            {int(k): json.loads(v) for k, v in results.items()},
            {str(m) for m in ended}, {int(s) for s in started})

    def running(self) -> list[str]:
        """The tournaments running or waiting for their invited accounts."""
        return sorted(self.redis.smembers("evo:t:running"))

    def wait_for_change(self, tournament_id: str, seen: int, timeout: float) -> int | None:
        known: int | None = seen  # what ``version`` reads (mypy would take ``int``)
        return wait_on(self.redis, [self.channel(tournament_id)],
                       lambda: self.version(tournament_id), known, timeout)

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
        self.redis.zadd("evo:t:all", {tournament_id: self.redis.incr("evo:t:seq")})
        self.drop_expired()

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
        if meta["status"] not in LIVE:  # the global index, after the tournament's own write
            self.redis.srem("evo:t:running", tournament_id)
            self.expire(tournament_id)
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

    def note_started(self, tournament_id: str, slot: int) -> None:
        self.redis.sadd(self._key(tournament_id, ":started"), str(slot))

    def note_ended(self, tournament_id: str, match_id: str) -> None:
        """Note that ``match_id``'s end was handled: its next scheduler step records it.

        A note that comes after the tournament's end (a finish handled twice, an aborted
        match of a cancelled one) takes the tournament's remaining time to live, or goes at
        once if the tournament has expired: no key outlives its tournament."""
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.sadd(self._key(tournament_id, ":ended"), match_id)
            pipe.pttl(self._key(tournament_id))
            _, ttl = pipe.execute()
        if ttl > 0:
            self.redis.expire(self._key(tournament_id, ":ended"), ttl // 1000 + 1)
        elif ttl == -2:
            self.redis.delete(self._key(tournament_id, ":ended"))

    def forget_ended(self, tournament_id: str, match_ids: Iterable[str]) -> None:
        """Drop noted ends whose outcome is recorded."""
        ids = list(match_ids)
        if ids:
            self.redis.srem(self._key(tournament_id, ":ended"), *ids)

    def dirty_and_lock(self, tournament_id: str, ttl: float) -> bool:
        """``mark_dirty`` then ``lock``, in one round trip on a single Redis. The order
        matters (a holder that unlocks must see the mark, or this lock must be taken), and a
        cluster pipeline does not keep it across nodes: there, two calls."""
        if is_cluster(self.redis):
            self.mark_dirty(tournament_id)
            return self.lock(tournament_id, ttl)
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(self._key(tournament_id, ":dirty"), "1", ex=60)
            pipe.set(self._key(tournament_id, ":lock"), "1", nx=True, px=int(ttl * 1000))
            return bool(pipe.execute()[1])

    def unlock_and_is_dirty(self, tournament_id: str) -> bool:
        """``unlock`` then ``is_dirty`` (news that came before the unlock), in one round trip
        on a single Redis; in the same order in two calls on a cluster (``dirty_and_lock``)."""
        if is_cluster(self.redis):
            self.unlock(tournament_id)
            return self.is_dirty(tournament_id)
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.delete(self._key(tournament_id, ":lock"))
            pipe.exists(self._key(tournament_id, ":dirty"))
            return bool(pipe.execute()[1])

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


    # -- retention, listing, per-client cap ------------------------------------------------
    def expire(self, tournament_id: str) -> None:
        """Start the countdown of an ended tournament's keys (``ended_ttl``; 0: none)."""
        if self.ended_ttl <= 0:
            return
        with self.redis.pipeline(transaction=False) as pipe:
            for suffix in OWN_SUFFIXES:
                pipe.expire(self._key(tournament_id, suffix), self.ended_ttl)
            pipe.zadd("evo:t:expiring", {tournament_id: time.time() + self.ended_ttl})
            pipe.execute()

    def drop_expired(self, now: float | None = None, count: int = 100) -> list[str]:
        """Drop from the listing up to ``count`` tournaments whose keys have expired."""
        now = time.time() if now is None else now
        gone = self.redis.zrangebyscore("evo:t:expiring", "-inf", now, start=0, num=count)
        if gone:
            self.unlist(gone)
            self.redis.zrem("evo:t:expiring", *gone)
        return gone

    def listed(self, before: int | None, count: int) -> list[tuple[str, int]]:
        """Up to ``count`` (tournament id, creation number), newest first, created before
        number ``before`` (None: from the newest)."""
        top = "+inf" if before is None else f"({before}"
        found = self.redis.zrevrangebyscore("evo:t:all", top, "-inf", start=0, num=count,
                                            withscores=True)
        return [(str(member), int(score)) for member, score in found]

    def metas(self, tournament_ids: list[str]) -> list[dict[str, Any] | None]:
        """Each tournament's metadata (None: gone), in one pipeline."""
        with self.redis.pipeline(transaction=False) as pipe:
            for tournament_id in tournament_ids:
                pipe.hmget(self._key(tournament_id), ["meta", "version"])
            found = pipe.execute()
        return [None if meta is None else {**json.loads(meta), "version": int(version or 0)}
                for meta, version in found]

    def unlist(self, tournament_ids: list[str]) -> None:
        """Drop expired tournaments from the listing."""
        if tournament_ids:
            self.redis.zrem("evo:t:all", *tournament_ids)

    def reserve_running(self, who: str, tournament_id: str, cap: int) -> int | None:
        """Count ``tournament_id`` among ``who``'s running tournaments if that keeps ``who``
        within ``cap``: None if reserved, else how many ``who`` already runs."""
        key, now = f"evo:t:client:{who}", time.time()
        entries = self.redis.hgetall(key)
        ids = list(entries)
        with self.redis.pipeline(transaction=False) as pipe:
            for other in ids:
                pipe.exists(self._key(other))
            created = pipe.execute() if ids else []
        # Read after the metadata: ``create`` adds to the index before writing the metadata,
        # so a tournament seen created is in this later read unless it ended. Read before, a
        # creation in between looked over and its reservation was dropped (a fourth passed).
        running = self.redis.smembers("evo:t:running") if ids else set()
        # Over: no longer running once created, or never created within the grace.
        gone = [other for other, exists in zip(ids, created, strict=True)
                if other not in running
                and (exists or now - float(entries[other]) >= self.RESERVATION_GRACE)]
        live = int(self._reserve(keys=[key], args=[cap, tournament_id, repr(now),
                                                   86400, *gone]))
        return None if live < 0 else live
