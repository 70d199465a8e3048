"""Redis keys of notifications (the store of :mod:`shared.notifications.service`).

Every key of one account's notifications shares the hash tag ``{<account id>}``, so each
script below touches one slot (a Redis Cluster runs it on one node):

* ``evo:n:{<id>}:s`` stream — the notifications in order (field ``n``: the notification as
  JSON), capped at ``keep`` entries (``XADD MAXLEN``): what ``GET /v1/me/stream`` replays
  after a ``Last-Event-ID`` (the entry's id);
* ``evo:n:{<id>}:d`` hash — delivery id -> the notification (JSON, written once);
* ``evo:n:{<id>}:st`` hash — delivery id -> its webhook delivery's state (JSON of scalars:
  ``state``, ``attempts``, ``budget``, ``last_status``, ``next_attempt_at``);
* ``evo:n:{<id>}:o`` sorted set — delivery ids by creation, trimmed to ``keep`` (the log);
* ``evo:n:{<id>}:hook`` string — the account's notification webhook URL;
* ``evo:n:{<id>}:lease:<delivery id>`` string — an attempt under way (its number);
* ``evo:n:{<id>}:chg`` channel — a new notification (wakes the account's event streams);
* ``evo:n:due`` sorted set — ``<account id> <delivery id>`` of each delivery waiting for a
  retry, by when it is due: the sweep's backstop for a retry task that was lost.

Every key but the channel and the lease expires ``retention`` seconds after the account's
last notification or change of its webhook.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from shared.infra.notifier import wait_on
from shared.infra.redis_client import RedisClient

T = TypeVar("T")

# Append a notification unless its delivery id is known (KEYS: d, st, o, s, hook, the channel
# it is announced on; ARGV: id,
# notification JSON, state JSON with a webhook, state JSON without one, keep, now,
# retention seconds). Returns {stream id, 1 if the webhook is to be called} or false.
_APPEND = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return false end
local url = redis.call('GET', KEYS[5])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[1], url and ARGV[3] or ARGV[4])
redis.call('ZADD', KEYS[3], ARGV[6], ARGV[1])
local extra = redis.call('ZCARD', KEYS[3]) - tonumber(ARGV[5])
if extra > 0 then
  local old = redis.call('ZRANGE', KEYS[3], 0, extra - 1)
  redis.call('HDEL', KEYS[1], unpack(old))
  redis.call('HDEL', KEYS[2], unpack(old))
  redis.call('ZREMRANGEBYRANK', KEYS[3], 0, extra - 1)
end
local sid = redis.call('XADD', KEYS[4], 'MAXLEN', ARGV[5], '*', 'n', ARGV[2])
if tonumber(ARGV[7]) > 0 then
  for i = 1, 5 do redis.call('EXPIRE', KEYS[i], ARGV[7]) end
end
redis.call('PUBLISH', KEYS[6], sid)
return {sid, url and 1 or 0}
"""
# Take an attempt (KEYS: d, st, lease, hook; ARGV: id, attempt number, lease ms): only while
# the delivery is pending at that attempt and no other attempt holds it. Returns
# {notification, state, url or ''} or false.
_CLAIM = """
local raw = redis.call('HGET', KEYS[2], ARGV[1])
if not raw then return false end
local st = cjson.decode(raw)
if st.state ~= 'pending' or tonumber(st.attempts) ~= tonumber(ARGV[2]) then return false end
if not redis.call('SET', KEYS[3], ARGV[2], 'NX', 'PX', ARGV[3]) then return false end
return {redis.call('HGET', KEYS[1], ARGV[1]), raw, redis.call('GET', KEYS[4]) or ''}
"""
# An attempt's outcome (KEYS: st, lease; ARGV: id, attempt number, the new state JSON):
# written only by the lease's holder, which then lets go.
_FINISH = """
if redis.call('GET', KEYS[2]) ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('DEL', KEYS[2])
return 1
"""
# Deliver again (KEYS: st, lease, hook; ARGV: id, more attempts, now): pending again with
# ``more`` attempts on top of those made. -1: unknown id, -2: an attempt is under way,
# -3: no webhook; else the new state JSON.
_REDELIVER = """
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return -1 end
if redis.call('EXISTS', KEYS[2]) == 1 then return -2 end
if not redis.call('GET', KEYS[3]) then return -3 end
local st = cjson.decode(raw)
st.state = 'pending'
st.budget = tonumber(st.attempts) + tonumber(ARGV[2])
st.next_attempt_at = tonumber(ARGV[3])
local new = cjson.encode(st)
redis.call('HSET', KEYS[1], ARGV[1], new)
return new
"""
# The stream's entries after an id (KEYS: s; ARGV: exclusive start, count), and its last id.
_AFTER = "return redis.call('XRANGE', KEYS[1], ARGV[1], '+', 'COUNT', ARGV[2])"
_LAST = """
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if last[1] then return last[1][1] end
return '0-0'
"""


