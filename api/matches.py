"""Matches: create, join, read (spectator or seat), legal moves, moves, events, waiting."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, current_app, request

from api import sse
from api.context import (
    admit_bot_work,
    bearer_token,
    client_address,
    json_body,
    query,
    rate_limit,
    service,
    settings,
)
from api.match_schemas import (
    CreateMatchSchema,
    EventsQuery,
    JoinSchema,
    ReadMatchQuery,
    StreamQuery,
    SubmitMoveSchema,
)
from shared.errors import Unavailable, Unprocessable
from shared.hints import hint
from shared.limits import bot_seat_count
from shared.queue import request_hint

bp = Blueprint("matches", __name__, url_prefix="/v1/matches")
_IDEMPOTENCY_KEY_MAX = 200


@bp.post("")
def create_match() -> tuple[dict[str, Any], int, dict[str, str]]:
    rate_limit("matches", settings().matches_per_minute)
    body = json_body(CreateMatchSchema())
    work = admit_bot_work(body["seats"])
    record, tokens = service().create_match(body["game"], body["options"], body.get("seed"),
                                            body["seats"], rated=body["rated"],
                                            move_deadline=body.get("move_deadline"))
    if work is not None:
        work.add(client_address(), record.id, bot_seat_count(body["seats"]))
    out = service().describe(record, None)
    out["tokens"] = [{"seat": seat, "token": token} for seat, token in sorted(tokens.items())]
    return out, 201, {"Location": f"/v1/matches/{record.id}"}


@bp.get("/<match_id>")
def read_match(match_id: str) -> dict[str, Any]:
    args = query(ReadMatchQuery())
    record = service().load(match_id)
    seat = service().authenticate(match_id, bearer_token(), required=False)
    if "wait" in args and args.get("version") == record.version:
        wait = min(args["wait"], settings().max_wait_seconds)
        if service().store.wait_for_change(match_id, record.version, wait) != record.version:
            record = service().load(match_id)
    return service().describe(record, seat)


@bp.post("/<match_id>/join")
def join_match(match_id: str) -> tuple[dict[str, Any], int]:
    rate_limit("joins", settings().joins_per_minute)
    body = json_body(JoinSchema())
    record, seat, token = service().join(match_id, body.get("seat"), body.get("name"))
    return {"seat": seat, "token": token, "match": service().describe(record, seat)}, 201


@bp.get("/<match_id>/hint")
def suggest_move(match_id: str) -> tuple[dict[str, Any], int, dict[str, str]]:
    """The move the search would play for the caller's seat (asked of a bot worker)."""
    service().load(match_id)  # an unknown match is a 404 whatever the token, as elsewhere
    seat = service().authenticate(match_id, bearer_token(), required=True)
    assert seat is not None  # required=True: no token is a 401
    broker = settings().broker_url
    try:
        return hint(service(), match_id, seat, lambda *args: request_hint(broker, *args)), \
            200, {}
    except Unavailable as busy:  # not a server fault: every bot worker is busy; ask again
        retry = busy.extra["retry_after"]
        return ({"status": "searching", "detail": busy.detail, "retry_after": retry}, 202,
                {"Retry-After": str(retry)})


@bp.get("/<match_id>/moves")
def legal_moves(match_id: str) -> dict[str, Any]:
    record = service().load(match_id)
    seat = service().authenticate(match_id, bearer_token(), required=True)
    return {"version": record.version, "seat": seat, "status": record.status,
            "to_move": record.to_move, "moves": service().legal_moves(record, seat)}


@bp.post("/<match_id>/moves")
def submit_move(match_id: str) -> dict[str, Any]:
    service().load(match_id)  # an unknown match is a 404 before any token check
    seat = service().authenticate(match_id, bearer_token(), required=True)
    rate_limit("moves", settings().moves_per_minute, bearer_token())
    body = json_body(SubmitMoveSchema())
    key = request.headers.get("Idempotency-Key")
    if key is not None and not (0 < len(key) <= _IDEMPOTENCY_KEY_MAX and key.isprintable()):
        raise Unprocessable(f"Idempotency-Key must be 1-{_IDEMPOTENCY_KEY_MAX} printable "
                            "characters")
    move = body["move"] if "move" in body else body["move_id"]
    answer = service().submit_move(match_id, seat, body["version"], move, key)
    current_app.extensions["evo.moves_accepted"].inc()
    return answer


@bp.get("/<match_id>/events")
def events(match_id: str) -> dict[str, Any]:
    args = query(EventsQuery())
    record = service().load(match_id)
    seat = service().authenticate(match_id, bearer_token(), required=False)
    return {"version": record.version, "status": record.status, "redacted":
            record.status != "finished", "events": service().events(record, seat,
                                                                    args["since"])}


@bp.get("/<match_id>/stream")
def stream(match_id: str) -> Response:
    """Server-sent events: one ``version`` event per change (no secrets: read the match)."""
    args = query(StreamQuery())
    record = service().load(match_id)
    last_id = request.headers.get("Last-Event-ID", "")
    since = args.get("since", int(last_id) if last_id.isascii() and last_id.isdigit() else None)
    store = service().store
    seen = {"version": record.version, "status": record.status}

    def first() -> Iterator[str]:
        if since is None or since != record.version:
            yield _sse(record.version, record.status, record.to_move)

    def wait(seconds: float) -> Iterator[str] | None:
        if seen["status"] == "finished":
            return None
        current = store.wait_for_change(match_id, seen["version"], seconds)
        if current is None:
            return None
        if current == seen["version"]:
            return iter([])
        latest = service().load(match_id)
        seen.update(version=latest.version, status=latest.status)
        return iter([_sse(latest.version, latest.status, latest.to_move)])

    return sse.stream(first(), wait)


def _sse(version: int, status: str, to_move: list[int]) -> str:
    return sse.event("version", version, {"version": version, "status": status,
                                           "to_move": to_move})
