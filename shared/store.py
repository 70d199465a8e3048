"""The Redis match store: the only code that talks to Redis.

Key space of one match (prefix ``evo:m:{id}``):

* ``evo:m:{id}`` hash — metadata, seats, serialized state, random state, version, result;
* ``evo:m:{id}:log`` list — one JSON entry per accepted move;
* ``evo:m:{id}:tok`` hash — sha256(token) -> seat (tokens are never stored in clear);
* ``evo:m:{id}:idem:{sha256(key)}`` string — the first answer to an Idempotency-Key (TTL);
* ``evo:m:{id}:lease:{seat}:{version}`` string — a bot task's claim on a turn (TTL); its
  value says what the search was asked (``worker.carryover``), so a newer task can defer;
* ``evo:active`` sorted set — running matches by last update time (the bot sweep reads it);
* channel ``evo:m:{id}:chg`` — the new version is published on every write.

Every write is a compare-and-set on the match version, done by one Lua script, so two
concurrent writers can never both win and a log entry exists exactly for each accepted move.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import redis

_COMMIT = """
local current = redis.call('HGET', KEYS[1], 'version')
if current ~= ARGV[1] then return 0 end
local fields = cjson.decode(ARGV[2])
for name, value in pairs(fields) do redis.call('HSET', KEYS[1], name, value) end
local entries = cjson.decode(ARGV[3])
for _, entry in ipairs(entries) do redis.call('RPUSH', KEYS[2], entry) end
if ARGV[4] ~= '' then redis.call('SET', KEYS[3], ARGV[4], 'EX', tonumber(ARGV[5])) end
if ARGV[6] ~= '' then redis.call('HSET', KEYS[4], ARGV[6], ARGV[7]) end
if fields['status'] == 'finished' then
  redis.call('ZREM', KEYS[5], ARGV[8])
else
  redis.call('ZADD', KEYS[5], ARGV[9], ARGV[8])
end
redis.call('PUBLISH', ARGV[10], fields['version'] or current)
return 1
"""


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass
class MatchRecord:
    """One match as stored: metadata plus the engine state's JSON text (never parsed here)."""

    id: str
    game: str
    rules_version: str
    options: dict[str, Any]
    seed: int | None
    seats: list[dict[str, Any]]
    status: str  # "waiting" (open seats) | "running" | "finished"
    version: int
    state: str  # engine JSON text
    rng: str  # JSON of random.getstate(); never leaves the server
    result: dict[str, Any] | None
    to_move: list[int]
    created_at: float
    updated_at: float

    def to_fields(self) -> dict[str, str]:
        return {
            "id": self.id, "game": self.game, "rules_version": self.rules_version,
            "options": json.dumps(self.options), "seed": json.dumps(self.seed),
            "seats": json.dumps(self.seats), "status": self.status,
            "version": str(self.version), "state": self.state, "rng": self.rng,
            "result": json.dumps(self.result), "to_move": json.dumps(self.to_move),
            "created_at": repr(self.created_at), "updated_at": repr(self.updated_at),
        }

    @classmethod
    def from_fields(cls, fields: dict[str, str]) -> MatchRecord:
        return cls(
            id=fields["id"], game=fields["game"], rules_version=fields["rules_version"],
            options=json.loads(fields["options"]), seed=json.loads(fields["seed"]),
            seats=json.loads(fields["seats"]), status=fields["status"],
            version=int(fields["version"]), state=fields["state"], rng=fields["rng"],
            result=json.loads(fields["result"]), to_move=json.loads(fields["to_move"]),
            created_at=float(fields["created_at"]), updated_at=float(fields["updated_at"]),
        )


