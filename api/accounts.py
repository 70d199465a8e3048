"""Bot accounts: register (the API key and webhook secret are shown once), who am I, a new
webhook secret, and the turns owed (pull), with the account's pending invitations
(``api.invitations`` answers them)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, request

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
from api.notifications import REPLAY_BATCH, STREAM_ID, notifications

bp = Blueprint("accounts", __name__, url_prefix="/v1")


@bp.post("/accounts")
def create_account() -> tuple[dict[str, Any], int, dict[str, str]]:
    rate_limit("accounts", settings().accounts_per_minute)
    body = json_body(CreateAccountSchema())
    account, key = accounts().create(body["name"], body.get("webhook"))
    secret = accounts().new_webhook_secret(account["id"])  # shown only now, like the key
    return {**account, "key": key, "webhook_secret": secret}, 201, {"Location": "/v1/me"}


@bp.get("/me")
def me() -> dict[str, Any]:
    """The account of the key (its webhook included: only its owner holds the key)."""
    return accounts().authenticate(bearer_token())


@bp.post("/me/webhook-secret")
def rotate_webhook_secret() -> dict[str, str]:
    """A new secret signs the account's webhook calls from now on (shown only now)."""
    account_id = accounts().account_id(bearer_token())
    return {"webhook_secret": accounts().new_webhook_secret(account_id)}


@bp.get("/me/turns")
def turns() -> dict[str, Any]:
    """The turns the account owes, each with the seat's view, its legal moves and the version
    to quote (a pull bot's move is this and the POST), and its pending ``invitations``;
    ``wait`` long-polls until there is a turn or a new invitation.
    """
    args = query(TurnsQuery())
    wait = min(args["wait"], settings().max_wait_seconds)
    found, pending = invitations().turns_for_key(bearer_token(), wait)
    return {"turns": found, "invitations": pending}


@bp.get("/me/stream")
def turns_stream() -> Response:
    """Server-sent events: a ``turns`` event (what ``/me/turns`` answers: the turns, views
    and legal moves included, and the pending invitations) whenever the owed turns change,
    and an ``invitations`` event (the pending invitations, as ``/me/invitations``) when there
    are some and whenever they change. A key revoked meanwhile ends the stream.

    Each notification (``shared.notifications``) is a ``notification`` event whose id is its
    place in the account's notification stream: a reconnection's ``Last-Event-ID`` replays
    those after it (only notification events carry an id, so the header is always one)."""
    key = bearer_token()
    account_id = accounts().account_id(key)  # a 401 without a key
    service, invited, notes = accounts(), invitations(), notifications()
    given = request.headers.get("Last-Event-ID", "").strip()
    cursor = [given if STREAM_ID.fullmatch(given) else notes.last_id(account_id)]
    last: list[Any] = list(invited.turns_and_pending(account_id))

    def news() -> Iterator[str]:
        while True:
            found = notes.after(account_id, cursor[0])
            for stream_id, note in found:
                cursor[0] = stream_id
                yield sse.event("notification", stream_id, note)
            if len(found) < REPLAY_BATCH:
                return

    def first() -> Iterator[str]:
        yield sse.event("turns", None, {"turns": last[0], "invitations": last[1]})
        if last[1]:
            yield sse.event("invitations", None, {"invitations": last[1]})
        yield from news()

    def changed() -> Iterator[str]:
        yield from news()
        now, pending = invited.turns_and_pending(account_id)
        if pending != last[1]:
            last[1] = pending
            yield sse.event("invitations", None, {"invitations": pending})
        if now != last[0]:
            last[0] = now
            yield sse.event("turns", None, {"turns": now, "invitations": pending})

    def wait(seconds: float) -> Iterator[str] | None:
        service.wait_for_news(account_id, seconds)
        if not service.key_holds(key or "", account_id):
            return None  # revoked: the stream ends (a reconnection gets its 401)
        return changed()

    return sse.stream(first(), wait)
