"""Matches: create, join, read (spectator or seat), legal moves, moves, resign, events,
waiting."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, current_app, request
from marshmallow import ValidationError

from api import sse
from api.context import (
    admit_bot_work,
    bearer_token,
    client_address,
    creator_accounts,
    json_body,
    query,
    rate_limit,
    service,
    settings,
)
from api.details import translate
from api.i18n import current_lang
from api.match_schemas import (
    CreateMatchSchema,
    EventsQuery,
    JoinSchema,
    ListMatchesQuery,
    ReadMatchQuery,
    StreamQuery,
    SubmitMoveSchema,
)
from shared.bots.hints import hint
from shared.domain.errors import ServiceError, Unauthorized, Unavailable, Unprocessable
from shared.domain.types import MatchStatus
from shared.infra.queue import send_hint
from shared.matches import retries
from shared.matches.record import ENDED, MatchRecord
from shared.matches.service import shown

bp = Blueprint("matches", __name__, url_prefix="/v1/matches")
_IDEMPOTENCY_KEY_MAX = 200
#: Built once: a marshmallow schema deep-copies its fields on creation, and a move is the hot
#: path (loading with one schema instance is safe from any greenlet).
SUBMIT_MOVE = SubmitMoveSchema()


@bp.post("")
def create_match() -> tuple[dict[str, Any], int, dict[str, str]]:
    key = retry_key()
    body = json_body(CreateMatchSchema())
    accepted = creator_accounts()  # the key's account's seats are taken; others invited
    retry = None if key is None else (key, retries.fingerprint("create", body, accepted))
    # A request sent again gets the match the first one created before any limit: it is
    # created already, and a client that lost the answer must be able to learn its tokens.
    earlier = None if retry is None else service().created_under(*retry)
    if earlier is not None:
        return created(*earlier)
    rate_limit("matches", settings().matches_per_minute)
    match_id = secrets.token_hex(8)  # chosen first: its bot seats are reserved under it
    work = admit_bot_work(body["seats"], match_id)
    try:
        record, tokens = service().create_match(
            body["game"], body["options"], body.get("seed"), body["seats"],
            rated=body["rated"], move_deadline=body.get("move_deadline"), match_id=match_id,
            accepted=accepted, time_control=body.get("time_control"), retry=retry)
    except Exception:
        if work is not None:
            work.release(client_address(), match_id)
        raise
    return created(record, tokens)


def created(record: MatchRecord, tokens: dict[int, str]
            ) -> tuple[dict[str, Any], int, dict[str, str]]:
    out = service().describe(record, None)
    out["tokens"] = [{"seat": seat, "token": token} for seat, token in sorted(tokens.items())]
    return out, 201, {"Location": f"/v1/matches/{record.id}"}


def well_formed_key(key: str, shortest: int = 1) -> bool:
    """Whether an Idempotency-Key has ``shortest``-200 printable characters."""
    return shortest <= len(key) <= _IDEMPOTENCY_KEY_MAX and key.isprintable()


def retry_key() -> str | None:
    """The request's Idempotency-Key where no token guards the request (creating a match,
    joining one): the key alone tells one client's retry from another's request, so it must
    be long (422 otherwise; ``shared.matches.retries``)."""
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not well_formed_key(key, retries.MIN_KEY_LENGTH):
        raise Unprocessable(f"Idempotency-Key must be {retries.MIN_KEY_LENGTH}-"
                            f"{_IDEMPOTENCY_KEY_MAX} printable characters here (a UUID): no "
                            "token guards this request, so the key must not be guessable")
    return key


@bp.get("")
def list_matches() -> dict[str, Any]:
    """Matches that are not over, most recently changed first (the lobby)."""
    args = query(ListMatchesQuery())
    listed = service().list_matches(args.get("status"), args.get("game"), args.get("open"),
                                    args["limit"])
    return {"matches": listed}


@bp.get("/<match_id>")
def read_match(match_id: str) -> dict[str, Any]:
    args = query(ReadMatchQuery())
    try:
        token = bearer_token()
    except Unauthorized:
        service().read(match_id)  # an unknown match is a 404 before a malformed header's 401
        raise
    record, seat = service().read_as(match_id, token)  # the seat token checked with the read
    if not isinstance(record, MatchRecord):  # ended, its state expired: the kept result
        return record  # (a seat reads it as a spectator)
    if "wait" in args and args.get("version") == record.version:
        wait = min(args["wait"], settings().max_wait_seconds)
        if service().wait_for_change(match_id, record.version, wait) != record.version:
            record = service().load(match_id)
    return service().describe(record, seat)


@bp.post("/<match_id>/join")
def join_match(match_id: str) -> tuple[dict[str, Any], int]:
    key = retry_key()
    body = json_body(JoinSchema())
    # With an account's key (a person's access token too) the seat becomes the account's.
    joiner = next(iter(creator_accounts()), None)
    if joiner is not None and "name" in body:
        raise Unprocessable("a seat taken with an account's key plays under the account's "
                            "name: send no 'name'", field="name")
    retry = None if key is None else (key, retries.fingerprint("join", match_id, body, joiner))
    # A join sent again gets the seat the first one took before any limit (its answer lost).
    earlier = None if retry is None else service().joined_under(match_id, *retry)
    if earlier is not None:
        seat, token = earlier
        record = service().load(match_id)
    else:
        rate_limit("joins", settings().joins_per_minute)
        record, seat, token = service().join(match_id, body.get("seat"), body.get("name"),
                                             joiner, retry)
    return {"seat": seat, "token": token, "match": service().describe(record, seat)}, 201


@bp.get("/<match_id>/hint")
def suggest_move(match_id: str) -> tuple[dict[str, Any], int, dict[str, str]]:
    """The move the search would play for the caller's seat (asked of a bot worker)."""
    record = service().load(match_id)  # an unknown match is a 404 whatever the token
    seat = service().authenticate(match_id, bearer_token(), required=True)
    assert seat is not None  # required=True: no token is a 401
    broker = settings().broker_url
    lang = current_lang()
    try:
        found = hint(service(), match_id, seat, lambda *args: send_hint(broker, *args),
                     settings().hint_wait_seconds)
    except Unavailable as busy:  # not a server fault: every bot worker is busy; ask again
        retry = busy.extra["retry_after"]
        detail, worded = translate(busy.detail, lang)
        return ({"status": "searching", "detail": detail, "retry_after": retry}, 202,
                {"Retry-After": str(retry), "Content-Language": worded})
    body, worded = _hint_in(found, record, seat, lang)
    return body, 200, {"Content-Language": worded}