class MatchStore:
    """Reads and compare-and-set writes of matches in Redis."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self._commit = client.register_script(_COMMIT)

    @classmethod
    def from_url(cls, url: str) -> MatchStore:
        return cls(redis.Redis.from_url(url, decode_responses=True, health_check_interval=30))

    # -- keys -------------------------------------------------------------------------------
    @staticmethod
    def _key(match_id: str, suffix: str = "") -> str:
        return f"evo:m:{match_id}{suffix}"

    @staticmethod
    def channel(match_id: str) -> str:
        return f"evo:m:{match_id}:chg"

    # -- reads ------------------------------------------------------------------------------
    def ping(self) -> bool:
        return bool(self.redis.ping())

    def load(self, match_id: str) -> MatchRecord | None:
        fields = self.redis.hgetall(self._key(match_id))
        return MatchRecord.from_fields(fields) if fields else None

    def version(self, match_id: str) -> int | None:
        value = self.redis.hget(self._key(match_id), "version")
        return None if value is None else int(value)

    def seat_for_token(self, match_id: str, token: str) -> int | None:
        seat = self.redis.hget(self._key(match_id, ":tok"), hash_secret(token))
        return None if seat is None else int(seat)

    def log(self, match_id: str, start: int = 0, end: int = -1) -> list[dict[str, Any]]:
        """Log entries ``start..end`` (list indices, inclusive; negative from the end)."""
        return [json.loads(e) for e in self.redis.lrange(self._key(match_id, ":log"), start, end)]

    def idempotent_answer(self, match_id: str, key: str) -> dict[str, Any] | None:
        value = self.redis.get(self._key(match_id, f":idem:{hash_secret(key)}"))
        return None if value is None else json.loads(value)

    def stale_matches(self, older_than: float, limit: int = 500) -> list[str]:
        """Running matches not updated since ``older_than`` (epoch seconds)."""
        return list(self.redis.zrangebyscore("evo:active", "-inf", older_than, 0, limit))

    # -- writes -----------------------------------------------------------------------------
    def create(self, record: MatchRecord, token_hashes: dict[int, str]) -> None:
        """Store a new match (its id must be fresh) with its seats' hashed tokens."""
        key = self._key(record.id)
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(key, mapping=record.to_fields())
            if token_hashes:
                pipe.hset(self._key(record.id, ":tok"),
                          mapping={h: str(seat) for seat, h in token_hashes.items()})
            if record.status != "finished":
                pipe.zadd("evo:active", {record.id: record.updated_at})
            pipe.execute()

    def commit(self, record: MatchRecord, expected_version: int,
               log_entries: Sequence[dict[str, Any]] = (),
               idempotency: tuple[str, dict[str, Any], int] | None = None,
               new_token: tuple[int, str] | None = None) -> bool:
        """Write ``record`` iff the stored version is still ``expected_version``.

        Appends ``log_entries``, stores an Idempotency-Key answer and a new seat token in the
        same atomic step. Returns False (and writes nothing) if another writer won.
        """
        fields = record.to_fields()
        idem_key, idem_value, idem_ttl = "", "", 0
        if idempotency is not None:
            key, answer, idem_ttl = idempotency
            idem_key = self._key(record.id, f":idem:{hash_secret(key)}")
            idem_value = json.dumps(answer)
        token_hash, token_seat = ("", "") if new_token is None else (new_token[1],
                                                                     str(new_token[0]))
        done = self._commit(
            keys=[self._key(record.id), self._key(record.id, ":log"),
                  idem_key or self._key(record.id, ":idem:-"), self._key(record.id, ":tok"),
                  "evo:active"],
            args=[str(expected_version), json.dumps(fields),
                  json.dumps([json.dumps(e) for e in log_entries]) if log_entries else "[]",
                  idem_value, idem_ttl, token_hash, token_seat, record.id, record.updated_at,
                  self.channel(record.id)],
        )
        return bool(done)

    def touch_active(self, match_id: str, when: float | None = None) -> None:
        """Mark a running match as just seen by the sweep (so it is not re-swept at once)."""
        self.redis.zadd("evo:active", {match_id: when or time.time()}, xx=True)

    def claim_bot_turn(self, match_id: str, seat: int, version: int, ttl: float,
                       note: str = "1") -> bool:
        """Take the lease on a bot's turn, storing ``note``; False if another task holds it."""
        key = self._key(match_id, f":lease:{seat}:{version}")
        return bool(self.redis.set(key, note, nx=True, px=int(ttl * 1000)))

    def bot_leases(self, match_id: str, seat: int, versions: Sequence[int]) -> dict[int, str]:
        """The live leases of ``seat`` at any of ``versions``: version -> its note."""
        if not versions:
            return {}
        notes = self.redis.mget([self._key(match_id, f":lease:{seat}:{v}") for v in versions])
        return {v: str(note) for v, note in zip(versions, notes, strict=True) if note is not None}

    def bot_turn_claimed(self, match_id: str, seat: int, version: int) -> bool:
        return bool(self.redis.exists(self._key(match_id, f":lease:{seat}:{version}")))

    def release_bot_turn(self, match_id: str, seat: int, version: int) -> None:
        self.redis.delete(self._key(match_id, f":lease:{seat}:{version}"))

    # -- waiting ----------------------------------------------------------------------------
    def wait_for_change(self, match_id: str, seen_version: int, timeout: float) -> int | None:
        """Block until the match version differs from ``seen_version`` or ``timeout`` passes.

        Subscribes before re-reading the version so that no change can slip in between.
        Returns the current version (None if the match does not exist).
        """
        deadline = time.monotonic() + timeout
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        try:
            pubsub.subscribe(self.channel(match_id))
            while True:
                current = self.version(match_id)
                if current is None or current != seen_version:
                    return current
                left = deadline - time.monotonic()
                if left <= 0:
                    return current
                pubsub.get_message(timeout=min(left, 1.0))
        finally:
            pubsub.close()
