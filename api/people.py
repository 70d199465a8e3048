"""Accounts for people: sign up, sign in (an access token and a refresh token), refresh,
sign out (this session, or all), change the password; the account's matches; the people's
leaderboard of a game. The access token is a bearer credential like an account key
(``shared.accounts.sessions``)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app
from marshmallow import fields, validate

from api.arena_schemas import Strict
from api.context import (
    TooManyRequests,
    accounts,
    bearer_token,
    client_address,
    json_body,
    query,
    rate_limit,
    settings,
    tournaments,
)
from api.match_schemas import QueryInt, printable_utf8
from shared.accounts.names import name_digest
from shared.domain.errors import NotFound
from shared.games import get_game
from shared.infra.rate_limit import RateLimiter

bp = Blueprint("people", __name__, url_prefix="/v1")
#: Leaderboard rows looked through for people (the board mixes bots and people).
PEOPLE_SCAN = 2000


class PersonSchema(Strict):
    name = fields.String(required=True, validate=[validate.Length(1, 40), printable_utf8])
    password = fields.String(required=True, validate=validate.Length(1, 256))


class RefreshSchema(Strict):
    refresh_token = fields.String(required=True, validate=validate.Length(1, 200))


class PasswordSchema(Strict):
    current_password = fields.String(required=True, validate=validate.Length(1, 256))
    new_password = fields.String(required=True, validate=validate.Length(1, 256))


class MyMatchesQuery(Strict):
    limit = QueryInt(validate=validate.Range(1, 100), load_default=20)
    before = fields.Float(validate=validate.Range(0), allow_nan=False)


class PeopleQuery(Strict):
    limit = QueryInt(validate=validate.Range(1, 1000), load_default=100)


def limit_sign_ins(name: str) -> None:
    """Refuse (429, ``Retry-After``) a sign-in beyond the minute's attempts for this client
    address or for this name (any case), counted whether the password was right or not."""
    limiter: RateLimiter = current_app.extensions["evo.limiter"]
    config = settings()
    for who, limit, what in ((f"a:{client_address()}", config.signins_per_address_per_minute,
                              "per address"),
                             (f"n:{name_digest(name)}", config.signins_per_name_per_minute,
                              "per name")):
        retry = limiter.hit("signin", who, limit)
        if retry:
            raise TooManyRequests(f"at most {limit} sign-in attempts a minute {what}; retry "
                                  f"in {retry:.0f} s", retry_after=int(retry))


@bp.post("/people")
def sign_up() -> tuple[dict[str, Any], int, dict[str, str]]:
    """A person account, signed in at once: its tokens (shown only now) and the account."""
    rate_limit("accounts", settings().accounts_per_minute)
    body = json_body(PersonSchema())
    account, tokens = accounts().sessions.sign_up(body["name"], body["password"])
    return {**tokens, "account": account}, 201, {"Location": "/v1/me"}


@bp.post("/sessions")
def sign_in() -> tuple[dict[str, Any], int]:
    body = json_body(PersonSchema())
    limit_sign_ins(body["name"])
    account, tokens = accounts().sessions.sign_in(body["name"], body["password"])
    return {**tokens, "account": account}, 201


@bp.post("/sessions/refresh")
def refresh() -> dict[str, Any]:
    """A new pair of tokens; the refresh token sent is spent (shown again, it ends the
    session)."""
    rate_limit("sessions", settings().moves_per_minute)
    return accounts().sessions.refresh(json_body(RefreshSchema())["refresh_token"])


@bp.delete("/sessions/current")
def sign_out() -> Response:
    """End the session of the access token sent (its refresh token with it)."""
    accounts().sessions.sign_out(bearer_token())
    return Response(status=204)


@bp.get("/me/sessions")
def list_sessions() -> dict[str, Any]:
    account_id = accounts().account_id(bearer_token())
    return {"sessions": accounts().sessions.sessions(account_id)}


@bp.delete("/me/sessions")
def sign_out_everywhere() -> Response:
    """End every session of the account (its keys, if it has any, stay)."""
    accounts().sessions.sign_out_everywhere(accounts().account_id(bearer_token()))
    return Response(status=204)


@bp.post("/me/password")
def change_password() -> dict[str, Any]:
    """A new password: every session ends; the answer holds a new session's tokens."""
    account = accounts().authenticate(bearer_token())
    body = json_body(PasswordSchema())
    limit_sign_ins(account["name"])
    return accounts().sessions.change_password(account, body["current_password"],
                                               body["new_password"])


@bp.get("/me/matches")
def my_matches() -> dict[str, Any]:
    """The account's live matches (whose turn, the deadline) and a page of ended ones."""
    args = query(MyMatchesQuery())
    account_id = accounts().account_id(bearer_token())
    return accounts().my_matches(account_id, args["limit"], args.get("before"))


@bp.get("/games/<game_id>/leaderboard/people")
def people_leaderboard(game_id: str) -> dict[str, Any]:
    """The game's leaderboard of person accounts only, ranked among themselves."""
    args = query(PeopleQuery())
    try:
        game = get_game(game_id)
    except KeyError:
        raise NotFound(f"no game with id {game_id!r}") from None
    rows = [row for row in tournaments().leaderboard(game.id, PEOPLE_SCAN)
            if row["account"] is not None]
    kinds = accounts().kinds([row["account"] for row in rows])
    people = [row for row in rows if kinds.get(row["account"]) == "person"][:args["limit"]]
    return {"game": game.id, "leaderboard": [{**row, "rank": rank}
                                             for rank, row in enumerate(people, 1)]}
