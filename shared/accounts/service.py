"""Accounts: bots' registration (the API key is shown once, stored hashed), key checks (a
person's access token is checked as a key is), the seats an account owes a move in (pull
bots), an account's matches (``my_matches``), and the policy of webhook targets (push bots).
People sign up and in through ``sessions`` (:mod:`shared.accounts.sessions`).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Sequence
from typing import Any

from shared.accounts.lifecycle import AccountLifecycle, new_key, taken
from shared.accounts.names import check_name
from shared.accounts.sessions import SessionService
from shared.accounts.store import AccountStore
from shared.bots.signing import new_secret
from shared.domain.errors import Unauthorized, Unprocessable
from shared.infra.secrets import hash_secret
from shared.infra.webhook_target import Network, check_webhook_url, parse_networks
from shared.matches.service import MatchService

# The webhook URL policy lives in shared.infra.webhook_target (one parser for the check at
# registration and the call); imported here for the callers that know it from this module.
__all__ = ["AccountService", "Network", "check_webhook_url", "parse_networks"]
#: The most live matches ``my_matches`` lists.
MAX_LIVE = 200


class AccountService(AccountLifecycle):
    """Accounts over their own store; match data only through the :class:`MatchService`.
    Keys, changes and deletion: :class:`shared.accounts.lifecycle.AccountLifecycle`."""

    def __init__(self, accounts: AccountStore, matches: MatchService,
                 allowed_networks: Sequence[Network] = (),
                 sessions: SessionService | None = None) -> None:
        self.store = accounts
        self.matches = matches
        self.allowed_networks = list(allowed_networks)
        #: People's sign-in sessions (``shared.accounts.sessions``): ended with the account.
        self.sessions = sessions or SessionService(accounts)
        self.forgetters = [self.sessions.forget]
        self.holders = []
        #: Other news an account's waiting stream wakes for (its notifications): given the
        #: account, the channels announcing it and a read that changes with it.
        self.news: list[Callable[[str], tuple[list[str], Callable[[], Any]]]] = []

    def check_webhook(self, webhook: str) -> str:
        """The webhook URL as the check read it (normalised: the one spelling every later call
        parses), or a 422 for a URL this server does not call (:func:`check_webhook_url`)."""
        try:
            return check_webhook_url(webhook, self.allowed_networks).url
        except ValueError as exc:
            raise Unprocessable(str(exc), field="webhook") from None

    def create(self, name: str, webhook: str | None) -> tuple[dict[str, Any], str]:
        """Register an account; returns it and its API key (shown only now), named
        ``default`` among its keys. A 409 if another account has the name (any case)."""
        check_name(name)
        if webhook is not None:
            webhook = self.check_webhook(webhook)
        account = {"id": secrets.token_hex(8), "name": name, "kind": "bot",
                   "webhook": webhook, "created_at": time.time()}
        key = new_key()
        if not self.store.create(account, hash_secret(key)):
            raise taken(name)
        return account, key

    def new_webhook_secret(self, account_id: str) -> str:
        """A new secret to sign the account's webhook calls (``shared.bots.signing``), in
        force at once: returned to be shown once, the old one no longer used."""
        secret = new_secret()
        self.store.set_webhook_secret(account_id, secret)
        return secret

    def authenticate(self, key: str | None) -> dict[str, Any]:
        """The account of ``key`` (401 without one or for an unknown one)."""
        account_id = self.account_id(key)
        account = self.store.load(account_id)
        if account is None:
            raise Unauthorized("the key belongs to no account")
        return account

    @staticmethod
    def _key_hash(key: str | None) -> str:
        if key is None:
            raise Unauthorized("this call needs an account key: send 'Authorization: Bearer "
                               "<api key>'")
        return hash_secret(key)

    def account_id(self, key: str | None) -> str:
        """The id of the account of ``key`` (401 as ``authenticate``), in one round trip:
        the turn routes need no more (a key's entry goes with its account, so a key found
        has its account, but for a deletion under way)."""
        account_id = self.store.by_key_hash(self._key_hash(key))
        if account_id is None:
            raise Unauthorized("the key belongs to no account")
        return account_id

    def key_holds(self, key: str, account_id: str) -> bool:
        """Whether ``key`` is still a key of ``account_id`` (not revoked): what a stream or
        a long poll asks again after waiting (one round trip)."""
        return self.store.by_key_hash(hash_secret(key)) == account_id

    def owed_turns(self, account_id: str, match_ids: list[str] | None = None
                   ) -> list[dict[str, Any]]:
        """The turns the account owes now: per seat the match, seat, game, deadline, the
        ``version`` to quote, the seat's ``view`` and its legal ``moves`` (ids, labels), so
        a pull bot answers a turn with one request. Two round trips whatever the number of
        matches (the account's set, then its matches in one pipeline).

        A match stored under rules this server no longer plays is left out: every route of
        it answers 410, so its turn could never be played. It stays noted (unlike an ended
        match): a server that lags a rolling upgrade may take a newer rules version for a
        retired one, and the turn must come back once the upgrade has reached it.
        """
        if match_ids is None:
            match_ids = self.store.matches(account_id)
        turns, ended = self.matches.account_turns(account_id, match_ids)
        for match_id in ended:
            self.store.drop_match(account_id, match_id)
        return turns

    def wait_for_turns(self, account_id: str, timeout: float,
                       match_ids: list[str] | None = None,
                       key_hash: str | None = None) -> list[dict[str, Any]]:
        """The owed turns, waiting up to ``timeout`` seconds for one if there is none
        (``match_ids``: the account's matches, if just read). After each wait the key of
        ``key_hash`` is checked again: one revoked meanwhile gets a 401, not the turns."""
        deadline = time.monotonic() + timeout
        while True:
            turns = self.owed_turns(account_id, match_ids)
            match_ids = None  # read again after a wait
            left = deadline - time.monotonic()
            if turns or left <= 0:
                return turns
            self.wait_for_news(account_id, left)
            if key_hash is not None and self.store.by_key_hash(key_hash) != account_id:
                raise Unauthorized("the key was revoked")

    def wait_for_news(self, account_id: str, timeout: float) -> None:
        """Block until one of the account's matches changes or it gets a new one."""
        match_ids = self.store.matches(account_id)
        others = [source(account_id) for source in self.news]

        def snapshot() -> tuple[Any, ...]:
            return (self.store.generation(account_id), *self.matches.versions(match_ids),
                    *(read() for _, read in others))

        channels = [*self.matches.channels(match_ids), *(c for cs, _ in others for c in cs)]
        self.store.wait(account_id, channels, snapshot, snapshot(), timeout)

    def kinds(self, account_ids: Sequence[str]) -> dict[str, str]:
        """Each account's kind (``bot`` or ``person``; a gone account is left out)."""
        return self.store.kinds(account_ids)

    def my_matches(self, account_id: str, limit: int, before: float | None
                   ) -> dict[str, Any]:
        """The account's live matches (all of them, up to ``MAX_LIVE``, with whose turn and
        the deadline) and a page of its ended ones, newest first: ``limit`` taken before the
        cursor ``before`` (when it took its seat); ``next`` is the cursor of the next page
        (None: no more)."""
        live_ids = self.store.matches(account_id)
        live = [found for found in self.matches.summaries(live_ids[:MAX_LIVE], account_id)
                if found is not None and found["live"]]
        ended: list[dict[str, Any]] = []
        cursor, more = before, True
        while more and len(ended) < limit:
            page = self.store.played_page(account_id, cursor, limit)
            more = len(page) == limit
            found = self.matches.summaries([match_id for match_id, _ in page], account_id)
            for (_, taken_at), summary in zip(page, found, strict=True):
                cursor = taken_at
                if summary is not None and not summary["live"]:
                    ended.append(summary)
                if len(ended) == limit:
                    more = more or taken_at != page[-1][1]
                    break
        return {"live": sorted(live, key=lambda m: (not m["your_turn"], -m["updated_at"])),
                "finished": ended, "next": cursor if more else None}
