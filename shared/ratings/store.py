"""Ratings of one game in Redis, ``evo:r:{game}`` (the braces are literal: the game is the
hash tag, so one rating update, a WATCH transaction over four keys, stays in one cluster slot):

* ``evo:r:{game}`` hash — player key -> ``{name, mu, sigma, matches}``;
* ``evo:r:{game}:board`` sorted set — player key by conservative rating ``mu - 3 sigma``;
* ``evo:r:{game}:done`` hash — match id -> ``{seq, before, after}``: a match is rated once;
* ``evo:r:{game}:seq`` counter — the order in which matches were rated;
* ``evo:r:{game}:h:<player>`` list — the player's rating after each of its last
  ``HISTORY_LENGTH`` rated matches, ``{match, at, mu, sigma, conservative}``, oldest first:
  appended by the same transaction that rates the match, so exactly once per match.

The anchors (``shared.ratings.anchors``) are rated at their fixed value: the other seats are
rated against it, and the anchor's own stored rating is rewritten to it (its count grows).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from typing import Any

import redis

from shared.infra.redis_client import RedisClient
from shared.ratings import anchors as anchor_file
from shared.ratings.anchors import Anchors
from shared.ratings.model import HISTORY_LENGTH

Rating = dict[str, Any]  # {"name", "mu", "sigma", "matches"} (+ "anchor": True)


class RatingStore:
    def __init__(self, client: RedisClient, anchors: Anchors | None = None) -> None:
        """``anchors``: the fixed ratings (default: the repository's ``anchors.json``;
        ``shared.ratings.anchors.NONE`` rates every player alike)."""
        self.redis = client
        self.anchors = anchor_file.read() if anchors is None else anchors

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
                    fixed = self.anchors.fixed(game, keys)
                    current = [None if raw is None else json.loads(raw)
                               for raw in pipe.hmget(ratings, keys)]
                    current = [{**(r or {"matches": 0}), **fixed[k]} if k in fixed else r
                               for k, r in zip(keys, current, strict=True)]
                    updated = compute(current)
                    seq = int(pipe.get(self._key(game, ":seq")) or 0) + 1
                    after = _merge(players, current, updated)
                    for key, rating in fixed.items():  # anchors: never moved
                        after[key].update(rating, anchor=True)
                    record = {"seq": seq, "before": {k: _strip(r) for (k, _), r in
                                                     zip(players, current, strict=True)},
                              "after": {key: _strip(r) for key, r in after.items()}}
                    pipe.multi()
                    pipe.hset(ratings, mapping={k: json.dumps(r) for k, r in after.items()})
                    pipe.zadd(self._key(game, ":board"),
                              {k: r["mu"] - 3 * r["sigma"] for k, r in after.items()})
                    pipe.hset(done, match_id, json.dumps(record))
                    pipe.set(self._key(game, ":seq"), seq)
                    self._append_history(pipe, game, match_id, after)
                    pipe.execute()
                    return record
                except redis.WatchError:
                    continue

    def _append_history(self, pipe: Any, game: str, match_id: str,
                        after: dict[str, Rating]) -> None:
        now = round(time.time(), 3)
        for key, r in after.items():
            entry = {"match": match_id, "at": now, "mu": r["mu"], "sigma": r["sigma"],
                     "conservative": r["mu"] - 3 * r["sigma"]}
            pipe.rpush(self._key(game, f":h:{key}"), json.dumps(entry))
            pipe.ltrim(self._key(game, f":h:{key}"), -HISTORY_LENGTH, -1)

    def history(self, game: str, key: str, limit: int = HISTORY_LENGTH
                ) -> list[dict[str, Any]]:
        """``key``'s last ``limit`` rating changes in ``game``, oldest first."""
        raw = self.redis.lrange(self._key(game, f":h:{key}"), -limit, -1)
        return [json.loads(entry) for entry in raw]

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
        """The best ``limit`` players. An anchor shows its fixed value and ``anchor: True``
        and is placed by it: the file may have been recalibrated since its last rated match,
        so the board's score of an anchor may be stale (the anchors are read beside the
        best ``limit`` + their number, so no one is missed whichever way they moved)."""
        anchored = list(self.anchors.of(game))
        top = self.redis.zrevrange(self._key(game, ":board"), 0, limit - 1 + len(anchored))
        keys = top + [key for key in anchored if key not in top]
        found = self.ratings(game, keys)
        fixed = self.anchors.fixed(game, keys)
        rows = [(key, {**found[key], **fixed.get(key, {}), "anchor": key in fixed})
                for key in keys if key in found]
        rows.sort(key=lambda row: -(row[1]["mu"] - 3 * row[1]["sigma"]))
        return rows[:limit]

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
