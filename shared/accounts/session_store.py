"""Redis keys of person accounts' sign-in sessions (the store of
:mod:`shared.accounts.sessions`).

* ``evo:a:{id}:sessions`` set — the ids of the account's session families (one per sign-in);
* ``evo:a:{id}:s:{family}`` hash — ``refresh``: the sha256 of the family's current refresh
  token, ``created_at``, ``refreshed_at``, and ``at:<sha256>`` -> expiry of each access
  token it handed out that may still be live; expires ``refresh_ttl`` after its last refresh.
  Deleting it ends the session: no refresh token of it works any more;
* ``evo:rt:{sha256(refresh token)}`` hash — ``account``, ``family``: kept until the token's
  own expiry even once rotated, so that a rotated token shown again is known as a reuse;
* the access tokens are entries ``evo:ak:{sha256}`` beside the account keys
  (:mod:`shared.accounts.store`), with ``family`` and ``expires``: every lookup of a key
  finds them, so an access token acts wherever a key acts, on one code path.

A family's rotation and its end are each one script on the family's one key, so they are
atomic on a Redis Cluster too; the token entries are written in pipelines that a cluster
splits per slot (a crash between two writes leaves only keys that refuse every token or
expire by themselves).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from shared.accounts.store import AccountStore

# Rotate a family's refresh token (KEYS[1] the family; ARGV: the presented hash, the new
# refresh hash, the new access hash, its expiry, now, the family's lifetime in seconds).
# {1}: done; {0}: no such family (signed out, expired); {-1, access hashes...}: the presented
# token was rotated already, a reuse: the family is deleted, its access tokens returned to
# be revoked.
_ROTATE = """
local current = redis.call('HGET', KEYS[1], 'refresh')
if not current then return {0} end
if current ~= ARGV[1] then
  local out = {-1}
  for _, field in ipairs(redis.call('HKEYS', KEYS[1])) do
    if string.sub(field, 1, 3) == 'at:' then table.insert(out, string.sub(field, 4)) end
  end
  redis.call('DEL', KEYS[1])
  return out
end
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  if string.sub(all[i], 1, 3) == 'at:' and tonumber(all[i + 1]) < tonumber(ARGV[5]) then
    redis.call('HDEL', KEYS[1], all[i])
  end
end
redis.call('HSET', KEYS[1], 'refresh', ARGV[2], 'at:' .. ARGV[3], ARGV[4],
           'refreshed_at', ARGV[5])
redis.call('EXPIRE', KEYS[1], ARGV[6])
return {1}
"""
# End a family (KEYS[1]): deleted at once; returns the hashes of its access tokens.
_END = """
local out = {}
for _, field in ipairs(redis.call('HKEYS', KEYS[1])) do
  if string.sub(field, 1, 3) == 'at:' then table.insert(out, string.sub(field, 4)) end