def _hint_in(found: dict[str, Any], record: MatchRecord, seat: int, lang: str
             ) -> tuple[dict[str, Any], str]:
    """The hint with its move labelled in ``lang`` (the worker labels it in English, seats by
    number) as the seat's legal moves label it now (seats by name), and the language of its
    label."""
    labels = {m["id"]: m["label"] for m in service().legal_moves(record, seat, lang)}
    if found.get("move_id") not in labels:
        return found, "en"
    return {**found, "label": labels[found["move_id"]]}, lang


@bp.get("/<match_id>/moves")
def legal_moves(match_id: str) -> tuple[dict[str, Any], dict[str, str]]:
    record, seat = service().load_as(match_id, bearer_token(), required=True)
    lang = current_lang()  # the labels' language (docs/languages.md)
    # ``game`` tells a typed client which game's move types the list holds (the contract
    # discriminates LegalMoves on it).
    return ({"game": record.game, "version": record.version, "seat": seat,
             "status": record.status, "to_move": record.to_move,
             "moves": service().legal_moves(record, seat, lang)},
            {"Content-Language": lang, "Vary": "Accept-Language"})


@bp.post("/<match_id>/moves")
def submit_move(match_id: str) -> dict[str, Any]:
    # An unknown match is a 404 before any token check.
    record, seat = service().load_as(match_id, bearer_token(), required=True)
    assert seat is not None  # required=True: no seat is a 401 or 403
    key = request.headers.get("Idempotency-Key")
    valid_key = key is not None and well_formed_key(key)
    if key is not None and valid_key:
        # A retry of an accepted move gets its stored answer before any limit: the move is
        # already applied, and a client that lost the answer must be able to learn it.
        stored = stored_retry(match_id, seat, key)
        if stored is not None:
            return stored
    rate_limit("moves", settings().moves_per_minute, bearer_token())
    body = json_body(SUBMIT_MOVE)
    if key is not None and not valid_key:
        raise Unprocessable(f"Idempotency-Key must be 1-{_IDEMPOTENCY_KEY_MAX} printable "
                            "characters")
    move = body["move"] if "move" in body else body["move_id"]
    # With a key, its stored answer was looked up above: not again (a move is the hot path).
    answer = service().submit_move(match_id, seat, body["version"], move, key, record=record,
                                   answer_checked=key is not None)
    current_app.extensions["evo.moves_accepted"].inc()
    return answer


