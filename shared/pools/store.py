"""Quick-play pools in Redis. Every key of one pool carries the pool's id as its hash tag, so
one Lua script sees the whole pool in one Redis Cluster slot and matches atomically:

* ``evo:pool:{<pool>}:q`` sorted set — the waiting accounts by the time they joined;
* ``evo:pool:{<pool>}:t`` hash — account -> its ticket (JSON: rating, joined, seen, bot
  level, status, match, seat); an ended ticket is kept ``keep`` seconds to be read;
* ``evo:pool:{<pool>}:done`` sorted set — ended tickets by their end (their clean-up);
* ``evo:pool:{<pool>}:pending`` hash — match id -> the match the script formed and nobody has
  created yet (seats, tickets): whoever runs the script next creates it, so a node that dies
  between the two steps loses nobody;
* ``evo:pool:{<pool>}:seq`` counter — makes the script's match ids unique;
* ``evo:pool:{<pool>}:chg`` channel — a ticket changed (wakes long-polls);
* ``evo:pools`` hash — pool id -> its game, players and options (the listing, the sweep);
* ``evo:pools:a:<account>`` string — ``<pool>|<since>``: the pool the account waits in, so
  that it waits in one pool at a time (another slot: checked before the pool's script).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from shared.infra.notifier import wait_on
from shared.infra.redis_client import RedisClient

T = TypeVar("T")

INDEX = "evo:pools"
CLAIM_SECONDS = 86400  # an account's pool claim: only a stale one outlives its ticket

# One pool's match: the waiting tickets (oldest first, at most ``scan``) whose poller went
# quiet are dropped; then for each ticket still free, oldest first, the nearest free ratings
# join its group while the group's spread fits every member's window (a window widens with
# its owner's wait, as Lichess's pools do). A full group is a match; a ticket whose owner
# accepts a bot and has waited ``botwait`` gets its group (those also accepting bots)
# completed by bots of its level. Returns the pending matches to create: the new ones and
# any left by a node that died before creating them (older than ``stale``).
_MATCH = """
local q, tickets, pending, seq, done = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local now, n = tonumber(ARGV[1]), tonumber(ARGV[2])
local base, widen, maxw = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local botwait, idle, keep = tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8])
local prefix, scan, stale, channel = ARGV[9], tonumber(ARGV[10]), tonumber(ARGV[11]), ARGV[12]
for _, id in ipairs(redis.call('ZRANGEBYSCORE', done, '-inf', now - keep)) do
  redis.call('HDEL', tickets, id)
  redis.call('ZREM', done, id)
end
local function finish(id, t, status)
  t.status = status
  redis.call('HSET', tickets, id, cjson.encode(t))
  redis.call('ZREM', q, id)
  redis.call('ZADD', done, now, id)
end
local free, changed = {}, false
for _, id in ipairs(redis.call('ZRANGE', q, 0, scan - 1)) do
  local raw = redis.call('HGET', tickets, id)
  if not raw then
    redis.call('ZREM', q, id)
  else
    local t = cjson.decode(raw)
    if now - t.seen > idle then
      finish(id, t, 'dropped')
      changed = true
    else
      local w = math.min(maxw, base + widen * math.max(0, now - t.joined))
      table.insert(free, {id = id, t = t, r = t.rating, w = w})
    end
  end
end
local used, out, new = {}, {}, {}
local function form(group, bots, level)
  local mid = prefix .. string.format('%04x', redis.call('INCR', seq) % 65536)
  local seats, ids = {}, {}
  for i, e in ipairs(group) do
    used[e.id] = true
    e.t.match, e.t.seat = mid, i - 1
    finish(e.id, e.t, 'matched')
    table.insert(seats, {kind = 'account', account = e.t.account})
    table.insert(ids, e.id)
  end
  for _ = 1, bots do
    table.insert(seats, {kind = 'bot', bot = {kind = 'ismcts', level = level}})
  end
  local entry = cjson.encode({id = mid, at = now, seats = seats, tickets = ids})
  redis.call('HSET', pending, mid, entry)
  new[mid], changed = true, true
