"""What the match service needs of the accounts' store, as a protocol.

A match's seats name accounts: creating a match notes it in each account's index, a key or
access token on a move is resolved to its account, and a webhook seat needs its account and
signing secret. The accounts feature depends on matches (its service reads them through the
match service), so matches must not import it back: the composition root
(``shared.services``) hands the match service the accounts' store, which satisfies this
protocol structurally.
"""

from __future__ import annotations

from typing import Any, Protocol

from shared.infra.redis_client import Commands


class AccountDirectory(Protocol):
    """The accounts' store as the match service sees it (``shared.accounts.store``)."""

    def load(self, account_id: str) -> dict[str, Any] | None:
        """The account's record; None if there is no such account."""
        ...

    def queue_key_lookup(self, pipe: Commands, key_hash: str) -> None:
        """Queue the read of a key's entry on another store's pipeline."""
        ...

    def key_account(self, key_hash: str, entry: dict[str, str]) -> str | None:
        """The account of a key from its entry as read by :meth:`queue_key_lookup`."""
        ...

    def by_key_hash(self, key_hash: str) -> str | None:
        """The account of a key by its hash (one round trip); None if unknown or revoked."""
        ...

    def legacy_account(self, key_hash: str) -> str | None:
        """The account of a key from before named keys, moved to named keys on first use."""
        ...

    def add_match(self, account_id: str, match_id: str,
                  invitation: dict[str, Any] | None = None) -> None:
        """Note a new seat of the account (with its pending invitation, if any)."""
        ...

    def webhook_secret(self, account_id: str, new: str) -> str:
        """The account's webhook signing secret; ``new`` becomes it if it has none."""
        ...
