"""Redis keys of bot accounts (the store of :mod:`shared.accounts.service`).

* ``evo:a:{id}`` hash — name, webhook URL (never shown but to its owner), key hash, created;
* ``evo:akeys`` hash — sha256(API key) -> account id (keys are never stored in clear);
* ``evo:a:{id}:matches`` set — running matches where the account holds a seat (the pull
  endpoint reads it; finished matches are dropped lazily);
* ``evo:a:{id}:invitations`` hash — invitation id -> the invitation (JSON): the matches and
  tournaments that name the account and wait for it to accept (dropped once answered, or
  lazily once the match or tournament no longer waits);
* ``evo:a:{id}:gen`` counter and channel ``evo:a:{id}:chg`` — bumped when the account gets a
  seat in a new match or an invitation, so a waiting bot wakes.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from shared.infra.notifier import wait_on
from shared.infra.redis_client import RedisClient

T = TypeVar("T")

ACCOUNT_FIELDS = ("id", "name", "webhook", "created_at")


#: Key hashes whose account id a store remembers (the ids of that many bots' keys).
KNOWN_KEYS = 4096


class AccountStore:
    def __init__(self, client: RedisClient) -> None:
        self.redis = client
        self._known: dict[str, str] = {}  # key hash -> account id, found before
        self._known_lock = threading.Lock()

    @staticmethod
    def _key(account_id: str, suffix: str = "") -> str:
        return f"evo:a:{account_id}{suffix}"

    def channel(self, account_id: str) -> str:
        return self._key(account_id, ":chg")

    def create(self, account: dict[str, Any], key_hash: str) -> None:
        # Two keys of different cluster slots, so two writes: the account first, then the
        # index of keys; a crash in between leaves an account no key reaches (harmless).
        self.redis.hset(self._key(account["id"]),
                        mapping={"data": json.dumps(account), "key_hash": key_hash})
        self.redis.hset("evo:akeys", key_hash, account["id"])

    def load(self, account_id: str) -> dict[str, Any] | None:
        data = self.redis.hget(self._key(account_id), "data")
        return None if data is None else json.loads(data)

    def by_key_hash(self, key_hash: str) -> str | None:
        """The id of the account of a key (by its hash); None for an unknown key.

        An id once found is remembered (up to ``KNOWN_KEYS``, the oldest forgotten first):
        a key's account never changes and no account is deleted, so a bot's requests after
        its first skip this round trip. An unknown key is asked again every time.
        """
        known = self._known.get(key_hash)
        if known is not None:
            return known
        account_id = self.redis.hget("evo:akeys", key_hash)
        if account_id is None:
            return None
        with self._known_lock:
            if len(self._known) >= KNOWN_KEYS:
                del self._known[next(iter(self._known))]
            self._known[key_hash] = str(account_id)
        return str(account_id)

    def add_match(self, account_id: str, match_id: str,
                  invitation: dict[str, Any] | None = None) -> None:
        """Note a new seat of the account (with its ``invitation`` if the account has yet to
        accept it) and wake its waiting pull requests."""
        with self.redis.pipeline(transaction=False) as pipe:  # the account's keys: one slot
            pipe.sadd(self._key(account_id, ":matches"), match_id)
            if invitation is not None:
                pipe.hset(self._key(account_id, ":invitations"), invitation["id"],
                          json.dumps(invitation))
            pipe.incr(self._key(account_id, ":gen"))
            pipe.execute()
        self.redis.publish(self.channel(account_id), match_id)  # a cluster pipeline has none

    def add_invitation(self, account_id: str, invitation: dict[str, Any]) -> None:
        """Note an invitation (a tournament's) and wake the account's waiting requests."""
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(self._key(account_id, ":invitations"), invitation["id"],
                      json.dumps(invitation))
            pipe.incr(self._key(account_id, ":gen"))
            pipe.execute()
        self.redis.publish(self.channel(account_id), invitation["id"])

    def invitations(self, account_id: str) -> list[dict[str, Any]]:
        """The account's invitations, oldest first."""
        return self._sorted_invitations(
            self.redis.hgetall(self._key(account_id, ":invitations")))

    def matches_and_invitations(self, account_id: str
                                ) -> tuple[list[str], list[dict[str, Any]]]:
        """``matches`` and ``invitations`` in one round trip (a pull bot's turns read both)."""
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.smembers(self._key(account_id, ":matches"))
            pipe.hgetall(self._key(account_id, ":invitations"))
            match_ids, found = pipe.execute()
        return sorted(match_ids), self._sorted_invitations(found)

    @staticmethod
    def _sorted_invitations(found: dict[str, str]) -> list[dict[str, Any]]:
        return sorted((json.loads(v) for v in found.values()),
                      key=lambda inv: (inv["created_at"], inv["id"]))

    def invitation(self, account_id: str, invitation_id: str) -> dict[str, Any] | None:
        data = self.redis.hget(self._key(account_id, ":invitations"), invitation_id)
        return None if data is None else json.loads(data)

    def drop_invitations(self, account_id: str, invitation_ids: Sequence[str]) -> None:
        """Forget answered (or no longer pending) invitations and wake the account's
        waiting requests (its stream shows the list without them)."""
        if not invitation_ids:
            return
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.hdel(self._key(account_id, ":invitations"), *invitation_ids)
            pipe.incr(self._key(account_id, ":gen"))
            pipe.execute()
        self.redis.publish(self.channel(account_id), "invitations")

    def matches(self, account_id: str) -> list[str]:
        return sorted(self.redis.smembers(self._key(account_id, ":matches")))

    def drop_match(self, account_id: str, match_id: str) -> None:
        self.redis.srem(self._key(account_id, ":matches"), match_id)

    def generation(self, account_id: str) -> int:
        return int(self.redis.get(self._key(account_id, ":gen")) or 0)

    def wait(self, account_id: str, channels: Sequence[str], read: Callable[[], T], seen: T,
             timeout: float) -> T:
        """Block until ``read()`` differs from ``seen`` or ``timeout`` passes, woken by the
        account's channel and ``channels`` (its matches')."""
        return wait_on(self.redis, [self.channel(account_id), *channels], read, seen, timeout)