@bp.post("/<match_id>/resign")
def resign(match_id: str) -> dict[str, Any]:
    """The caller's seat leaves the match for good (``shared.matches.resignation``)."""
    # An unknown match is a 404 before any token check.
    _, seat = service().load_as(match_id, bearer_token(), required=True)
    assert seat is not None  # required=True: no seat is a 401 or 403
    return service().describe(service().resign(match_id, seat), seat)


def stored_retry(match_id: str, seat: int, key: str) -> dict[str, Any] | None:
    """The stored answer of the keyed move this request repeats, if it was accepted; a body
    that is no move is judged (and counted by the limit) as any request, after it."""
    try:
        body = json_body(SUBMIT_MOVE)
    except (ServiceError, ValidationError):
        return None
    move = body["move"] if "move" in body else body["move_id"]
    return service().stored_answer(match_id, seat, body["version"], move, key)


@bp.get("/<match_id>/events")
def events(match_id: str) -> dict[str, Any]:
    args = query(EventsQuery())
    record = service().read(match_id)
    if not isinstance(record, MatchRecord):  # ended, its state expired: the kept log
        bearer_token()
        return service().kept_events(record, args["since"])
    seat = service().authenticate(match_id, bearer_token(), required=False)
    return {"version": record.version, "status": record.status, "redacted":
            record.sealed or record.status != MatchStatus.FINISHED,
            "events": service().events(record, seat, args["since"])}


@bp.get("/<match_id>/stream")
def stream(match_id: str) -> Response:
    """Server-sent events: one ``version`` event per version, in order, with its log entry
    (redacted for the caller, as ``/events``); an ``end`` event closes a match that is over,
    and a reconnect that already has the last version gets 204 so ``EventSource`` stops."""
    args = query(StreamQuery())
    record = service().read(match_id)
    # A reconnecting EventSource repeats the URL (and its ``since``) with Last-Event-ID: the
    # header is the newer news, so it wins.
    last_id = request.headers.get("Last-Event-ID", "")
    since = int(last_id) if last_id.isascii() and last_id.isdigit() else args.get("since")
    if not isinstance(record, MatchRecord):  # ended, its state expired: from the kept log
        bearer_token()
        if since is not None and since >= record["version"]:
            return Response(status=204)
        return sse.stream(iter(kept_stream(record, since)), lambda _: None)
    seat = service().authenticate(match_id, bearer_token(), required=False)
    if record.status in ENDED and since is not None and since >= record.version:
        return Response(status=204)
    matches = service()
    # Without a version to resume from, the stream starts at the current version.
    seen = {"version": record.version - 1 if since is None else min(since, record.version)}

    def catch_up(latest: MatchRecord) -> Iterator[str]:
        """The events of every version after the last one sent, up to ``latest``'s."""
        start = seen["version"]
        entries = matches.entries(match_id, max(start - 1, 0), latest.version - 2)
        finished = latest.status == MatchStatus.FINISHED
        by_version = {e["version"]: shown(e, seat, finished, latest.sealed) for e in entries}
        for version in range(start + 1, latest.version + 1):
            yield sse.event("version", version, {
                "version": version, "status": latest.status, "to_move": latest.to_move,
                "entry": by_version.get(version)})
        seen["version"] = latest.version
        if latest.status in ENDED:
            yield sse.event("end", latest.version, {
                "version": latest.version, "status": latest.status, "result": latest.result})

    def wait(seconds: float) -> Iterator[str] | None:
        latest = matches.peek(match_id)
        if latest is None or (latest.status in ENDED and seen["version"] >= latest.version):
            return None
        if latest.version == seen["version"]:
            if matches.wait_for_change(match_id, seen["version"], seconds) == seen["version"]:
                return iter([])
            latest = matches.peek(match_id)
            if latest is None:
                return None
        return catch_up(latest)

    return sse.stream(catch_up(record), wait)


def kept_stream(kept: dict[str, Any], since: int | None) -> list[str]:
    """The events of a match kept after its end: its versions after ``since`` (the final one
    alone without it) from the kept log, then ``end``; 410 (before anything is sent) if the
    log is no longer kept."""
    final = kept["version"]
    start = final - 1 if since is None else since
    log = service().kept_events(kept, start)
    by_version = {e["version"]: e for e in log["events"]}
    return [sse.event("version", version, {"version": version, "status": kept["status"],
                                           "to_move": [], "entry": by_version.get(version)})
            for version in range(start + 1, final + 1)] + [
        sse.event("end", final, {"version": final, "status": kept["status"],
                                 "result": kept["result"]})]
