"""The Redis match store: the only code that touches a match's keys (the whole key space,
every store's, is in one table: ``docs/keys.md``).

Key space of one match (prefix ``evo:m:{id}``, braces included: the id is the key's hash tag,
so on Redis Cluster all keys of one match live in one slot and one script can write them;
:func:`match_key` is the only place that spells a match key):

* ``evo:m:{id}`` hash — metadata, seats, serialized state, random state, version, result,
  and since when a waiting person's bots have been deciding (``bots_since``: the start of
  the turn budget, ``shared.bots.turn_budget``);
* ``evo:m:{id}:log`` list — one JSON entry per accepted move;
* ``evo:m:{id}:tok`` hash — sha256(token) -> seat (tokens are never stored in clear);
* ``evo:m:{id}:idem:{sha256(key)}`` string — the first answer to an Idempotency-Key (TTL);
* ``evo:m:{id}:lease:{seat}:{version}`` string — a bot task's claim on a turn (TTL); its
  value says what the search was asked (``shared.matches.carryover``), so a newer task can defer;
* ``evo:m:{id}:logz`` string — an ended match's log, compacted (zlib, base64) in place of the
  list; kept ``log_ttl`` seconds after the end (``LOG_TTL``, at least ``ENDED_TTL``);
* ``evo:m:{id}:result`` string — an ended match as a spectator sees it at its end (result,
  seats, names, seed and commitment, final public view), compacted alike; kept ``result_ttl``
  seconds (``RESULT_TTL``, at least ``ENDED_TTL``), so its result outlives its state;
* an ended match's own keys (state, tokens) expire ``ended_ttl`` seconds after it ends
  (``ENDED_TTL``); the write that ends a match compacts its log, keeps its result and sets
  all these times to live in its one script, so no crash leaves an ended match without them;
* ``evo:m:{id}:hint:{seat}:{version}`` string — the answer to a hint asked at that version
  (JSON, TTL), announced on ``evo:m:{id}:hints``, so a person who asks again (a dropped
  connection, a 202, another seat's hidden choice since) gets it without another search;
  ``evo:m:{id}:hintq:{seat}:{version}`` string — a hint search asked for and not yet
  answered (TTL: the longest it may take); ``evo:m:{id}:hintq:{seat}`` string — the
  question of the seat's latest hint search (``shared.matches.carryover``, TTL);
* ``evo:m:{id}:queued:{seat}:{version}`` string — a bot turn's task is in the queue (set
  before it is sent: by the very commit that hands the turn on, or by the sweep; removed when
  a worker starts it; the lease then says it is running), so the sweep re-enqueues only a
  turn whose task is lost, however long the queue;
* ``evo:active`` sorted set — live matches by last update time (the bot sweep reads it; a
  global index: on a single Redis, a write that leaves the match live updates it, and the
  deadline and waiting indexes, inside its own commit script; on a cluster (another slot) a
  match is added before a write that leaves it live, and everywhere removed after one that
  ends it, so a live match is never missing, and an entry a lost race leaves behind is
  dropped by the sweep when it finds the match over or gone);
* ``evo:deadlines`` sorted set — matches with a move deadline or an idle limit by the
  earliest time a seat's deadline or idle limit passes (``MatchRecord.due_at``);
  ``evo:waiting`` sorted set — waiting matches by creation time (both are
  global indexes: inside the commit on a single Redis, after it on a cluster);
* ``evo:rate:{key}`` string — a per-seat window (:meth:`MatchStore.rate_limit`, TTL);
* ``evo:created:{sha256(key)}`` string — the match an Idempotency-Key created, with the salt
  its seat tokens were derived from (``shared.matches.retries``, TTL);
* ``evo:finishing`` sorted set — finished rated or tournament matches that still owe their
  finish handling (rating, tournament tick), by when they ended. The mark itself is the
  ``finish_owed`` field of the match's hash, written by the very commit that ends the match
  (so it lands with the end or not at all); the global index cannot be written inside that
  script on a cluster (another slot), so, like ``evo:active``, it is written *before* the
  commit: a match that owes its handling is never missing from it. An entry whose write then
  lost its compare-and-set names a live match, which the sweep leaves alone (a later ending
  write re-adds it); the handling clears the field, then drops the entry
  (``shared.tournaments.service``: sent after the commit, and swept);
* channel ``evo:m:{id}:chg`` — the new version is published on every write.

Accounts, tournaments and ratings keep their own keys (``shared.accounts.store``,
``shared.tournaments.store``): no Lua script touches a match's keys and theirs together.

Every write is a compare-and-set on the match version, done by one Lua script, so two
concurrent writers can never both win and a log entry exists exactly for each accepted move.
With ``replica_acks`` > 0 a write is answered only after ``WAIT`` saw it reach that many
replicas (or ``REPLICA_WAIT_MS`` passed), so a failover keeps every move a client was told
was accepted.
"""

from __future__ import annotations

import base64
import json
import logging
import time
import zlib
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import redis
from redis.exceptions import ClusterDownError, MovedError, TryAgainError