end
-- By rating, so each ticket's nearest are its neighbours: a pass costs about the tickets
-- within each one's window, not a sort of the whole pool per ticket.
local byr = {}
for i, e in ipairs(free) do byr[i] = e end
table.sort(byr, function(x, y)
  if x.r ~= y.r then return x.r < y.r end
  return x.t.joined < y.t.joined
end)
for i, e in ipairs(byr) do e.pos = i end
for _, a in ipairs(free) do
  if not used[a.id] then
    local group, lo, hi, minw = {a}, a.r, a.r, a.w
    local botted = {a}
    local left, right = a.pos - 1, a.pos + 1
    while #group < n do
      while left >= 1 and used[byr[left].id] do left = left - 1 end
      while right <= #byr and used[byr[right].id] do right = right + 1 end
      local c
      if left >= 1 and right <= #byr then
        local dl, dr = a.r - byr[left].r, byr[right].r - a.r
        if dl < dr or (dl == dr and byr[left].t.joined <= byr[right].t.joined) then
          c, left = byr[left], left - 1
        else
          c, right = byr[right], right + 1
        end
      elseif left >= 1 then
        c, left = byr[left], left - 1
      elseif right <= #byr then
        c, right = byr[right], right + 1
      else
        break
      end
      if math.abs(c.r - a.r) > a.w then break end  -- the nearest left no longer fit a
      local nlo, nhi, nw = math.min(lo, c.r), math.max(hi, c.r), math.min(minw, c.w)
      if nhi - nlo <= nw then
        table.insert(group, c)
        if c.t.bot ~= '' and #botted < n - 1 then table.insert(botted, c) end
        lo, hi, minw = nlo, nhi, nw
      end
    end
    if #group == n then
      form(group, 0, '')
    elseif a.t.bot ~= '' and now - a.t.joined >= botwait then
      form(botted, n - #botted, a.t.bot)
    end
  end
end
for _, raw in ipairs(redis.call('HVALS', pending)) do
  local e = cjson.decode(raw)
  if new[e.id] or now - e.at >= stale then table.insert(out, raw) end
end
if changed then redis.call('PUBLISH', channel, now) end
return out
"""

# Join (or, already waiting, update the bot choice and stay in place).
_JOIN = """
local raw = redis.call('HGET', KEYS[2], ARGV[1])
if raw then
  local t = cjson.decode(raw)
  if t.status == 'waiting' then
    t.bot, t.seen = ARGV[3], tonumber(ARGV[4])
    raw = cjson.encode(t)
    redis.call('HSET', KEYS[2], ARGV[1], raw)
    return {0, raw}
  end
end
local t = cjson.decode(ARGV[2])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[1], t.joined, ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
return {1, ARGV[2]}
"""

# A poll: note that the ticket's owner is still there; tell whether its match is created.
_TOUCH = """
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return false end
local t = cjson.decode(raw)
if t.status == 'waiting' then
  t.seen = tonumber(ARGV[2])
  raw = cjson.encode(t)
  redis.call('HSET', KEYS[1], ARGV[1], raw)
end
local forming = 0
if t.match and redis.call('HEXISTS', KEYS[2], t.match) == 1 then forming = 1 end
return {raw, forming}
"""

_LEAVE = """
local raw = redis.call('HGET', KEYS[2], ARGV[1])
if not raw then return false end
local t = cjson.decode(raw)
if t.status ~= 'waiting' then return {0, raw} end
t.status = 'left'
raw = cjson.encode(t)
redis.call('HSET', KEYS[2], ARGV[1], raw)
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[3], tonumber(ARGV[2]), ARGV[1])
redis.call('PUBLISH', ARGV[3], ARGV[2])
return {1, raw}
"""

# A pending match that cannot be created: its tickets end as ``failed`` (with why).
_FAIL = """
local raw = redis.call('HGET', KEYS[3], ARGV[1])
if not raw then return 0 end
for _, id in ipairs(cjson.decode(raw).tickets) do
  local t = redis.call('HGET', KEYS[1], id)
  if t then
    t = cjson.decode(t)
    if t.match == ARGV[1] then
      t.status, t.detail = 'failed', ARGV[2]
      redis.call('HSET', KEYS[1], id, cjson.encode(t))
      redis.call('ZADD', KEYS[2], tonumber(ARGV[3]), id)
    end
  end
end
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('PUBLISH', ARGV[4], ARGV[3])
return 1
"""

# The account's claim on one pool: taken if free, already this pool's, or still holding the
# value the caller found stale.
_CLAIM = """
local cur = redis.call('GET', KEYS[1])
if not cur or cur == ARGV[3] or string.match(cur, '^(.-)|') == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1] .. '|' .. ARGV[2], 'EX', tonumber(ARGV[4]))
  return false
