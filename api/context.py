"""Request helpers shared by the blueprints: the service, the JSON body, the bearer token."""

from __future__ import annotations

import json
from typing import Any

from flask import current_app, request
from marshmallow import Schema

from shared.accounts import AccountService
from shared.config import Settings
from shared.errors import ServiceError, Unauthorized
from shared.service import MatchService
from shared.tournaments.service import TournamentService


class BadRequest(ServiceError):
    status = 400


class TooManyRequests(ServiceError):
    status = 429


def service() -> MatchService:
    return current_app.extensions["evo.service"]


def settings() -> Settings:
    return current_app.extensions["evo.settings"]


def accounts() -> AccountService:
    return current_app.extensions["evo.accounts"]


def tournaments() -> TournamentService:
    return current_app.extensions["evo.tournaments"]


def rate_limit(bucket: str, per_minute: int) -> None:
    """Refuse (429) a client address's request beyond ``per_minute`` in this minute."""
    who = request.remote_addr or "unknown"
    if not accounts().store.hit(bucket, who, per_minute, 60.0):
        raise TooManyRequests(f"at most {per_minute} such requests a minute; retry later")


def json_body(schema: Schema) -> dict[str, Any]:
    """The request's JSON body validated by ``schema`` (marshmallow errors become 422)."""
    if not request.is_json:
        raise BadRequest("the body must be JSON with 'Content-Type: application/json'")
    raw = request.get_data(cache=True)
    try:
        data = json.loads(raw or b"null")
    except (ValueError, UnicodeDecodeError) as exc:
        raise BadRequest(f"the body is not valid JSON: {exc}") from None
    except RecursionError:
        raise BadRequest("the body is nested too deeply") from None
    if not isinstance(data, dict):
        raise BadRequest("the body must be a JSON object")
    return schema.load(data)


def query(schema: Schema) -> dict[str, Any]:
    """The query string validated by ``schema``; a parameter given twice is a 400."""
    repeated = sorted(key for key, values in request.args.lists() if len(values) > 1)
    if repeated:
        raise BadRequest(f"query parameter(s) given more than once: {', '.join(repeated)}")
    return schema.load(request.args.to_dict())


def bearer_token() -> str | None:
    """The bearer token of the request, None if there is no Authorization header."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("the Authorization header must be 'Bearer <token>'")
    return token.strip()
