"""Request helpers shared by the blueprints: the service, the JSON body, the bearer token."""

from __future__ import annotations

import json
from typing import Any

from flask import current_app, request
from marshmallow import Schema

from shared.accounts.invitations import InvitationService
from shared.accounts.service import AccountService
from shared.domain.errors import ServiceError, Unauthorized
from shared.infra.config import Settings
from shared.infra.monitoring import Monitoring
from shared.infra.rate_limit import RateLimiter
from shared.infra.secrets import hash_secret
from shared.matches.bot_cap import BotWorkCap, bot_seat_count
from shared.matches.service import MatchService
from shared.tournaments.service import TournamentService


class BadRequest(ServiceError):
    status = 400


class TooManyRequests(ServiceError):
    """429: ``retry_after`` seconds also go out as the ``Retry-After`` header."""

    status = 429

    def __init__(self, detail: str, retry_after: int = 60) -> None:
        super().__init__(detail, retry_after=retry_after)
        self.headers = {"Retry-After": str(retry_after)}


def service() -> MatchService:
    found: MatchService = current_app.extensions["evo.service"]
    return found


def settings() -> Settings:
    found: Settings = current_app.extensions["evo.settings"]
    return found


def accounts() -> AccountService:
    found: AccountService = current_app.extensions["evo.accounts"]
    return found


def invitations() -> InvitationService:
    found: InvitationService = current_app.extensions["evo.invitations"]
    return found


def tournaments() -> TournamentService:
    found: TournamentService = current_app.extensions["evo.tournaments"]
    return found


def monitoring() -> Monitoring:
    found: Monitoring = current_app.extensions["evo.monitoring"]
    return found


def client_address() -> str:
    return request.remote_addr or "unknown"


def rate_limit(bucket: str, per_minute: int, token: str | None = None) -> None:
    """Refuse (429, ``Retry-After``) a request beyond ``per_minute`` in this minute, counted
    per client address and, given a ``token``, per token too."""
    limiter: RateLimiter = current_app.extensions["evo.limiter"]
    who = [f"a:{client_address()}"] + ([f"t:{hash_secret(token)}"] if token else [])
    # Both counted in one round trip; the address's refusal is told first.
    for key, retry in zip(who, limiter.hit_all(bucket, who, per_minute), strict=True):
        if retry:
            raise TooManyRequests(f"at most {per_minute} such requests a minute "
                                  f"{'per token' if key[0] == 't' else 'per address'}; "
                                  f"retry in {retry:.0f} s", retry_after=int(retry))


def admit_bot_work(seats: list[dict[str, Any]], match_id: str) -> BotWorkCap | None:
    """Reserve ``match_id``'s bot seats for this address, or refuse (429) those that would
    take it past its cap of live bot seats. The caller releases the reservation if the match
    is not created."""
    wanted, cap = bot_seat_count(seats), settings().bot_seats_per_client
    if wanted == 0 or cap <= 0:
        return None
    work: BotWorkCap = current_app.extensions["evo.bot_cap"]
    live = work.reserve(client_address(), match_id, wanted, cap)
    if live is not None:
        raise TooManyRequests(f"at most {cap} bot seats (account seats count too) in live "
                              f"matches per address; you have {live}: retry when one ends",
                              retry_after=10)
    return work


def creator_accounts() -> list[str]:
    """The account of the request's key, if it sends one: a match or tournament it creates
    takes that account's seats at once (others it names are invited). A token that is not an
    account's key is a 401, never a creation without it."""
    token = bearer_token()
    return [] if token is None else [accounts().account_id(token)]


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
    loaded: dict[str, Any] = schema.load(data)
    return loaded


def query(schema: Schema) -> dict[str, Any]:
    """The query string validated by ``schema``; a parameter given twice is a 400."""
    repeated = sorted(key for key, values in request.args.lists() if len(values) > 1)
    if repeated:
        raise BadRequest(f"query parameter(s) given more than once: {', '.join(repeated)}")
    loaded: dict[str, Any] = schema.load(request.args.to_dict())
    return loaded


def bearer_token() -> str | None:
    """The bearer token of the request, None if there is no Authorization header."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("the Authorization header must be 'Bearer <token>'")
    return token.strip()