DUE = "evo:n:due"


class NotificationStore:
    def __init__(self, client: RedisClient, keep: int = 1000, retention: int = 0) -> None:
        self.redis = client
        self.keep = keep  # notifications kept per account (stream and log)
        self.retention = retention  # seconds kept after the last write (0: for ever)
        self._append = client.register_script(_APPEND)
        self._claim = client.register_script(_CLAIM)
        self._finish = client.register_script(_FINISH)
        self._redeliver = client.register_script(_REDELIVER)
        self._after = client.register_script(_AFTER)
        self._last = client.register_script(_LAST)

    @staticmethod
    def _key(account_id: str, suffix: str) -> str:
        return f"evo:n:{{{account_id}}}:{suffix}"

    def channel(self, account_id: str) -> str:
        return self._key(account_id, "chg")

    def append(self, account_id: str, note: dict[str, Any], hooked: dict[str, Any],
               unhooked: dict[str, Any], now: float) -> tuple[str, bool] | None:
        """Add ``note`` (its ``id`` the delivery id) to the stream and the log, its state
        ``hooked`` if the account has a webhook, else ``unhooked``; wake its streams.
        Returns (stream id, whether to call the webhook), or None for a known id."""
        k = self._key
        done = self._append(keys=[k(account_id, "d"), k(account_id, "st"), k(account_id, "o"),
                                  k(account_id, "s"), k(account_id, "hook"),
                                  self.channel(account_id)],
                            args=[note["id"], json.dumps(note), json.dumps(hooked),
                                  json.dumps(unhooked), self.keep, now, self.retention])
        if not done:
            return None
        return str(done[0]), bool(int(done[1]))

    def after(self, account_id: str, last_id: str, count: int
              ) -> list[tuple[str, dict[str, Any]]]:
        """Up to ``count`` stream entries after ``last_id``: (stream id, notification)."""
        found = self._after(keys=[self._key(account_id, "s")], args=[f"({last_id}", count])
        return [(str(sid), json.loads(dict(zip(fields[::2], fields[1::2], strict=True))["n"]))
                for sid, fields in found]

    def last_id(self, account_id: str) -> str:
        """The stream's newest entry id (``0-0`` when empty)."""
        return str(self._last(keys=[self._key(account_id, "s")]))

    def wait(self, account_id: str, read: Callable[[], T], seen: T, timeout: float) -> T:
        return wait_on(self.redis, [self.channel(account_id)], read, seen, timeout)

    # -- the webhook ------------------------------------------------------------------------
    def set_webhook(self, account_id: str, url: str | None) -> None:
        key = self._key(account_id, "hook")
        if url is None:
            self.redis.delete(key)
        elif self.retention > 0:
            self.redis.set(key, url, ex=self.retention)
        else:
            self.redis.set(key, url)

    def webhook(self, account_id: str) -> str | None:
        return self.redis.get(self._key(account_id, "hook"))

    # -- deliveries -------------------------------------------------------------------------
    def claim(self, account_id: str, delivery_id: str, attempt: int, lease_seconds: float
              ) -> tuple[dict[str, Any], dict[str, Any], str] | None:
        """Take attempt ``attempt`` of a delivery: (notification, state, webhook URL or ''),
        or None if it is not pending at that attempt or another attempt holds it."""
        k = self._key
        found = self._claim(keys=[k(account_id, "d"), k(account_id, "st"),
                                  k(account_id, f"lease:{delivery_id}"), k(account_id, "hook")],
                            args=[delivery_id, attempt, max(1, round(lease_seconds * 1000))])
        if not found:
            return None
        return json.loads(found[0]), json.loads(found[1]), str(found[2])

    def finish(self, account_id: str, delivery_id: str, attempt: int,
               state: dict[str, Any]) -> bool:
        """Write an attempt's outcome (by the lease's holder only); a delivery left pending
        is noted as due at its next attempt, one settled is no longer."""
        k = self._key
        done = bool(self._finish(keys=[k(account_id, "st"), k(account_id, f"lease:{delivery_id}")],
                                 args=[delivery_id, attempt, json.dumps(state)]))
        member = f"{account_id} {delivery_id}"
        if state["state"] == "pending":  # another slot on a cluster: a command of its own
            self.redis.zadd(DUE, {member: float(state["next_attempt_at"])})
        else:
            self.redis.zrem(DUE, member)
        return done

    def overdue(self, before: float, limit: int, hold: float
                ) -> list[tuple[str, str, dict[str, Any] | None]]:
        """Up to ``limit`` deliveries due before ``before``: (account, delivery, its state or
        None if gone). Each is held off for ``hold`` seconds (the next sweep leaves it to the
        task sent now); a gone or settled one is dropped."""
        members = self.redis.zrangebyscore(DUE, "-inf", before, start=0, num=limit)
        if not members:
            return []
        pairs = [tuple(m.split(" ", 1)) for m in members]
        with self.redis.pipeline(transaction=False) as pipe:
            for account_id, delivery_id in pairs:
                pipe.hget(self._key(account_id, "st"), delivery_id)
            states = [json.loads(raw) if raw else None for raw in pipe.execute()]
        found = []
        for (account_id, delivery_id), state, member in zip(pairs, states, members, strict=True):
            if state is None or state["state"] != "pending":
                self.redis.zrem(DUE, member)
            else:
                self.redis.zadd(DUE, {member: before + hold})
            found.append((account_id, delivery_id, state))
        return found

    def redeliver(self, account_id: str, delivery_id: str, more: int, now: float
                  ) -> dict[str, Any] | int:
        """The delivery pending again (its new state), or -1 (unknown), -2 (an attempt is
        under way), -3 (no webhook)."""
        k = self._key
        found = self._redeliver(keys=[k(account_id, "st"), k(account_id, f"lease:{delivery_id}"),
                                      k(account_id, "hook")], args=[delivery_id, more, now])
        if isinstance(found, int):
            return found
        return dict(json.loads(found))

    def deliveries(self, account_id: str, limit: int, ids: Sequence[str] | None = None
                   ) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        """The newest ``limit`` deliveries (or those of ``ids``), newest first:
        (notification, state) each."""
        if ids is None:
            ids = self.redis.zrevrange(self._key(account_id, "o"), 0, limit - 1)
        if not ids:
            return []
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.hmget(self._key(account_id, "d"), ids)
            pipe.hmget(self._key(account_id, "st"), ids)
            notes, states = pipe.execute()
        return [(json.loads(n), json.loads(s)) for n, s in zip(notes, states, strict=True)
                if n is not None and s is not None]

    def delete(self, account_id: str) -> None:
        """Forget a deleted account's notifications."""
        self.redis.delete(*[self._key(account_id, s) for s in ("s", "d", "st", "o", "hook")])