end
redis.call('DEL', KEYS[1])
return out
"""


class SessionStore:
    def __init__(self, accounts: AccountStore, refresh_ttl: int) -> None:
        self.accounts = accounts
        self.redis = accounts.redis
        self.refresh_ttl = refresh_ttl
        self._rotate = self.redis.register_script(_ROTATE)
        self._end = self.redis.register_script(_END)

    @staticmethod
    def _families(account_id: str) -> str:
        return f"evo:a:{account_id}:sessions"

    @staticmethod
    def _family(account_id: str, family: str) -> str:
        return f"evo:a:{account_id}:s:{family}"

    @staticmethod
    def _refresh(refresh_hash: str) -> str:
        return f"evo:rt:{refresh_hash}"

    # -- sessions ---------------------------------------------------------------------------
    def start(self, account_id: str, family: str, refresh_hash: str, access_hash: str,
              access_expires: float, holds: str) -> None:
        """A new session family with its first pair of tokens (two round trips: the
        family's keys, then the tokens' entries, so a token never names a missing family)."""
        now = time.time()
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(self._family(account_id, family), mapping={
                "refresh": refresh_hash, "created_at": now, "refreshed_at": now,
                f"at:{access_hash}": access_expires})
            pipe.expire(self._family(account_id, family), self.refresh_ttl)
            pipe.sadd(self._families(account_id), family)
            pipe.expire(self._families(account_id), self.refresh_ttl)
            pipe.execute()
        self.write_tokens(account_id, family, refresh_hash, access_hash, access_expires, holds)

    def write_tokens(self, account_id: str, family: str, refresh_hash: str, access_hash: str,
                     access_expires: float, holds: str) -> None:
        """The entries a refresh token and an access token are looked up by."""
        with self.redis.pipeline(transaction=False) as pipe:
            self.accounts.queue_access_entry(pipe, access_hash, account_id, family,
                                             access_expires, holds)
            pipe.hset(self._refresh(refresh_hash),
                      mapping={"account": account_id, "family": family})
            pipe.expire(self._refresh(refresh_hash), self.refresh_ttl)
            # The list of families lives as long as its longest-lived family could.
            pipe.expire(self._families(account_id), self.refresh_ttl)
            pipe.execute()

    def refresh_entry(self, refresh_hash: str) -> tuple[str, str] | None:
        """The account and family of a refresh token (None: unknown or expired)."""
        found = self.redis.hgetall(self._refresh(refresh_hash))
        if not found.get("account") or not found.get("family"):
            return None
        return str(found["account"]), str(found["family"])

    def rotate(self, account_id: str, family: str, old_hash: str, refresh_hash: str,
               access_hash: str, access_expires: float) -> int:
        """Make ``refresh_hash`` the family's refresh token in place of ``old_hash``: 1;
        0 if the family has ended; -1 if ``old_hash`` had been rotated already (a reuse:
        the family is ended and its access tokens revoked)."""
        found = self._rotate(keys=[self._family(account_id, family)], args=[
            old_hash, refresh_hash, access_hash, access_expires, time.time(),
            self.refresh_ttl])
        status = int(found[0])
        if status == -1:
            self.revoke_access([str(h) for h in found[1:]])
        return status

    def forget_tokens(self, refresh_hash: str, access_hash: str) -> None:
        """Drop the entries of a pair that never became the family's (a failed rotation)."""
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.delete(self._refresh(refresh_hash))
            self.accounts.queue_access_revocation(pipe, access_hash)
            pipe.execute()

    def end(self, account_id: str, family: str) -> None:
        """End one session: its refresh tokens and access tokens are refused from now on."""
        hashes = [str(h) for h in self._end(keys=[self._family(account_id, family)])]
        self.redis.srem(self._families(account_id), family)
        self.revoke_access(hashes)

    def end_all(self, account_id: str) -> int:
        """End every session of the account; how many were live."""
        families = sorted(self.redis.smembers(self._families(account_id)))
        live = 0
        for family in families:
            hashes = [str(h) for h in self._end(keys=[self._family(account_id, family)])]
            live += bool(hashes)
            self.revoke_access(hashes)
        if families:
            self.redis.srem(self._families(account_id), *families)
        return live

    def sessions(self, account_id: str) -> list[dict[str, Any]]:
        """The account's live sessions: id, started, last refreshed (two round trips)."""
        families = sorted(self.redis.smembers(self._families(account_id)))
        with self.redis.pipeline(transaction=False) as pipe:
            for family in families:
                pipe.hget(self._family(account_id, family), "created_at")
                pipe.hget(self._family(account_id, family), "refreshed_at")
            found = pipe.execute()
        rows: list[dict[str, Any]] = [
            {"id": family, "created_at": float(created), "refreshed_at": float(refreshed)}
            for family, created, refreshed in zip(families, found[::2], found[1::2],
                                                  strict=True)
            if created is not None and refreshed is not None]
        return sorted(rows, key=lambda row: (row["created_at"], row["id"]))

    def revoke_access(self, hashes: Sequence[str]) -> None:
        if not hashes:
            return
        with self.redis.pipeline(transaction=False) as pipe:
            for access_hash in hashes:
                self.accounts.queue_access_revocation(pipe, access_hash)
            pipe.execute()


def expiry(now: float, seconds: float) -> float:
    """When a token made ``now`` and living ``seconds`` lapses (checked to the fraction of a
    second; Redis drops its entry within the next second)."""
    return now + seconds
