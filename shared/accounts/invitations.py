"""Invitations: a match or tournament that names an account seats it only once the account
accepts, with its own key.

A creator holding an account's key takes that account's seats at once (``POST /v1/matches``
and ``POST /v1/tournaments`` with ``Authorization: Bearer <key>``); every other account it
names is invited. The match service (``MatchService.accept_invitation``) and the tournament
service (``TournamentService.accept_invitation``) keep what is pending in the match's seats and
the tournament's entrants; the invited account's list (``evo:a:{id}:invitations``, written
where the match or tournament is created) is what it reads here, over the API or its pull
paths (``GET /v1/me/turns``, ``GET /v1/me/stream``). An invitation no longer pending (the
match or tournament ended, was cancelled, or its invitation expired) is dropped when the list
is next read.
"""

from __future__ import annotations

import time
from typing import Any

from shared.accounts.service import AccountService
from shared.accounts.store import AccountStore
from shared.domain.errors import Conflict, Gone, NotFound, Unauthorized
from shared.domain.types import MatchStatus
from shared.infra.secrets import hash_secret
from shared.matches.service import MatchService
from shared.tournaments.service import TournamentService


class InvitationService:
    """An account's invitations: listed, accepted, declined (always for the key's account)."""

    def __init__(self, accounts: AccountStore, matches: MatchService,
                 tournaments: TournamentService, account_service: AccountService) -> None:
        self.store = accounts
        self.matches = matches
        self.tournaments = tournaments
        self.accounts = account_service

    def pending(self, account_id: str) -> list[dict[str, Any]]:
        """The account's invitations still waiting for its answer, oldest first (one round
        trip when there are none; the rest, no longer pending, are dropped)."""
        return self._still_pending(account_id, self.store.invitations(account_id))

    def turns_and_pending(self, account_id: str,
                          read: tuple[list[str], list[dict[str, Any]]] | None = None
                          ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """``AccountService.owed_turns`` and :meth:`pending` at once: the account's matches
        and invitations are read in one round trip (a pull bot asks for both every turn), or
        taken from ``read`` if just read with the key."""
        match_ids, invitations = read or self.store.matches_and_invitations(account_id)
        turns, ended = self.matches.account_turns(account_id, match_ids)
        for match_id in ended:
            self.store.drop_match(account_id, match_id)
        return turns, self._still_pending(account_id, invitations)

    def turns_for_key(self, key: str | None, timeout: float
                      ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The owed turns and pending invitations of the account of ``key`` (401 as
        ``AccountService.authenticate``), waiting up to ``timeout`` seconds for a turn or an
        invitation not pending when the wait began (one already shown does not end it).

        Two round trips when nothing is awaited: the key's check read with the account's
        matches and invitations (``AccountStore.account_and_matches``), then the matches.
        After each wait the key is checked again: one revoked meanwhile gets a 401."""
        if key is None:
            raise Unauthorized("this call needs an account key: send 'Authorization: Bearer "
                               "<api key>'")
        account_id, read = self.store.account_and_matches(hash_secret(key))
        if account_id is None:
            raise Unauthorized("the key belongs to no account")
        deadline = time.monotonic() + timeout
        known: set[str] | None = None
        while True:
            found, pending = self.turns_and_pending(account_id, read)
            read = None  # read again after a wait
            known = {inv["id"] for inv in pending} if known is None else known
            left = deadline - time.monotonic()
            if found or left <= 0 or any(inv["id"] not in known for inv in pending):
                return found, pending
            self.accounts.wait_for_news(account_id, left)
            if not self.accounts.key_holds(key, account_id):
                raise Unauthorized("the key was revoked")

    def _still_pending(self, account_id: str, invitations: list[dict[str, Any]]
                       ) -> list[dict[str, Any]]:
        if not invitations:
            return []
        match_ids = [inv["match"] for inv in invitations if inv["kind"] == "match"]
        statuses = dict(zip(match_ids, self.matches.statuses(match_ids), strict=True))
        keep: list[dict[str, Any]] = []
        gone: list[dict[str, Any]] = []
        for inv in invitations:
            if inv["kind"] == "match":
                live = statuses[inv["match"]] == MatchStatus.WAITING
            else:
                live = self._tournament_status(inv["tournament"]) == "waiting"
            (keep if live else gone).append(inv)
        self.store.drop_invitations(account_id, [inv["id"] for inv in gone])
        return keep

    def _tournament_status(self, tournament_id: str) -> str | None:
        try:
            return str(self.tournaments.load(tournament_id)["status"])
        except NotFound:
            return None

    def answer(self, account_id: str, invitation_id: str, accept: bool) -> dict[str, Any]:
        """Accept or decline one of the account's invitations; the match's or tournament's
        status after it. 404 for an invitation that is not this account's (or no longer
        kept), 409 once its match or tournament no longer waits for an answer."""
        invitation = self.store.invitation(account_id, invitation_id)
        if invitation is None:
            raise NotFound(f"this account has no invitation {invitation_id!r}")
        try:
            status = self._answer(account_id, invitation, accept)
        except (Conflict, Gone, NotFound):
            self.store.drop_invitations(account_id, [invitation_id])  # too late to answer
            raise
        self.store.drop_invitations(account_id, [invitation_id])
        return {"invitation": invitation, "answer": "accepted" if accept else "declined",
                "status": status}

    def _answer(self, account_id: str, invitation: dict[str, Any], accept: bool) -> str:
        if invitation["kind"] == "match":
            match_id = invitation["match"]
            record = (self.matches.accept_invitation(match_id, account_id) if accept
                      else self.matches.decline_invitation(match_id, account_id))
            return str(record.status)
        tournament_id = invitation["tournament"]
        described = (self.tournaments.accept_invitation(tournament_id, account_id) if accept
                     else self.tournaments.decline_invitation(tournament_id, account_id))
        return str(described["status"])
