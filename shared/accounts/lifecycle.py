"""An account's life after registration: its named keys (add, list, revoke), its name and
webhook changed, and its deletion. Mixed into :class:`shared.accounts.service.AccountService`.

Deleting an account (not while it is an entrant of a running tournament: ``holders``)
revokes its keys, frees its name and drops its data and webhook; its seats in live matches
forfeit (the fallback bot plays them to the end, as a seat that timed out ``forfeit_after``
times) and show ``DELETED_NAME``, as do its seats in the kept records of ended matches; the
other features forget its name through ``forgetters``
(the leaderboards: its rows keep their numbers and show ``DELETED_NAME``, so other players'
rating history stays as it was).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from shared.accounts.names import check_name, folded
from shared.domain.errors import Conflict, NotFound
from shared.infra.secrets import hash_secret

if TYPE_CHECKING:
    from shared.accounts.store import AccountStore
    from shared.matches.service import MatchService

DELETED_NAME = "deleted account"
#: The most keys one account may hold at once.
MAX_KEYS = 20
#: What is left out of an update (a field absent from PATCH, as against ``None``: remove).
UNCHANGED: Any = object()


def new_key() -> str:
    return f"evk_{secrets.token_urlsafe(32)}"


def taken(name: str) -> Conflict:
    return Conflict(f"the name {name!r} is taken: account names are unique, whatever their "
                    "case", field="name")


class AccountLifecycle:
    store: AccountStore
    matches: MatchService
    #: What each other feature does when an account is deleted (given the id and the name
    #: to show instead): set by ``shared.services``.
    forgetters: list[Callable[[str, str], None]]
    #: What holds an account back from deletion (ids of the running tournaments it entered):
    #: set by ``shared.services``.
    holders: list[Callable[[str], list[str]]]

    def check_webhook(self, webhook: str) -> str:
        raise NotImplementedError  # AccountService's

    def keys(self, account_id: str) -> list[dict[str, Any]]:
        """The account's keys: name, created, last used (never the key)."""
        return self.store.keys(account_id)

    def add_key(self, account: dict[str, Any], name: str) -> tuple[dict[str, Any], str]:
        """A new key named ``name``; returns its listing and the key (shown only now)."""
        if account.get("kind") == "person":
            # A key never expires and outlives a sign-out everywhere and a password change:
            # one minted with a stolen access token would keep the thief in.
            raise Conflict("a person's account signs in with its password: it has no API keys")
        account_id = account["id"]
        listed = self.store.keys(account_id)
        if any(row["name"] == name for row in listed):
            raise Conflict(f"the account has a key named {name!r} already", field="name")
        if len(listed) >= MAX_KEYS:
            raise Conflict(f"an account holds at most {MAX_KEYS} keys: revoke one first")
        key, now = new_key(), time.time()
        if not self.store.add_key(account_id, account["name"], name, hash_secret(key), now):
            raise Conflict(f"the account has a key named {name!r} already", field="name")
        return {"name": name, "created_at": now, "last_used": None}, key

    def revoke_key(self, account_id: str, name: str) -> None:
        """Revoke a key at once (every process refuses it from now on); never the last."""
        self.store.keys(account_id)  # drops the keys that expired unused: they do not count
        done = self.store.revoke_key(account_id, name)
        if done is None:
            raise Conflict("this is the account's last key: add another first (or delete the "
                           "account)")
        if not done:
            raise NotFound(f"the account has no key named {name!r}")

    def migrate_legacy(self) -> int:
        """Move every account still keyed in the index from before named keys (each moves
        on its key's first use anyway; this reaches those never used again, so they expire
        too). Returns how many keys moved."""
        return sum(self.store.legacy_account(key_hash) is not None
                   for key_hash in self.store.legacy_key_hashes())

    def update(self, account: dict[str, Any], name: Any = UNCHANGED,
               webhook: Any = UNCHANGED) -> dict[str, Any]:
        """Change the name and/or webhook (``None``: no webhook); all or nothing."""
        changed = dict(account)
        if webhook is not UNCHANGED:
            if webhook is not None:
                webhook = self.check_webhook(webhook)
            changed["webhook"] = webhook
        old = account["name"]
        if name is not UNCHANGED and name != old:
            changed["name"] = check_name(name)
            if not self.store.claim_name(account["id"], name):
                raise taken(name)
        if not self.store.save(changed):
            self.store.free_name(account["id"], changed["name"])
            raise NotFound("the account was deleted meanwhile")
        if changed["name"] != old:
            self.store.renamed(account["id"], changed["name"])
        if folded(changed["name"]) != folded(old):
            self.store.free_name(account["id"], old)
        return changed

    def delete(self, account: dict[str, Any]) -> None:
        """Delete the account (module docstring). Its live seats and the other features go
        first, its keys last: a failure half way leaves a key to try again with."""
        account_id = account["id"]
        held = [found for holder in self.holders for found in holder(account_id)]
        if held:
            raise Conflict(f"the account is an entrant of the running tournament(s) "
                           f"{', '.join(held)}: delete it once they end (or are cancelled)")
        for match_id in dict.fromkeys([*self.store.matches(account_id),
                                       *self.store.played(account_id)]):
            self.matches.forget_account(match_id, account_id, DELETED_NAME)
        for forget in self.forgetters:
            forget(account_id, DELETED_NAME)
        self.store.delete(account_id, account["name"])