from shared.domain.types import LIVE, MatchStatus
from shared.infra import jsontext
from shared.infra.notifier import wait_on
from shared.infra.redis_client import (
    Commands,
    RedisClient,
    connect,
    is_cluster,
    node_client,
    refresh_layout,
)
from shared.infra.secrets import hash_secret
from shared.matches.record import ENDED, MatchRecord

T = TypeVar("T")
log = logging.getLogger(__name__)
REPLICA_WAIT_MS = 500  # the longest a write waits for its replicas' acknowledgement
# A master whose replicas did not acknowledge a write in time (its replica is down, or it is
# a replica just promoted by a failover) is written without waiting this long, then tried
# again: a degraded shard keeps its speed, and regains its guarantee once a replica is back.
UNREPLICATED_SECONDS = 10.0
CLUSTER_ATTEMPTS = 10  # tries of a write sent straight to a node (see MatchStore._run)
# A node that died or gave its slots away: read the cluster's layout again and retry.
RETRIED_ON_NODE = (redis.ConnectionError, redis.TimeoutError, MovedError, ClusterDownError,
                   TryAgainError)

_COMMIT = """
local current = redis.call('HGET', KEYS[1], 'version')
if current ~= ARGV[1] then return 0 end
-- A write that ends the match carries its log compacted (ARGV[11]) as read at this version:
-- the list must still hold the ARGV[10] entries read then, or nothing is written.
local ending = #ARGV > 9
if ending and redis.call('LLEN', KEYS[2]) ~= tonumber(ARGV[10]) then return 0 end
-- ARGV[9]: what else the write does, on KEYS[7..] (by index): the global indexes first (on a
-- single Redis only; a refused index write then leaves nothing written), then the queued
-- marks of the bot turns the write hands on (keys of the match: its slot).
local extra = cjson.decode(ARGV[9])
for _, op in ipairs(extra.zadd) do
  if op[4] then redis.call('ZADD', KEYS[op[1]], 'NX', op[2], op[3])
  else redis.call('ZADD', KEYS[op[1]], op[2], op[3]) end
end
for _, op in ipairs(extra.zrem) do redis.call('ZREM', KEYS[op[1]], op[2]) end
for _, op in ipairs(extra.marks) do redis.call('SET', KEYS[op[1]], op[2], 'PX', op[3]) end
local fields = cjson.decode(ARGV[2])
for name, value in pairs(fields) do redis.call('HSET', KEYS[1], name, value) end
if ARGV[4] ~= '' then redis.call('SET', KEYS[3], ARGV[4], 'EX', tonumber(ARGV[5])) end
if ARGV[6] ~= '' then redis.call('HSET', KEYS[4], ARGV[6], ARGV[7]) end
if ending then
  -- The end, its kept log and result and every time to live land together (issue 18).
  redis.call('SET', KEYS[5], ARGV[11])
  redis.call('DEL', KEYS[2])
  if ARGV[12] ~= '' then redis.call('SET', KEYS[6], ARGV[12]) end
  local ended_ttl = tonumber(ARGV[13])
  if ended_ttl > 0 then
    redis.call('EXPIRE', KEYS[1], ended_ttl)
    redis.call('EXPIRE', KEYS[4], ended_ttl)
    redis.call('EXPIRE', KEYS[5], tonumber(ARGV[14]))
    if ARGV[12] ~= '' then redis.call('EXPIRE', KEYS[6], tonumber(ARGV[15])) end
  end
else
  local entries = cjson.decode(ARGV[3])
  for _, entry in ipairs(entries) do redis.call('RPUSH', KEYS[2], entry) end
end
redis.call('PUBLISH', ARGV[8], fields['version'] or current)
return 1
"""

# Clear an ended match's ``finish_owed`` mark; never recreate a hash whose state expired.
_FINISH_HANDLED = """
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], 'finish_owed', 'false') end
return 1
"""

# Take a bot turn's lease (KEYS[1]) unless another task holds it (0), and give it back at
# once if a task of the same seat holds a newer turn's lease (KEYS[2..]: -1): that task owns
# the turn. One step, so no newer claim slips in between the claim and its check.
_CLAIM = """
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 0 end
for i = 2, #KEYS do
  if redis.call('EXISTS', KEYS[i]) == 1 then
    redis.call('DEL', KEYS[1])
    return -1
  end
end
return 1
"""

_CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local fields = cjson.decode(ARGV[1])
for name, value in pairs(fields) do redis.call('HSET', KEYS[1], name, value) end
local tokens = cjson.decode(ARGV[2])
for hash, seat in pairs(tokens) do redis.call('HSET', KEYS[2], hash, seat) end
return 1
"""


def match_key(match_id: str, suffix: str = "") -> str:
    """The key ``suffix`` of one match; ``{id}`` is its hash tag (one cluster slot)."""
    return f"evo:m:{{{match_id}}}{suffix}"


def _renamed(seats: list[dict[str, Any]], account_id: str, name: str
             ) -> list[dict[str, Any]] | None:
    """``seats`` with ``name`` for the seats of ``account_id`` (None: nothing to change)."""
    if not any(s.get("account") == account_id and s.get("name") != name for s in seats):
        return None
    return [{**s, "name": name} if s.get("account") == account_id else s for s in seats]


def pack(text: str) -> str:
    """``text`` compacted for keeping: zlib at its best level, as base64 (the store's client
    decodes every answer as text)."""
    return base64.b64encode(zlib.compress(text.encode(), 9)).decode()


def unpack(packed: str) -> str:
    return zlib.decompress(base64.b64decode(packed)).decode()


def redis_range(items: list[T], start: int, end: int) -> list[T]:
    """``items[start..end]`` as Redis ``LRANGE`` reads a list (inclusive; negative from the
    end; out of range clipped)."""
    count = len(items)
    first = start if start >= 0 else max(count + start, 0)
    last = end if end >= 0 else count + end
    return items[first:last + 1] if first <= last else []


class MatchStore:
    """Reads and compare-and-set writes of matches in Redis."""

    def __init__(self, client: RedisClient, ended_ttl: int = 0, result_ttl: int = 0,
                 log_ttl: int = 0, replica_acks: int = 0) -> None:
        self.redis = client
        self.ended_ttl = ended_ttl  # seconds an ended match's keys are kept (0: for ever)
        # An ended match's result and log are kept at least as long as the match itself.
        self.result_ttl = 0 if ended_ttl <= 0 else max(result_ttl, ended_ttl)
        self.log_ttl = 0 if ended_ttl <= 0 else max(log_ttl, ended_ttl)
        self.replica_acks = replica_acks  # replicas a write must reach before it is answered
        self._unreplicated: dict[str, float] = {}  # node -> until when it is written unwaited
        self._commit = client.register_script(_COMMIT)
        self._create = client.register_script(_CREATE)
        self._finish_handled = client.register_script(_FINISH_HANDLED)
        self._claim = client.register_script(_CLAIM)

    @classmethod
    def from_url(cls, url: str, ended_ttl: int = 0, max_connections: int = 5000,
                 result_ttl: int = 0, log_ttl: int = 0, cluster_nodes: str = "",
                 replica_acks: int = 0) -> MatchStore:
        """The store on the single Redis at ``url``, or on the cluster of ``cluster_nodes``."""
        return cls(connect(url, cluster_nodes, max_connections), ended_ttl, result_ttl,
                   log_ttl, replica_acks)

    # -- keys -------------------------------------------------------------------------------
    @staticmethod
    def _key(match_id: str, suffix: str = "") -> str:
        return match_key(match_id, suffix)

    @staticmethod
    def channel(match_id: str) -> str:
        return match_key(match_id, ":chg")

    # -- reads ------------------------------------------------------------------------------
    def ping(self) -> bool:
        return bool(self.redis.ping())

    def load(self, match_id: str) -> MatchRecord | None:
        fields = self.redis.hgetall(self._key(match_id))
        return MatchRecord.from_fields(fields) if fields else None

    def load_with_seat(self, match_id: str, token: str | None
                       ) -> tuple[MatchRecord | None, int | None]:
        """The match and the seat whose token ``token`` is (None: no token, or not a seat
        token), read in one round trip: most requests need both."""
        if token is None:
            return self.load(match_id), None
        record, seat, _ = self.load_with_seat_and(match_id, token, lambda _pipe: None)
        return record, seat

    def load_with_seat_and(self, match_id: str, token: str, also: Callable[[Commands], None]
                           ) -> tuple[MatchRecord | None, int | None, list[Any]]:
        """``load_with_seat``, with the reads ``also`` queues (another store's, spelled by
        it: an account key's check) in the same round trip; their replies third."""
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.hgetall(self._key(match_id))
            pipe.hget(self._key(match_id, ":tok"), hash_secret(token))
            also(pipe)
            fields, seat, *more = pipe.execute()
        return (MatchRecord.from_fields(fields) if fields else None,
                None if seat is None else int(seat), more)

    def version(self, match_id: str) -> int | None:
        value = self.redis.hget(self._key(match_id), "version")
        return None if value is None else int(value)

    def statuses(self, match_ids: Sequence[str]) -> list[str | None]:
        """The status of each match (None: no such match)."""
        with self.redis.pipeline(transaction=False) as pipe:
            for match_id in match_ids:
                pipe.hget(self._key(match_id), "status")
            return list(pipe.execute())

    def seat_for_token(self, match_id: str, token: str) -> int | None:
        seat = self.redis.hget(self._key(match_id, ":tok"), hash_secret(token))
        return None if seat is None else int(seat)

    def log(self, match_id: str, start: int = 0, end: int = -1) -> list[dict[str, Any]]:
        """Log entries ``start..end`` (list indices, inclusive; negative from the end), from
        the list of a match not over or the compacted log of an ended one."""
        entries = self.redis.lrange(self._key(match_id, ":log"), start, end)
        if not entries:
            kept = self.kept_log(match_id)
            return [] if kept is None else redis_range(kept, start, end)
        return [json.loads(e) for e in entries]

    def kept_log(self, match_id: str) -> list[dict[str, Any]] | None:
        """An ended match's compacted log (None: not compacted, or no longer kept)."""
        packed = self.redis.get(self._key(match_id, ":logz"))
        return None if packed is None else json.loads(unpack(packed))

    def kept_result(self, match_id: str) -> dict[str, Any] | None:
        """An ended match as kept after its end (None: none kept, or no longer)."""
        packed = self.redis.get(self._key(match_id, ":result"))
        return None if packed is None else json.loads(unpack(packed))

    def idempotent_answer(self, match_id: str, key: str) -> dict[str, Any] | None:
        value = self.redis.get(self._key(match_id, f":idem:{hash_secret(key)}"))
        return None if value is None else json.loads(value)

    # -- a match created under an Idempotency-Key (shared.matches.retries) ------------------
    @staticmethod
    def _creation_key(key: str) -> str:
        return f"evo:created:{hash_secret(key)}"

    def claim_creation(self, key: str, claim: dict[str, Any], ttl: int) -> bool:
        """Note that ``key`` creates the match ``claim`` names, for ``ttl`` seconds (as long
        as a creation may take: a process that dies before :meth:`settle_creation` leaves
        the key free again soon); False if it was already claimed (by an earlier request
        with the key, done or under way)."""
        return bool(self.redis.set(self._creation_key(key), json.dumps(claim), nx=True,
                                   ex=ttl))

    def settle_creation(self, key: str, ttl: int) -> None:
        """Keep a claim whose match now exists for ``ttl`` seconds (retries find it)."""
        self.redis.expire(self._creation_key(key), ttl)

    def creation(self, key: str) -> dict[str, Any] | None:
        """What ``key`` was claimed with (None: no request with it, or it expired)."""
        value = self.redis.get(self._creation_key(key))
        return None if value is None else json.loads(value)

    def release_creation(self, key: str) -> None:
        """Forget a claim whose creation failed, so the request may be sent again."""
        self.redis.delete(self._creation_key(key))

    def stale_matches(self, older_than: float, limit: int = 500) -> list[str]:
        """Running matches not updated since ``older_than`` (epoch seconds)."""
        return list(self.redis.zrangebyscore("evo:active", "-inf", older_than, 0, limit))

    def active_records(self, limit: int) -> list[MatchRecord]:
        """The latest ``limit`` matches not over, the most recently changed first."""
        ids = self.redis.zrevrange("evo:active", 0, limit - 1)
        with self.redis.pipeline(transaction=False) as pipe:
            for match_id in ids:
                pipe.hgetall(self._key(match_id))
            found = pipe.execute()
        return [MatchRecord.from_fields(fields) for fields in found
                if fields and fields.get("status") in LIVE]

    # -- writes -----------------------------------------------------------------------------
    def create(self, record: MatchRecord, token_hashes: dict[int, str]) -> bool:
        """Store a new match with its seats' hashed tokens; False if the id already exists.

        Tournaments choose a match's id before creating it, so a scheduler that died between
        the two steps may create it again: the second creation must change nothing.
        """
        fields = record.to_fields()
        tokens = {h: str(seat) for seat, h in token_hashes.items()}
        self._index_before(record)
        created = self._run(self._create,
                            keys=[self._key(record.id), self._key(record.id, ":tok")],
                            args=[json.dumps(fields), json.dumps(tokens)])
        if not created:
            return False
        self._index_after(record)
        return True

    def _run(self, script: Any, keys: list[str], args: list[Any]) -> Any:
        """Run one match's write script; with ``replica_acks``, answer only once ``WAIT`` saw
        the write reach that many replicas (on the same connection, as WAIT requires).

        A cluster client learns of a failover when one of its own commands fails, so a write
        sent straight to a node that died refreshes the layout and is tried again: a script
        is a compare-and-set, so a write that did land reads as lost to another writer.
        """
        if self.replica_acks <= 0:
            return script(keys=keys, args=args)
        for attempt in range(CLUSTER_ATTEMPTS):
            try:
                node = node_client(self.redis, keys[0])
                where = node.connection_pool.connection_kwargs
                name = f"{where.get('host', where.get('path'))}:{where.get('port', '')}"
                if time.monotonic() < self._unreplicated.get(name, 0.0):
                    return script(keys=keys, args=args, client=node)
                with node.pipeline(transaction=False) as pipe:
                    script(keys=keys, args=args, client=pipe)
                    pipe.execute_command("WAIT", self.replica_acks, REPLICA_WAIT_MS)
                    result, acks = pipe.execute()
            except RETRIED_ON_NODE as exc:
                if not is_cluster(self.redis) or attempt == CLUSTER_ATTEMPTS - 1:
                    raise
                log.info("write to %s failed (%r); reading the cluster layout again",
                         keys[0], exc)
                time.sleep(min(1.0, 0.05 * 2 ** attempt))
                refresh_layout(self.redis)
                continue
            if int(acks) < self.replica_acks:
                log.warning("%s: a write reached %s of %d replicas in %d ms; writing without "
                            "waiting for %g s", name, acks, self.replica_acks,
                            REPLICA_WAIT_MS, UNREPLICATED_SECONDS)
                self._unreplicated[name] = time.monotonic() + UNREPLICATED_SECONDS
            return result
        raise AssertionError("unreachable")

    def _index_before(self, record: MatchRecord) -> None:
        """Before a write that leaves the match live, put it in ``evo:active``: a live match
        is then never missing from the index the sweep reads (an entry whose write then lost
        the race, or never happened, is only looked at again later, and dropped if over).
        Before a write that ends it owing its finish handling, put it in ``evo:finishing``
        alike: the write's own ``finish_owed`` mark is then always findable."""
        if record.status in LIVE:
            self.redis.zadd("evo:active", {record.id: record.updated_at})
        elif record.finish_owed:
            self.redis.zadd("evo:finishing", {record.id: record.updated_at})

    def _index_after(self, record: MatchRecord) -> None:
        """After the write: drop an ended match from ``evo:active``, keep the deadline and
        waiting indexes in step. The write has happened, so its answer must say so: a store
        error here is logged, not raised, and what it left undone is repaired later (the
        sweep drops an ended match it finds in the index; the next write re-indexes
        deadlines). What an ended match keeps, and for how long, is written by the write
        itself, never here."""
        try:
            if record.status not in LIVE:
                self.redis.zrem("evo:active", record.id)
            self.index_deadlines(record)
        except redis.RedisError as exc:
            log.warning("match %s v%d written; its indexes were not updated: %r", record.id,
                        record.version, exc)

    def forget_active(self, match_id: str) -> None:
        """Drop an entry of ``evo:active`` whose match is over or gone (the sweep's repair)."""
        self.redis.zrem("evo:active", match_id)

    def index_deadlines(self, record: MatchRecord) -> None:
        """Keep the global deadline and waiting indexes in step with ``record`` (after a write).

        Two writers may update the index in either order; an entry that is too early only
        makes the deadline sweep look at the match, re-read it and re-index it.
        """
        due = record.due_at()
        with self.redis.pipeline(transaction=False) as pipe:
            if due is None:
                pipe.zrem("evo:deadlines", record.id)
            else:
                pipe.zadd("evo:deadlines", {record.id: due})
            if record.status == MatchStatus.WAITING:
                pipe.zadd("evo:waiting", {record.id: record.created_at}, nx=True)
            else:
                pipe.zrem("evo:waiting", record.id)
            pipe.execute()

    def forget_indexed(self, match_id: str) -> None:
        """Drop a match that no longer exists from the deadline and waiting indexes."""
        self.redis.zrem("evo:deadlines", match_id)
        self.redis.zrem("evo:waiting", match_id)

    def due_deadlines(self, now: float, limit: int = 500) -> list[str]:
        """Matches where some seat's move deadline has passed by ``now``."""
        return list(self.redis.zrangebyscore("evo:deadlines", "-inf", now, 0, limit))

    def waiting_since(self, before: float, limit: int = 500) -> list[str]:
        """Waiting matches created before ``before`` (epoch seconds)."""
        return list(self.redis.zrangebyscore("evo:waiting", "-inf", before, 0, limit))

    def commit(self, record: MatchRecord, expected_version: int,
               log_entries: Sequence[dict[str, Any]] = (),
               idempotency: tuple[str, dict[str, Any], int] | None = None,
               new_token: tuple[int, str] | None = None,
               ended: dict[str, Any] | None = None,
               queued: Sequence[int] = (), queued_ttl: float = 0.0) -> bool:
        """Write ``record`` iff the stored version is still ``expected_version``.

        Appends ``log_entries``, stores an Idempotency-Key answer, a new seat token and the
        queued marks of the bot turns it hands on (``queued``: seats, at the new version,
        for ``queued_ttl`` seconds) in the same atomic step. Returns False (and writes
        nothing) if another writer won. A write that ends the match also keeps, in that same
        step, its log compacted and ``ended`` (the match as a spectator sees it at the end),
        and gives every key of the match its time to live: no crash can leave an ended match
        kept for ever (:meth:`_ending_args`).

        On a single Redis, a write that leaves the match live updates the global indexes in
        that same step too (one round trip, and never out of step with the match); on a
        cluster they live in other slots and are written before and after it
        (:meth:`_index_before`, :meth:`_index_after`), as is an ending write's everywhere.
        """
        # A write that leaves the match live sends only the fields it changes (a move: its
        # version, state, draws, seats to move, times), not all of them for the script to
        # decode and set again; one that ends it sends them all.
        fields = record.to_fields() if record.status in ENDED else record.changed_fields()
        idem_key, idem_value, idem_ttl = "", "", 0
        if idempotency is not None:
            key, answer, idem_ttl = idempotency
            idem_key = self._key(record.id, f":idem:{hash_secret(key)}")
            idem_value = json.dumps(answer)
        token_hash, token_seat = ("", "") if new_token is None else (new_token[1],
                                                                     str(new_token[0]))
        entries = [jsontext.dumps(e) for e in log_entries]
        ending = self._ending_args(record, entries, ended) if record.status in ENDED else []
        keys = [self._key(record.id), self._key(record.id, ":log"),
                idem_key or self._key(record.id, ":idem:-"), self._key(record.id, ":tok"),
                self._key(record.id, ":logz"), self._key(record.id, ":result")]
        extra: dict[str, list[list[Any]]] = {"zadd": [], "zrem": [], "marks": []}

        def key_index(name: str) -> int:
            keys.append(name)
            return len(keys)  # Lua counts from 1

        for seat in queued:
            extra["marks"].append([key_index(self._queued_key(record.id, seat, record.version)),
                                   "1", max(1, int(queued_ttl * 1000))])
        inline = record.status not in ENDED and not is_cluster(self.redis)
        if inline:
            for index, score, member, nx in self._index_adds(record):
                extra["zadd"].append([key_index(index), repr(score), member, nx])
            for index, member in self._index_removals(record):
                extra["zrem"].append([key_index(index), member])
        else:
            self._index_before(record)
        done = self._run(
            self._commit, keys=keys,
            args=[str(expected_version), jsontext.dumps(fields), jsontext.dumps(entries),
                  idem_value, idem_ttl, token_hash, token_seat, self.channel(record.id),
                  jsontext.dumps(extra), *ending],
        )
        if done:
            record.stored = {**record.stored, **fields} if record.stored is not None else None
            if not inline:
                self._index_after(record)
        return bool(done)

    @staticmethod
    def _index_adds(record: MatchRecord) -> list[tuple[str, float, str, bool]]:
        """The index entries a write that leaves ``record`` live adds: (index, score, member,
        only if absent). ``evo:active`` by its last update (:meth:`_index_before`), then
        what :meth:`index_deadlines` adds."""
        adds = [("evo:active", record.updated_at, record.id, False)]
        due = record.due_at()
        if due is not None:
            adds.append(("evo:deadlines", due, record.id, False))
        if record.status == MatchStatus.WAITING:
            adds.append(("evo:waiting", record.created_at, record.id, True))
        return adds

    @staticmethod
    def _index_removals(record: MatchRecord) -> list[tuple[str, str]]:
        """The index entries a write that leaves ``record`` live removes (as
        :meth:`index_deadlines` does)."""
        removals = []
        if record.due_at() is None:
            removals.append(("evo:deadlines", record.id))
        if record.status != MatchStatus.WAITING:
            removals.append(("evo:waiting", record.id))
        return removals

    def _ending_args(self, record: MatchRecord, entries: list[str],
                     ended: dict[str, Any] | None) -> list[Any]:
        """The commit script's arguments for a write that ends the match: the log's length
        as read now, the whole log with ``entries`` compacted, ``ended`` compacted (when
        anything expires: else the match itself answers), and the times to live.

        Lua has no zlib, so the log is read and packed here, before the script; the script
        checks that the list still has the length read, and the version check already makes
        sure no entry was added since (every entry comes with a new version).
        """
        raw = self.redis.lrange(self._key(record.id, ":log"), 0, -1)
        kept = pack(json.dumps(ended)) if ended is not None and self.ended_ttl > 0 else ""
        return [len(raw), pack(f"[{','.join([*raw, *entries])}]"), kept, self.ended_ttl,
                self.log_ttl, self.result_ttl]

    def keep_ended(self, match_id: str, ended: dict[str, Any] | None) -> None:
        """Compact an ended match's log and give its keys their times to live, as the write
        that ended it does (:meth:`commit`): for a match ended before that write did so, whose
        process died before it finished this. Idempotent: one transaction, retried if the
        log changes while it is read (it cannot once the match has ended; WATCH makes sure).
        The sweep runs it on an ended match it finds without them (``shared.bots.turns``).
        """
        log_key = self._key(match_id, ":log")
        with self.redis.pipeline(transaction=True) as pipe:
            while True:
                try:
                    pipe.watch(log_key)
                    raw = pipe.lrange(log_key, 0, -1)
                    pipe.multi()
                    if raw:  # not compacted yet: the list becomes one packed string
                        pipe.set(self._key(match_id, ":logz"), pack(f"[{','.join(raw)}]"))
                        pipe.delete(log_key)
                    if ended is not None and self.ended_ttl > 0:  # else the match answers
                        pipe.set(self._key(match_id, ":result"), pack(json.dumps(ended)))
                    if self.ended_ttl > 0:
                        for suffix in ("", ":tok"):
                            pipe.expire(self._key(match_id, suffix), self.ended_ttl)
                        pipe.expire(self._key(match_id, ":logz"), self.log_ttl)
                        if ended is not None:
                            pipe.expire(self._key(match_id, ":result"), self.result_ttl)
                    pipe.execute()
                    return
                except redis.WatchError:
                    continue

    def rename_kept_seats(self, match_id: str, account_id: str, name: str) -> bool:
        """Show ``name`` for the seats of ``account_id`` in an ended match's kept records
        (its state while kept, its kept result), their times to live unchanged. One
        transaction over the match's own keys (one slot). False if none was changed."""
        match, result = self._key(match_id), self._key(match_id, ":result")
        with self.redis.pipeline(transaction=True) as pipe:
            while True:
                try:
                    pipe.watch(match, result)
                    seats, packed = pipe.hget(match, "seats"), pipe.get(result)
                    ttl = pipe.pttl(result)
                    renamed_seats = _renamed(json.loads(seats or "[]"), account_id, name)
                    kept = None if packed is None else json.loads(unpack(packed))
                    renamed_kept = (None if kept is None else
                                    _renamed(kept.get("seats", []), account_id, name))
                    if renamed_seats is None and renamed_kept is None:
                        pipe.unwatch()
                        return False
                    pipe.multi()
                    if renamed_seats is not None:
                        pipe.hset(match, "seats", json.dumps(renamed_seats))
                    if kept is not None and renamed_kept is not None:
                        text = pack(json.dumps({**kept, "seats": renamed_kept}))
                        pipe.set(result, text, px=ttl if ttl > 0 else None)
                    pipe.execute()
                    return True
                except redis.WatchError:
                    continue

    def unseal(self, match_id: str) -> None:
        """Mark an ended sealed match (``MatchRecord.sealed``) as unsealed: in its hash, if it
        is still kept, and in its kept result, if any. Idempotent; never recreates a key."""
        key, result_key = self._key(match_id), self._key(match_id, ":result")
        with self.redis.pipeline(transaction=True) as pipe:
            while True:
                try:
                    pipe.watch(key, result_key)
                    exists, packed = pipe.exists(key), pipe.get(result_key)
                    pipe.multi()
                    if exists:
                        pipe.hset(key, "sealed", "false")
                    if packed is not None:
                        kept = {**json.loads(unpack(packed)), "sealed": False}
                        pipe.set(result_key, pack(json.dumps(kept)), keepttl=True)
                    pipe.execute()
                    return
                except redis.WatchError:
                    continue

    def needs_keeping(self, match_id: str) -> bool:
        """Whether an ended match still lacks what its end keeps: a log not compacted, or
        (when anything expires) a state without a time to live."""
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.exists(self._key(match_id, ":log"))
            pipe.ttl(self._key(match_id))
            listed, ttl = pipe.execute()
        return bool(listed) or (self.ended_ttl > 0 and ttl == -1)

    def owed_finishes(self, ended_before: float, limit: int = 100) -> list[str]:
        """Matches in ``evo:finishing`` since before ``ended_before`` (epoch seconds)."""
        return list(self.redis.zrangebyscore("evo:finishing", "-inf", ended_before, 0, limit))

    def finish_handled(self, match_id: str) -> None:
        """An ended match's finish handling is done: clear its mark, then its index entry (a
        crash in between leaves an entry the sweep drops, finding no mark). Only for a match
        that has ended: a live match's entry may belong to a write about to end it."""
        self._finish_handled(keys=[self._key(match_id)], args=[])
        self.redis.zrem("evo:finishing", match_id)

    def touch_finishing(self, match_id: str, when: float) -> None:
        """Look at a live match's ``evo:finishing`` entry (left by a write that lost its
        compare-and-set) again only later; never dropped while the match lives."""
        self.redis.zadd("evo:finishing", {match_id: when}, xx=True)

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

    def _queued_key(self, match_id: str, seat: int, version: int) -> str:
        return self._key(match_id, f":queued:{seat}:{version}")

    def _lease_key(self, match_id: str, seat: int, version: int) -> str:
        return self._key(match_id, f":lease:{seat}:{version}")

    def start_bot_turn(self, match_id: str, seat: int, version: int, window: int
                       ) -> tuple[MatchRecord | None, dict[int, str]]:
        """A bot turn's task starts, in one round trip: its queued mark goes (the lease it
        takes next says it runs), and the match is read with ``seat``'s live leases at the
        ``window - 1`` versions before ``version`` (version -> note: an earlier search that
        may answer this turn, ``shared.matches.carryover``)."""
        earlier = list(range(max(0, version - window + 1), version))
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.delete(self._queued_key(match_id, seat, version))
            pipe.hgetall(self._key(match_id))
            for v in earlier:  # GETs, not MGET: a cluster's pipeline refuses MGET
                pipe.get(self._lease_key(match_id, seat, v))
            _, fields, *notes = pipe.execute()
        leases = {v: str(note) for v, note in zip(earlier, notes, strict=True)
                  if note is not None}
        return (MatchRecord.from_fields(fields) if fields else None), leases

    def claim_newest_bot_turn(self, match_id: str, seat: int, version: int, ttl: float,
                              note: str, newer: Sequence[int]) -> str:
        """Take the lease on a bot's turn, storing ``note``: ``"ok"``; ``"claimed"`` if
        another task holds it; ``"stale"`` (and no lease) if a task of the same seat holds
        the lease of one of the ``newer`` versions (that task owns the turn)."""
        keys = [self._lease_key(match_id, seat, v) for v in (version, *newer)]
        taken = int(self._claim(keys=keys, args=[note, max(1, int(ttl * 1000))]))
        return {1: "ok", 0: "claimed"}.get(taken, "stale")

    def mark_turn_queued(self, match_id: str, seat: int, version: int, ttl: float) -> None:
        """Note that a task for this turn is being sent (``ttl``: the broker's redelivery
        bound, after which a message that still exists would have come back anyway)."""
        self.redis.set(self._key(match_id, f":queued:{seat}:{version}"), "1",
                       px=int(ttl * 1000))

    def unmark_turn_queued(self, match_id: str, seat: int, version: int) -> None:
        self.redis.delete(self._key(match_id, f":queued:{seat}:{version}"))

    def turn_queued(self, match_id: str, seat: int, version: int) -> bool:
        return bool(self.redis.exists(self._key(match_id, f":queued:{seat}:{version}")))

    def bot_turn_claimed(self, match_id: str, seat: int, version: int) -> bool:
        return bool(self.redis.exists(self._key(match_id, f":lease:{seat}:{version}")))

    def release_bot_turn(self, match_id: str, seat: int, version: int) -> None:
        self.redis.delete(self._key(match_id, f":lease:{seat}:{version}"))

    # -- hints ------------------------------------------------------------------------------
    def hint_channel(self, match_id: str) -> str:
        return self._key(match_id, ":hints")

    def claim_hint(self, match_id: str, seat: int, version: int, ttl: float) -> bool:
        """Note that a hint search for this question is asked; False if one already is."""
        key = self._key(match_id, f":hintq:{seat}:{version}")
        return bool(self.redis.set(key, "1", nx=True, px=int(ttl * 1000)))

    def release_hint(self, match_id: str, seat: int, version: int) -> None:
        """Forget an asked search that will not answer (so the next ask sends another)."""
        self.redis.delete(self._key(match_id, f":hintq:{seat}:{version}"))
        last = self.last_hint_question(match_id, seat)
        if last is not None and json.loads(last).get("version") == version:
            self.redis.delete(self._key(match_id, f":hintq:{seat}"))

    def note_hint_question(self, match_id: str, seat: int, question: str, ttl: float) -> None:
        """Remember the question of the seat's latest hint search (``shared.matches.carryover``)."""
        self.redis.set(self._key(match_id, f":hintq:{seat}"), question, px=int(ttl * 1000))

    def last_hint_question(self, match_id: str, seat: int) -> str | None:
        return self.redis.get(self._key(match_id, f":hintq:{seat}"))

    def hint_asked(self, match_id: str, seat: int, version: int) -> bool:
        """Whether a hint search at ``version`` is under way or answered."""
        return bool(self.redis.exists(self._key(match_id, f":hintq:{seat}:{version}"),
                                      self._key(match_id, f":hint:{seat}:{version}")))

    def keep_hint(self, match_id: str, seat: int, version: int, answer: dict[str, Any],
                  ttl: float) -> None:
        """Keep a hint's answer for ``ttl`` seconds and wake those waiting for it."""
        self.redis.set(self._key(match_id, f":hint:{seat}:{version}"), json.dumps(answer),
                       px=int(ttl * 1000))
        self.redis.publish(self.hint_channel(match_id), f"{seat}:{version}")

    def kept_hint(self, match_id: str, seat: int, version: int) -> dict[str, Any] | None:
        raw = self.redis.get(self._key(match_id, f":hint:{seat}:{version}"))
        return None if raw is None else json.loads(raw)

    def wait_for_hint(self, match_id: str, seat: int, version: int,
                      timeout: float) -> dict[str, Any] | None:
        """The kept answer to this question, waiting up to ``timeout`` seconds for it."""
        key = self._key(match_id, f":hint:{seat}:{version}")
        raw = wait_on(self.redis, [self.hint_channel(match_id)],
                      lambda: self.redis.get(key) or "", "", timeout)
        return json.loads(raw) if raw else None

    def rate_limit(self, key: str, seconds: float) -> float:
        """0.0 if the caller named ``key`` may go ahead now (a window of ``seconds`` starts),
        else the seconds left of its current window."""
        full = f"evo:rate:{key}"
        if self.redis.set(full, "1", nx=True, px=max(1, int(seconds * 1000))):
            return 0.0
        return max(int(self.redis.pttl(full)), 1) / 1000

    # -- waiting ----------------------------------------------------------------------------
    def wait_for_change(self, match_id: str, seen_version: int, timeout: float) -> int | None:
        """Block until the match version differs from ``seen_version`` or ``timeout`` passes.

        Returns the current version (None if the match does not exist).
        """
        seen: int | None = seen_version  # what ``version`` reads (mypy would take ``int``)
        return wait_on(self.redis, [self.channel(match_id)], lambda: self.version(match_id),
                       seen, timeout)


    # -- several matches at once (an account's turns) ---------------------------------------
    def load_many(self, match_ids: Sequence[str]) -> list[MatchRecord | None]:
        """Each match (None: no such match), read in one pipeline."""
        with self.redis.pipeline(transaction=False) as pipe:
            for match_id in match_ids:
                pipe.hgetall(self._key(match_id))
            found = pipe.execute()
        return [MatchRecord.from_fields(fields) if fields else None for fields in found]

    def versions(self, match_ids: Sequence[str]) -> list[int | None]:
        """Each match's version (None: no such match), read in one pipeline."""
        with self.redis.pipeline(transaction=False) as pipe:
            for match_id in match_ids:
                pipe.hget(self._key(match_id), "version")
            found = pipe.execute()
        return [None if value is None else int(value) for value in found]
