"""Bot accounts: register (the API key is shown once), who am I, and the turns owed (pull),
with the account's pending invitations (``api.invitations`` answers them)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response

from api import sse
from api.arena_schemas import CreateAccountSchema, TurnsQuery
from api.context import (
    accounts,
    bearer_token,
    invitations,
    json_body,
    query,
    rate_limit,
    settings,
)

bp = Blueprint("accounts", __name__, url_prefix="/v1")


@bp.post("/accounts")
def create_account() -> tuple[dict[str, Any], int, dict[str, str]]:
    rate_limit("accounts", settings().accounts_per_minute)
    body = json_body(CreateAccountSchema())
    account, key = accounts().create(body["name"], body.get("webhook"))
    return {**account, "key": key}, 201, {"Location": "/v1/me"}


@bp.get("/me")
def me() -> dict[str, Any]:
    """The account of the key (its webhook included: only its owner holds the key)."""
    return accounts().authenticate(bearer_token())


@bp.get("/me/turns")
def turns() -> dict[str, Any]:
    """The turns the account owes, each with the seat's view, its legal moves and the version
    to quote (a pull bot's move is this and the POST), and its pending ``invitations``;
    ``wait`` long-polls until there is a turn or a new invitation.
    """
    args = query(TurnsQuery())
    account_id = accounts().account_id(bearer_token())
    wait = min(args["wait"], settings().max_wait_seconds)
    found, pending = _wait_for_turns(account_id, wait)
    return {"turns": found, "invitations": pending}


def _wait_for_turns(account_id: str, timeout: float
                    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The owed turns and pending invitations, waiting up to ``timeout`` seconds for a turn or
    an invitation not pending when the wait began (one already shown does not end it)."""
    deadline = time.monotonic() + timeout
    known: set[str] | None = None
    while True:
        found, pending = invitations().turns_and_pending(account_id)
        known = {inv["id"] for inv in pending} if known is None else known
        left = deadline - time.monotonic()
        if found or left <= 0 or any(inv["id"] not in known for inv in pending):
            return found, pending
        accounts().wait_for_news(account_id, left)


@bp.get("/me/stream")
def turns_stream() -> Response:
    """Server-sent events: a ``turns`` event (what ``/me/turns`` answers: the turns, views
    and legal moves included, and the pending invitations) whenever the owed turns change,
    and an ``invitations`` event (the pending invitations, as ``/me/invitations``) when there
    are some and whenever they change."""
    account_id = accounts().account_id(bearer_token())
    service, invited = accounts(), invitations()
    last: list[Any] = list(invited.turns_and_pending(account_id))

    def first() -> Iterator[str]:
        yield sse.event("turns", None, {"turns": last[0], "invitations": last[1]})
        if last[1]:
            yield sse.event("invitations", None, {"invitations": last[1]})

    def wait(seconds: float) -> Iterator[str]:
        service.wait_for_news(account_id, seconds)
        now, pending = invited.turns_and_pending(account_id)
        if pending != last[1]:
            last[1] = pending
            yield sse.event("invitations", None, {"invitations": pending})
        if now != last[0]:
            last[0] = now
            yield sse.event("turns", None, {"turns": now, "invitations": pending})

    return sse.stream(first(), wait)
