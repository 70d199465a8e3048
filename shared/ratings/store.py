"""Ratings of one game in Redis, ``evo:r:{game}`` (the braces are literal: the game is the
hash tag, so one rating update, a WATCH transaction over four keys, stays in one cluster slot):

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

from shared.infra.redis_client import RedisClient

Rating = dict[str, Any]  # {"name", "mu", "sigma", "matches"}


class RatingStore:
    def __init__(self, client: RedisClient) -> None:
        self.redis = client

    @staticmethod
    def _key(game: str, suffix: str = "") -> str:
        # The game is the hash tag: one rating update (a WATCH transaction) writes four keys.
        return f"evo:r:{{{game}}}{suffix}"

    def rate_once(self, game: str, match_id: str, players: Sequence[tuple[str, str]],
                  compute: Callable[[list[Rating | None]], list[tuple[float, float]]]
                  ) -> dict[str, Any]:
        """Rate ``match_id`` exactly once: ``players`` are (key, name) by seat.

        ``compute`` maps the seats' current ratings (None: unrated) to their new (mu, sigma).
        An optimistic transaction (WATCH) on the game's ratings makes concurrent updates of
        the same players retry rather than overwrite each other, and the ``done`` hash makes a
        second call for the same match (another worker saw it finish) return the first record.
        """
        ratings, done = self._key(game), self._key(game, ":done")
        with self.redis.pipeline(transaction=True) as pipe:
            while True:
                try:
                    pipe.watch(ratings, done)
                    earlier = pipe.hget(done, match_id)
                    if earlier is not None:
                        pipe.unwatch()
                        first: dict[str, Any] = json.loads(earlier)
                        return first
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
        raw = self.redis.hmget(self._key(game, ":done"), list(match_ids))
        return {m: json.loads(r) for m, r in zip(match_ids, raw, strict=True) if r is not None}

    def ratings(self, game: str, keys: Sequence[str]) -> dict[str, Rating]:
        if not keys:
            return {}
        raw = self.redis.hmget(self._key(game), list(keys))
        return {k: json.loads(r) for k, r in zip(keys, raw, strict=True) if r is not None}

    def leaderboard(self, game: str, limit: int) -> list[tuple[str, Rating]]:
        keys = self.redis.zrevrange(self._key(game, ":board"), 0, limit - 1)
        found = self.ratings(game, keys)
        return [(key, found[key]) for key in keys if key in found]

    def rename(self, game: str, key: str, name: str) -> bool:
        """Show ``name`` for the player ``key`` (its numbers kept); False if unrated."""
        ratings = self._key(game)
        with self.redis.pipeline(transaction=True) as pipe:
            while True:
                try:
                    pipe.watch(ratings)
                    raw = pipe.hget(ratings, key)
                    if raw is None:
                        pipe.unwatch()
                        return False
                    pipe.multi()
                    pipe.hset(ratings, key, json.dumps({**json.loads(raw), "name": name}))
                    pipe.execute()
                    return True
                except redis.WatchError:
                    continue


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
