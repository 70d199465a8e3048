"""Redis keys of accounts, bots' and people's (the store of :mod:`shared.accounts.service`).

* ``evo:a:{id}`` hash — ``data``: name, kind (``bot`` or ``person``), webhook URL (never
  shown but to its owner), created; ``password``, a person's Argon2id hash (never shown);
  and ``webhook_secret``, the key that signs its webhook calls (``shared.bots.signing``; kept
  in clear, as signing needs it, and never shown but once to its owner);
* ``evo:a:{id}:keys`` hash — key name -> ``{hash, created_at}`` of each of its API keys;
* ``evo:ak:{sha256(key)}`` hash — ``account``, ``name``, ``created_at``, ``used`` (its last
  use, noted with ``renewed`` at most once a minute), ``holds`` (the digest of the account's
  name): what a request's key is checked against (keys are never stored in clear). A
  person's access token has such an entry too, with its session ``family`` and ``expires``
  (:mod:`shared.accounts.session_store`);
* ``evo:an:{sha256(folded name)}`` string — the account id holding a name (unique names,
  ``shared.accounts.names``), claimed with ``SET NX``;
* ``evo:akeys`` hash — before named keys: sha256(key) -> account id. Only read, for a key not
  found under ``evo:ak:``; the account is then moved to the keys above (named ``default``);
* ``evo:a:{id}:matches`` set — running matches where the account holds a seat (the pull
  endpoint reads it; finished matches are dropped lazily);
* ``evo:a:{id}:played`` sorted set — match id -> when the account took its seat, for
  ``history`` seconds (what deletion anonymises);
* ``evo:a:{id}:invitations`` hash — invitation id -> the invitation (JSON): the matches and
  tournaments that name the account and wait for it to accept (dropped once answered, or
  lazily once the match or tournament no longer waits);
* ``evo:a:{id}:gen`` counter and channel ``evo:a:{id}:chg`` — bumped when the account gets a
  seat in a new match or an invitation, so a waiting bot wakes.

Every key of an account but the channel expires after ``retention`` seconds unused; a request
with one of its keys (at most once a minute per key) or a new seat renews them all.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from shared.accounts.names import name_digest
from shared.infra.notifier import wait_on
from shared.infra.redis_client import Commands, RedisClient

T = TypeVar("T")

ACCOUNT_FIELDS = ("id", "name", "webhook", "created_at")
#: The name of the key made at registration (and of a key moved from ``evo:akeys``).
FIRST_KEY = "default"
#: Seconds between two writes of a key's last use (and of the account's renewed expiry).
USED_EVERY = 60.0
LEGACY_KEYS = "evo:akeys"
#: Keys whose account a store guesses (the ids of that many bots' keys).
GUESSES = 4096

# Revoke a key unless it is the account's last (KEYS[1] its keys hash; ARGV name, keep_one):
# the key's hash, or -1 when it is the last, or false when there is no such key.
_REVOKE = """
local found = redis.call('HGET', KEYS[1], ARGV[1])
if not found then return false end
if ARGV[2] == '1' and redis.call('HLEN', KEYS[1]) <= 1 then return -1 end
redis.call('HDEL', KEYS[1], ARGV[1])
return found
"""
# Write an account's data only while it exists (KEYS[1] its hash, ARGV[1] the data).
# The webhook secret of an existing account (``data`` present), set if it has none.
_SECRET_IF_EXISTS = """
local secret = redis.call('HGET', KEYS[1], 'webhook_secret')
if secret then return secret end
if redis.call('HEXISTS', KEYS[1], 'data') == 0 then return ARGV[1] end
redis.call('HSET', KEYS[1], 'webhook_secret', ARGV[1])
return ARGV[1]
"""
_SAVE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'data', ARGV[1])
return 1
"""
# Set one field of an account's hash only while it exists (KEYS[1]; ARGV field, value).
_SAVE_FIELD = """
if redis.call('HEXISTS', KEYS[1], 'data') == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
"""
# Free a name only if it is still this account's (KEYS[1] the name key, ARGV[1] the id).
_FREE_NAME = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
class AccountStore:
    def __init__(self, client: RedisClient, retention: int = 0,
                 history: float = 120 * 86400) -> None:
        self.redis = client
        self.retention = retention  # seconds an unused account is kept (0: for ever)
        # Seconds the account's matches are noted in ``:played`` after they start: longer
        # than any ended match's record is kept (``RESULT_TTL`` and a margin for its run).
        self.history = history
        self._revoke = client.register_script(_REVOKE)
        self._free_name = client.register_script(_FREE_NAME)
        self._save = client.register_script(_SAVE)
        self._save_field = client.register_script(_SAVE_FIELD)
        self._secret_if_exists = client.register_script(_SECRET_IF_EXISTS)
        # Key hash -> the account it belonged to when last seen: only a guess, to read the
        # account's matches with the key's entry (``account_and_matches``), never trusted.
        self._guesses: dict[str, str] = {}
        self._guess_lock = threading.Lock()

    @staticmethod
    def _key(account_id: str, suffix: str = "") -> str:
        return f"evo:a:{account_id}{suffix}"

    @staticmethod
    def _key_entry(key_hash: str) -> str:
        return f"evo:ak:{key_hash}"

    @staticmethod
    def _name_index(digest: str) -> str:
        return f"evo:an:{digest}"

    def _name_key(self, name: str) -> str:
        return self._name_index(name_digest(name))

    def channel(self, account_id: str) -> str:
        return self._key(account_id, ":chg")

    def _expire(self, pipe: Commands, *names: str) -> None:
        for name in names:
            if self.retention > 0:
                pipe.expire(name, self.retention)

    # -- accounts ---------------------------------------------------------------------------
    def create(self, account: dict[str, Any], key_hash: str) -> bool:
        """Store a new account and its first key; False (nothing written) if its name is
        taken. The name is claimed first: a crash after leaves a name no account uses until
        it expires (``retention``), never an account without its name."""
        if not self.claim_name(account["id"], account["name"]):
            return False
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(self._key(account["id"]), "data", json.dumps(account))
            self._expire(pipe, self._key(account["id"]))
            pipe.execute()
        self.add_key(account["id"], account["name"], FIRST_KEY, key_hash, account["created_at"])
        return True

    def create_person(self, account: dict[str, Any], password_hash: str) -> bool:
        """Store a new person account with its password hash (it has no key: it signs in);
        False (nothing written) if its name is taken."""
        if not self.claim_name(account["id"], account["name"]):
            return False
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(self._key(account["id"]),
                      mapping={"data": json.dumps(account), "password": password_hash})
            self._expire(pipe, self._key(account["id"]))
            pipe.execute()
        return True

    def load(self, account_id: str) -> dict[str, Any] | None:
        data = self.redis.hget(self._key(account_id), "data")
        return None if data is None else {"kind": "bot", **json.loads(data)}

    def kinds(self, account_ids: Sequence[str]) -> dict[str, str]:
        """Each account's kind, read in one pipeline (a gone account is left out)."""
        with self.redis.pipeline(transaction=False) as pipe:
            for account_id in account_ids:
                pipe.hget(self._key(account_id), "data")
            found = pipe.execute()
        return {account_id: json.loads(data).get("kind", "bot")
                for account_id, data in zip(account_ids, found, strict=True) if data}

    def save(self, account: dict[str, Any]) -> bool:
        """Write an existing account's data (its name already claimed); False if it is gone
        (deleted or expired meanwhile: never written back)."""
        return bool(self._save(keys=[self._key(account["id"])], args=[json.dumps(account)]))

    def claim_name(self, account_id: str, name: str) -> bool:
        """Hold ``name`` for the account (True also if it holds it already)."""
        key = self._name_key(name)
        if self.redis.set(key, account_id, nx=True, ex=self.retention or None):
            return True
        return self.redis.get(key) == account_id

    def free_name(self, account_id: str, name: str) -> None:
        """Let ``name`` go, if the account still holds it."""
        self._free_name(keys=[self._name_key(name)], args=[account_id])

    def delete(self, account_id: str, name: str) -> None:
        """Remove the account: its keys first (refused from now on), then its data and name."""
        hashes = [json.loads(v)["hash"]
                  for v in self.redis.hgetall(self._key(account_id, ":keys")).values()]
        with self.redis.pipeline(transaction=False) as pipe:
            for key_hash in hashes:
                pipe.delete(self._key_entry(key_hash))
            pipe.delete(self._key(account_id, ":keys"))
            pipe.execute()
        with self.redis.pipeline(transaction=False) as pipe:
            for suffix in ("", ":matches", ":gen", ":played", ":invitations", ":sessions"):
                pipe.delete(self._key(account_id, suffix))
            pipe.execute()
        self.free_name(account_id, name)

    # -- keys -------------------------------------------------------------------------------
    def add_key(self, account_id: str, account_name: str, name: str, key_hash: str,
                now: float) -> bool:
        """Give the account a key named ``name``; False if it has a key of that name."""
        entry = {"hash": key_hash, "created_at": now}
        if not self.redis.hsetnx(self._key(account_id, ":keys"), name, json.dumps(entry)):
            return False
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(self._key_entry(key_hash), mapping={
                "account": account_id, "name": name, "created_at": now, "renewed": now,
                "holds": name_digest(account_name)})
            self._expire(pipe, self._key_entry(key_hash), self._key(account_id, ":keys"))
            pipe.execute()
        return True

    def renamed(self, account_id: str, account_name: str) -> None:
        """Tell the account's keys its new name (whose index a key's use renews)."""
        named = self.redis.hgetall(self._key(account_id, ":keys"))
        with self.redis.pipeline(transaction=False) as pipe:
            for value in named.values():
                pipe.hset(self._key_entry(json.loads(value)["hash"]), "holds",
                          name_digest(account_name))
            pipe.execute()

    def keys(self, account_id: str) -> list[dict[str, Any]]:
        """The account's keys: name, created and last used (two round trips). A key that
        expired unused (while the account lived on through another) is dropped here."""
        named = {name: json.loads(value) for name, value
                 in self.redis.hgetall(self._key(account_id, ":keys")).items()}
        with self.redis.pipeline(transaction=False) as pipe:
            for entry in named.values():
                pipe.hget(self._key_entry(entry["hash"]), "account")
                pipe.hget(self._key_entry(entry["hash"]), "used")
            found = pipe.execute()
        rows, expired = [], []
        for index, (name, entry) in enumerate(named.items()):
            owner, used = found[2 * index], found[2 * index + 1]
            if owner != account_id:
                expired.append(name)
                continue
            rows.append({"name": name, "created_at": entry["created_at"],
                         "last_used": None if used is None else float(used)})
        if expired:
            self.redis.hdel(self._key(account_id, ":keys"), *expired)
        return sorted(rows, key=lambda row: (row["created_at"], row["name"]))

    def revoke_key(self, account_id: str, name: str, keep_one: bool = True) -> bool | None:
        """Revoke the key ``name`` at once: True; None if it is the account's last key (and
        ``keep_one``); False if there is no such key."""
        found = self._revoke(keys=[self._key(account_id, ":keys")],
                             args=[name, "1" if keep_one else "0"])
        if found is None:
            return False
        if found == -1:
            return None
        self.redis.delete(self._key_entry(json.loads(found)["hash"]))
        return True

    def queue_key_lookup(self, pipe: Commands, key_hash: str) -> None:
        """Queue the read of a key's entry on another store's pipeline (the match read of a
        pull bot's move), so a key check costs no round trip of its own; its reply goes to
        :meth:`key_account`."""
        pipe.hgetall(self._key_entry(key_hash))

    def key_account(self, key_hash: str, entry: dict[str, str]) -> str | None:
        """The account of a key from its entry as read (None: no such key, revoked, or a
        person's access token past its ``expires``); a use noted at most once a minute
        (``USED_EVERY``), renewing the account's expiry."""
        account_id = entry.get("account")
        if account_id is None:
            return None
        now = time.time()
        expires = entry.get("expires")
        if expires is not None and float(expires) <= now:
            return None  # Redis drops it within the second; until then it is refused here
        if now - float(entry.get("renewed") or 0) >= USED_EVERY:
            self._used(account_id, key_hash, entry.get("holds"), now,
                       None if expires is None else float(expires))
        return account_id

    def by_key_hash(self, key_hash: str) -> str | None:
        """The id of the account of a key (by its hash); None for an unknown or revoked key.

        Read from Redis every time (one round trip), never taken from the process's memory:
        a revoked key is refused at once by every API process. A key of an account made
        before named keys (in ``evo:akeys``) costs a second read, once: its account moves.
        """
        account_id = self.key_account(key_hash, self.redis.hgetall(self._key_entry(key_hash)))
        if account_id is None:
            return self.legacy_account(key_hash)
        return account_id

    def account_and_matches(self, key_hash: str
                            ) -> tuple[str | None, tuple[list[str], list[dict[str, Any]]] | None]:
        """The account of a key and the account's matches and invitations, in one round trip
        once this process has seen the key: those of the account the key belonged to are
        read with the key's entry, and used only if the entry still names that account (so
        a revoked key is refused as at once as by :meth:`by_key_hash`). The matches and
        invitations are None when they were not read (a key new to the process)."""
        guess = self._guesses.get(key_hash)
        if guess is None:
            account_id = self.by_key_hash(key_hash)
            if account_id is not None:
                self._guess(key_hash, account_id)
            return account_id, None
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.hgetall(self._key_entry(key_hash))
            pipe.smembers(self._key(guess, ":matches"))
            pipe.hgetall(self._key(guess, ":invitations"))
            entry, matches, found = pipe.execute()
        account_id = self.key_account(key_hash, entry)
        if account_id == guess:
            return account_id, (sorted(matches), self._sorted_invitations(found))
        self._guesses.pop(key_hash, None)
        return account_id, None

    def _guess(self, key_hash: str, account_id: str) -> None:
        with self._guess_lock:
            if len(self._guesses) >= GUESSES:
                self._guesses.pop(next(iter(self._guesses)), None)
            self._guesses[key_hash] = account_id

    def _used(self, account_id: str, key_hash: str, holds: str | None, now: float,
              expires: float | None = None) -> None:
        """Note a key's use and renew the expiry of the account, of this key and of the
        account's name, in one round trip (a key unused for the retention expires by itself
        even while the account lives on through another). An access token (``expires``)
        keeps its own short life."""
        with self.redis.pipeline(transaction=False) as pipe:
            # A key revoked since its check comes back as an entry without its account
            # (refused as unknown), expiring as the account would: never a live key.
            pipe.hset(self._key_entry(key_hash), mapping={"used": now, "renewed": now})
            if expires is not None:
                pipe.expire(self._key_entry(key_hash), _seconds_until(expires))
            else:
                self._expire(pipe, self._key_entry(key_hash))
            self._expire(pipe, self._key(account_id),
                         self._key(account_id, ":keys"), self._key(account_id, ":matches"),
                         self._key(account_id, ":gen"), self._key(account_id, ":played"),
                         self._key(account_id, ":invitations"))
            if holds:
                self._expire(pipe, self._name_index(holds))
            pipe.execute()

    # -- person accounts: password, lookup by name, access tokens (``session_store``) -------
    def account_by_name(self, name: str) -> str | None:
        """The id of the account holding ``name`` (any case), None if none does."""
        found = self.redis.get(self._name_key(name))
        return None if found is None else str(found)

    def set_password(self, account_id: str, password_hash: str) -> bool:
        """Store the account's password hash (beside ``data``, never shown); False if the
        account is gone."""
        return bool(self._save_field(keys=[self._key(account_id)],
                                     args=["password", password_hash]))

    def password(self, account_id: str) -> str | None:
        found = self.redis.hget(self._key(account_id), "password")
        return None if found is None else str(found)

    def queue_access_entry(self, pipe: Commands, access_hash: str, account_id: str,
                           family: str, expires: float, holds: str) -> None:
        """Queue the entry of a person's access token: an ``evo:ak:`` entry as a key's, with
        its session ``family`` and its ``expires`` (Redis drops it then too)."""
        now = time.time()
        pipe.hset(self._key_entry(access_hash), mapping={
            "account": account_id, "family": family, "created_at": now, "renewed": now,
            "expires": expires, "holds": holds})
        pipe.expire(self._key_entry(access_hash), _seconds_until(expires))

    def queue_access_revocation(self, pipe: Commands, access_hash: str) -> None:
        pipe.delete(self._key_entry(access_hash))

    def key_entry(self, key_hash: str) -> dict[str, str]:
        """A key's or access token's entry as stored (empty: none)."""
        return dict(self.redis.hgetall(self._key_entry(key_hash)))

    def legacy_account(self, key_hash: str) -> str | None:
        """Move an account from the single-key index to named keys (see the docstring)."""
        account_id = self.redis.hget(LEGACY_KEYS, key_hash)
        account = None if account_id is None else self.load(str(account_id))
        if account is None:
            return None
        self.claim_name(account["id"], account["name"])  # taken: it keeps it, unindexed
        self.add_key(account["id"], account["name"], FIRST_KEY, key_hash,
                     float(account["created_at"]))
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.hdel(LEGACY_KEYS, key_hash)
            pipe.hdel(self._key(account["id"]), "key_hash")
            self._expire(pipe, self._key(account["id"]))
            pipe.execute()
        return str(account["id"])

    def legacy_key_hashes(self) -> list[str]:
        """The key hashes still in the index from before named keys."""
        return sorted(self.redis.hgetall(LEGACY_KEYS))

    def touch(self, account_id: str) -> None:
        """Renew the expiry of every key of the account, its keys' included (two round
        trips): a new seat of an account that may never send its key (a push bot)."""
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.hget(self._key(account_id), "data")
            pipe.hgetall(self._key(account_id, ":keys"))
            data, named = pipe.execute()
        if data is None or self.retention <= 0:
            return  # deleted or expired meanwhile, or kept for ever
        with self.redis.pipeline(transaction=False) as pipe:
            self._expire(pipe, self._key(account_id), self._key(account_id, ":keys"),
                         self._key(account_id, ":matches"), self._key(account_id, ":gen"),
                         self._key(account_id, ":played"), self._key(account_id, ":invitations"),
                         self._name_key(json.loads(data)["name"]),
                         *(self._key_entry(json.loads(v)["hash"]) for v in named.values()))
            pipe.execute()

    # -- matches ----------------------------------------------------------------------------
    def add_match(self, account_id: str, match_id: str,
                  invitation: dict[str, Any] | None = None) -> None:
        """Note a new seat of the account (with its ``invitation`` if the account has yet to
        accept it) and wake its waiting pull requests."""
        now = time.time()
        with self.redis.pipeline(transaction=False) as pipe:  # the account's keys: one slot
            pipe.sadd(self._key(account_id, ":matches"), match_id)
            if invitation is not None:
                pipe.hset(self._key(account_id, ":invitations"), invitation["id"],
                          json.dumps(invitation))
            pipe.incr(self._key(account_id, ":gen"))
            pipe.zadd(self._key(account_id, ":played"), {match_id: now})
            pipe.zremrangebyscore(self._key(account_id, ":played"), "-inf", now - self.history)
            pipe.execute()
        self.redis.publish(self.channel(account_id), match_id)  # a cluster pipeline has none
        if self.retention > 0:
            self.touch(account_id)  # a seat is a use: a push bot may never send its key

    def played(self, account_id: str) -> list[str]:
        """Every match the account took a seat in within ``history`` seconds (running or
        ended: what deletion anonymises)."""
        return self.redis.zrangebyscore(self._key(account_id, ":played"), "-inf", "+inf")

    def played_page(self, account_id: str, before: float | None, count: int
                    ) -> list[tuple[str, float]]:
        """Up to ``count`` of the account's matches with when it took its seat, newest first,
        taken strictly before ``before`` (None: from the newest)."""
        top = "+inf" if before is None else f"({before!r}"
        found = self.redis.zrevrangebyscore(self._key(account_id, ":played"), top, "-inf",
                                            start=0, num=count, withscores=True)
        return [(str(match_id), float(score)) for match_id, score in found]

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

    # -- the webhook signing secret (``shared.bots.signing``), beside the account's data -----
    def set_webhook_secret(self, account_id: str, secret: str) -> None:
        self.redis.hset(self._key(account_id), "webhook_secret", secret)

    def webhook_secret(self, account_id: str, new: str) -> str:
        """The account's webhook secret; ``new`` becomes it if it has none (an account
        registered before calls were signed: its owner learns it by rotating it). Set only on
        an account that still exists, in one step: a call racing the account's deletion must
        not leave a hash holding nothing but a secret (and no expiry)."""
        secret = self.redis.hget(self._key(account_id), "webhook_secret")
        if secret is not None:
            return str(secret)
        return str(self._secret_if_exists(keys=[self._key(account_id)], args=[new]))


def _seconds_until(when: float) -> int:
    """Whole seconds from now until ``when`` (at least 1), for an ``EXPIRE``."""
    return max(1, int(when - time.time()) + 1)
