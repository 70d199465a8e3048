"""Redis keys of tournaments and ratings (the store of :mod:`shared.tournaments` and ratings).

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

Ratings of one game ``evo:r:{game}`` — the braces are literal: the game is the hash tag, so
one rating update (a WATCH transaction over four keys) stays in one cluster slot:

* ``evo:r:{game}`` hash — player key -> ``{name, mu, sigma, matches}``;
* ``evo:r:{game}:board`` sorted set — player key by conservative rating ``mu - 3 sigma``;
* ``evo:r:{game}:done`` hash — match id -> ``{seq, before, after}``: a match is rated once;
* ``evo:r:{game}:seq`` counter — the order in which matches were rated.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import redis

from shared.redis_client import RedisClient, is_cluster
from shared.store import wait_on

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


class RatingStore:
    def __init__(self, client: RedisClient) -> None:
        self.redis = client
        self._migrated: set[str] = set()

    @staticmethod
    def _key(game: str, suffix: str = "") -> str:
        # The game is the hash tag: one rating update (a WATCH transaction) writes four keys.
        return f"evo:r:{{{game}}}{suffix}"

    def migrate_legacy(self, game: str) -> None:
        """Rename one game's ratings stored before hash tags (``evo:r:<game>``), once per
        process; only a single Redis can hold them (see ``MatchStore.migrate_legacy``)."""
        if game in self._migrated or is_cluster(self.redis):
            return
        for suffix in (":board", ":done", ":seq", ""):  # the ratings hash last
            try:
                self.redis.renamenx(f"evo:r:{game}{suffix}", self._key(game, suffix))
            except redis.ResponseError:  # no such key: nothing (left) to move
                continue
        self._migrated.add(game)

    def rate_once(self, game: str, match_id: str, players: Sequence[tuple[str, str]],
                  compute: Callable[[list[Rating | None]], list[tuple[float, float]]]
                  ) -> dict[str, Any]:
        """Rate ``match_id`` exactly once: ``players`` are (key, name) by seat.

        ``compute`` maps the seats' current ratings (None: unrated) to their new (mu, sigma).
        An optimistic transaction (WATCH) on the game's ratings makes concurrent updates of
        the same players retry rather than overwrite each other, and the ``done`` hash makes a
        second call for the same match (another worker saw it finish) return the first record.
        """
        self.migrate_legacy(game)
        ratings, done = self._key(game), self._key(game, ":done")
        with self.redis.pipeline(transaction=True) as pipe:
            while True:
                try:
                    pipe.watch(ratings, done)
                    earlier = pipe.hget(done, match_id)
                    if earlier is not None:
                        pipe.unwatch()
                        return json.loads(earlier)
                    keys = [key for key, _ in players]
                    current = [None if raw is None else json.loads(raw)
                               for raw in pipe.hmget(ratings, keys)]
                    updated = compute(current)
                    seq = int(pipe.get(self._key(game, ":seq")) or 0) + 1
                    after = _merge(players, current, updated)
                    record = {"seq": seq, "before": {k: _strip(r) for (k, _), r in
                                                     zip(players, current, strict=True)},
                              "after": {key: _strip(r) for key, r in after.items()}}
                    pipe.multi()
                    pipe.hset(ratings, mapping={k: json.dumps(r) for k, r in after.items()})
                    pipe.zadd(self._key(game, ":board"),
                              {k: r["mu"] - 3 * r["sigma"] for k, r in after.items()})
                    pipe.hset(done, match_id, json.dumps(record))
                    pipe.set(self._key(game, ":seq"), seq)
                    pipe.execute()
                    return record
                except redis.WatchError:
                    continue

    def rated(self, game: str, match_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        if not match_ids:
            return {}
        self.migrate_legacy(game)
        raw = self.redis.hmget(self._key(game, ":done"), list(match_ids))
        return {m: json.loads(r) for m, r in zip(match_ids, raw, strict=True) if r is not None}

    def ratings(self, game: str, keys: Sequence[str]) -> dict[str, Rating]:
        if not keys:
            return {}
        self.migrate_legacy(game)
        raw = self.redis.hmget(self._key(game), list(keys))
        return {k: json.loads(r) for k, r in zip(keys, raw, strict=True) if r is not None}

    def leaderboard(self, game: str, limit: int) -> list[tuple[str, Rating]]:
        self.migrate_legacy(game)
        keys = self.redis.zrevrange(self._key(game, ":board"), 0, limit - 1)
        found = self.ratings(game, keys)
        return [(key, found[key]) for key in keys if key in found]


def _strip(rating: Rating | None) -> dict[str, float] | None:
    return None if rating is None else {"mu": rating["mu"], "sigma": rating["sigma"]}


def _merge(players: Sequence[tuple[str, str]], current: list[Rating | None],
           updated: list[tuple[float, float]]) -> dict[str, Rating]:
    """The new rating of each player; a player in several seats (two entrants of the same
    built-in bot in one match) gets the mean of its seats' new ratings."""
    grouped: dict[str, list[tuple[float, float]]] = {}
    names: dict[str, str] = {}
    played: dict[str, int] = {}
    for (key, name), before, after in zip(players, current, updated, strict=True):
        grouped.setdefault(key, []).append(after)
        names[key] = name
        played[key] = (before or {}).get("matches", 0)
    return {key: {"name": names[key], "mu": sum(mu for mu, _ in pairs) / len(pairs),
                  "sigma": sum(s for _, s in pairs) / len(pairs), "matches": played[key] + 1}
            for key, pairs in grouped.items()}
