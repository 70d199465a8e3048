"""Accounts for people: sign up with a name and a password, sign in for a pair of tokens,
refresh, sign out (one session or all), change the password.

* The **access token** (``eva_…``, ``access_seconds``, 15 minutes by default) is the
  account's bearer credential: it is stored as an account key's entry is, with an expiry,
  so every route that takes an account key takes it, on the same lookup.
* The **refresh token** (``evr_…``, ``refresh_seconds``) buys a new pair once: each refresh
  rotates it. The tokens of one sign-in form a *family*; a rotated refresh token shown
  again means it was copied, so the whole family ends (both holders must sign in again).
* Tokens are random (``secrets``) and stored only as their SHA-256; passwords as Argon2id
  (:mod:`shared.accounts.passwords`).
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from shared.accounts import passwords
from shared.accounts.lifecycle import taken
from shared.accounts.names import check_name, name_digest
from shared.accounts.session_store import SessionStore, expiry
from shared.accounts.store import AccountStore
from shared.domain.errors import Conflict, NotFound, Unauthorized
from shared.infra.secrets import hash_secret

ACCESS_PREFIX = "eva_"
REFRESH_PREFIX = "evr_"
BAD_SIGN_IN = "no person account has this name and password"


class SessionService:
    def __init__(self, accounts: AccountStore, access_seconds: float = 900,
                 refresh_seconds: float = 30 * 86400) -> None:
        self.accounts = accounts
        self.store = SessionStore(accounts, int(refresh_seconds))
        self.access_seconds = access_seconds
        self.refresh_seconds = refresh_seconds

    def sign_up(self, name: str, password: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new person account, and the tokens of its first session (it is signed in).
        409 if another account has the name (any case)."""
        check_name(name)
        stored = passwords.hash_password(passwords.check_password(password))
        account = {"id": secrets.token_hex(8), "name": name, "kind": "person",
                   "webhook": None, "created_at": time.time()}
        if not self.accounts.create_person(account, stored):
            raise taken(name)
        return account, self._start(account)

    def sign_in(self, name: str, password: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """The account and a new session's tokens; 401 alike for an unknown name, a bot's
        name and a wrong password (the password is hashed in every case)."""
        account_id = self.accounts.account_by_name(name)
        stored = None if account_id is None else self.accounts.password(account_id)
        good = passwords.verify(stored, password)
        account = self.accounts.load(account_id) if good and account_id else None
        if account is None or stored is None:
            raise Unauthorized(BAD_SIGN_IN)
        if passwords.needs_rehash(stored):
            self.accounts.set_password(account["id"], passwords.hash_password(password))
        return account, self._start(account)

    def _start(self, account: dict[str, Any]) -> dict[str, Any]:
        access, refresh, family = self._new_pair()
        expires = expiry(time.time(), self.access_seconds)
        self.store.start(account["id"], family, hash_secret(refresh), hash_secret(access),
                         expires, name_digest(account["name"]))
        return self._tokens(access, refresh, family, expires)

    def refresh(self, refresh_token: str) -> dict[str, Any]:
        """A new pair for a refresh token, which is spent; 401 for an unknown, expired or
        ended one, and for a spent one shown again (its whole session ends)."""
        old_hash = hash_secret(refresh_token)
        found = self.store.refresh_entry(old_hash)
        if found is None:
            raise Unauthorized("the refresh token is unknown or has expired: sign in again")
        account_id, family = found
        account = self.accounts.load(account_id)
        if account is None:
            raise Unauthorized("the account of this refresh token is gone")
        access, refresh, _ = self._new_pair()
        expires = expiry(time.time(), self.access_seconds)
        new_refresh, new_access = hash_secret(refresh), hash_secret(access)
        self.store.write_tokens(account_id, family, new_refresh, new_access, expires,
                                name_digest(account["name"]))
        status = self.store.rotate(account_id, family, old_hash, new_refresh, new_access,
                                   expires)
        if status != 1:
            self.store.forget_tokens(new_refresh, new_access)
            raise Unauthorized(
                "this refresh token was used already: its session is ended, sign in again"
                if status == -1 else "the session was signed out or has expired: sign in "
                "again")
        return self._tokens(access, refresh, family, expires)

    def family_of(self, access_token: str | None) -> tuple[str, str]:
        """The account and session of an access token (401 if it is none; 409 for an
        account key, which belongs to no session)."""
        if access_token is None:
            raise Unauthorized("this call needs an access token: send 'Authorization: "
                               "Bearer <access token>'")
        entry = self.accounts.key_entry(hash_secret(access_token))
        account_id = self.accounts.key_account(hash_secret(access_token), entry)
        if account_id is None:
            raise Unauthorized("the token belongs to no account (or has expired)")
        if not entry.get("family"):
            raise Conflict("this is an account key, not a session's access token: revoke "
                           "it with DELETE /v1/me/keys/{name}")
        return account_id, entry["family"]

    def sign_out(self, access_token: str | None) -> None:
        """End the session of ``access_token`` (its refresh token too)."""
        self.store.end(*self.family_of(access_token))

    def sign_out_everywhere(self, account_id: str) -> int:
        """End every session of the account; returns how many were live."""
        return self.store.end_all(account_id)

    def sessions(self, account_id: str) -> list[dict[str, Any]]:
        return self.store.sessions(account_id)

    def change_password(self, account: dict[str, Any], old: str, new: str
                        ) -> dict[str, Any]:
        """Set a new password (the old one must be given) and end every session; returns a
        new session's tokens for the caller. 409 for a bot account (it has no password)."""
        stored = self.accounts.password(account["id"])
        if stored is None:
            raise Conflict("a bot account has no password: it uses its keys")
        if not passwords.verify(stored, old):
            raise Unauthorized("the current password is wrong")
        if not self.accounts.set_password(account["id"],
                                          passwords.hash_password(passwords.check_password(new))):
            raise NotFound("the account was deleted meanwhile")
        self.store.end_all(account["id"])
        return self._start(account)

    def forget(self, account_id: str, _name: str) -> None:
        """A deleted account's sessions end (``AccountLifecycle.forgetters``)."""
        self.store.end_all(account_id)

    @staticmethod
    def _new_pair() -> tuple[str, str, str]:
        return (f"{ACCESS_PREFIX}{secrets.token_urlsafe(32)}",
                f"{REFRESH_PREFIX}{secrets.token_urlsafe(32)}", secrets.token_hex(8))

    def _tokens(self, access: str, refresh: str, family: str, expires: float
                ) -> dict[str, Any]:
        return {"access_token": access, "token_type": "Bearer",
                "expires_in": int(self.access_seconds), "expires_at": expires,
                "refresh_token": refresh, "refresh_expires_in": int(self.refresh_seconds),
                "session": family}