end
return cur
"""

_UNCLAIM = """
local cur = redis.call('GET', KEYS[1])
if cur and string.match(cur, '^(.-)|') == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0
"""


@dataclass(frozen=True)
class MatchRules:
    """How one matching pass widens windows and fills seats (the pool settings)."""

    players: int
    window: float
    widen_per_second: float
    max_window: float
    bot_fill_seconds: float
    idle_seconds: float
    keep_seconds: float = 600.0
    scan: int = 500  # waiting tickets one pass looks at, oldest first
    stale_seconds: float = 5.0  # a pending match older than this is created by anyone


class PoolStore:
    def __init__(self, client: RedisClient) -> None:
        self.redis = client
        self._match = client.register_script(_MATCH)
        self._join = client.register_script(_JOIN)
        self._touch = client.register_script(_TOUCH)
        self._leave = client.register_script(_LEAVE)
        self._fail = client.register_script(_FAIL)
        self._claim = client.register_script(_CLAIM)
        self._unclaim = client.register_script(_UNCLAIM)

    @staticmethod
    def _key(pool: str, suffix: str) -> str:
        # The pool is the hash tag: one script reads and writes all of a pool's keys.
        return f"evo:pool:{{{pool}}}:{suffix}"

    @staticmethod
    def _claim_key(account: str) -> str:
        return f"evo:pools:a:{account}"

    def channel(self, pool: str) -> str:
        return self._key(pool, "chg")

    def wait(self, pool: str, read: Callable[[], T], seen: T, timeout: float) -> T:
        """Block until ``read()`` differs from ``seen`` or ``timeout`` passes, woken by any
        change of the pool's tickets."""
        return wait_on(self.redis, [self.channel(pool)], read, seen, timeout)

    # -- the pools --------------------------------------------------------------------------
    def describe(self, pool: str, meta: dict[str, Any]) -> None:
        self.redis.hset(INDEX, pool, json.dumps(meta, sort_keys=True))

    def pools(self) -> dict[str, dict[str, Any]]:
        return {pool: json.loads(raw) for pool, raw in self.redis.hgetall(INDEX).items()}

    def meta(self, pool: str) -> dict[str, Any] | None:
        raw = self.redis.hget(INDEX, pool)
        return None if raw is None else dict(json.loads(raw))

    def waiting_counts(self, pools: list[str]) -> list[int]:
        with self.redis.pipeline(transaction=False) as pipe:
            for pool in pools:
                pipe.zcard(self._key(pool, "q"))
            return [int(count) for count in pipe.execute()]

    # -- an account's claim -----------------------------------------------------------------
    def claim(self, account: str, pool: str, stale: str = "") -> tuple[str, float] | None:
        """Claim ``pool`` for ``account``; None if done, else the other claim found (pool,
        since). ``stale``: the raw claim the caller found stale, taken over if unchanged."""
        found = self._claim(keys=[self._claim_key(account)],
                            args=[pool, f"{time.time():.3f}", stale, CLAIM_SECONDS])
        if not found:
            return None
        other, _, since = str(found).partition("|")
        return other, float(since or 0)

    def raw_claim(self, account: str) -> str | None:
        return self.redis.get(self._claim_key(account))

    def claimed_pool(self, account: str) -> str | None:
        raw = self.raw_claim(account)
        return None if raw is None else raw.partition("|")[0]

    def unclaim(self, account: str, pool: str) -> None:
        self._unclaim(keys=[self._claim_key(account)], args=[pool])

    # -- tickets ----------------------------------------------------------------------------
    def join(self, pool: str, account: str, rating: float, bot: str, now: float
             ) -> tuple[bool, dict[str, Any]]:
        """Add the account's ticket (True), or update the waiting one's bot choice (False)."""
        ticket = {"account": account, "rating": rating, "joined": now, "seen": now,
                  "bot": bot, "status": "waiting"}
        new, raw = self._join(keys=[self._key(pool, "q"), self._key(pool, "t"),
                                    self._key(pool, "done")],
                              args=[account, json.dumps(ticket), bot, now])
        return bool(new), dict(json.loads(raw))

    def touch(self, pool: str, account: str, now: float) -> tuple[dict[str, Any], bool] | None:
        """The ticket (its owner noted as present if it waits) and whether its match is
        still being created; None if there is none."""
        found = self._touch(keys=[self._key(pool, "t"), self._key(pool, "pending")],
                            args=[account, now])
        if not found:
            return None
        return dict(json.loads(found[0])), bool(found[1])

    def leave(self, pool: str, account: str, now: float) -> tuple[bool, dict[str, Any]] | None:
        """End a waiting ticket (True); an ended one is returned unchanged (False)."""
        found = self._leave(keys=[self._key(pool, "q"), self._key(pool, "t"),
                                  self._key(pool, "done")],
                            args=[account, now, self.channel(pool)])
        if not found:
            return None
        return bool(found[0]), dict(json.loads(found[1]))

    # -- matching ---------------------------------------------------------------------------
    def match(self, pool: str, rules: MatchRules, prefix: str, now: float
              ) -> list[dict[str, Any]]:
        """One atomic matching pass over ``pool``: the pending matches to create now."""
        keys = [self._key(pool, s) for s in ("q", "t", "pending", "seq", "done")]
        args: list[str | int | float] = [
            now, rules.players, rules.window, rules.widen_per_second, rules.max_window,
            rules.bot_fill_seconds, rules.idle_seconds, rules.keep_seconds, prefix,
            rules.scan, rules.stale_seconds, self.channel(pool)]
        return [json.loads(raw) for raw in self._match(keys=keys, args=args)]

    def created(self, pool: str, match_id: str) -> None:
        """The pending match exists now: its tickets read as matched."""
        self.redis.hdel(self._key(pool, "pending"), match_id)
        self.redis.publish(self.channel(pool), match_id)

    def failed(self, pool: str, match_id: str, detail: str, now: float) -> None:
        self._fail(keys=[self._key(pool, "t"), self._key(pool, "done"),
                         self._key(pool, "pending")],
                   args=[match_id, detail, now, self.channel(pool)])
