"""Quick play: an account joins a pool (a game, a player count and its options), polls its
ticket until it is matched, or leaves; anyone lists the pools with their waiting counts.
Matching itself is the pool service's (``shared.pools``): any API process or the worker's
sweep may match anyone, atomically."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app
from marshmallow import fields, validate

from api.arena_schemas import Strict
from api.context import accounts, bearer_token, json_body, query, rate_limit, settings
from api.match_schemas import TimeControlSchema
from shared.bots.catalogue import LEVELS
from shared.pools.service import PoolService

bp = Blueprint("pools", __name__, url_prefix="/v1")


def pools() -> PoolService:
    found: PoolService = current_app.extensions["evo.pools"]
    return found


class JoinSchema(Strict):
    game = fields.String(required=True, validate=validate.Length(1, 40))
    players = fields.Integer(required=True, strict=True, validate=validate.Range(2, 8))
    options = fields.Dict(keys=fields.String(), load_default=None, allow_none=True)
    # A bot of this level may fill the empty seats once the pool's bot-fill wait is over.
    bot_fill = fields.String(load_default=None, allow_none=True,
                             validate=validate.OneOf(list(LEVELS)))
    # The matches' time control; part of the pool, so only people who chose it meet.
    time_control = fields.Nested(TimeControlSchema, load_default=None, allow_none=True)


class WaitQuery(Strict):
    wait = fields.Float(validate=validate.Range(0, 60), allow_nan=False, load_default=0.0)


class ListQuery(Strict):
    game = fields.String(validate=validate.Length(1, 40))



@bp.get("/pools")
def list_pools() -> dict[str, Any]:
    """The pools people have joined, with how many wait in each now."""
    return {"pools": pools().listing(query(ListQuery()).get("game"))}


@bp.post("/me/pool")
def join_pool() -> tuple[dict[str, Any], int, dict[str, str]]:
    """Wait in a pool (201), or, already waiting there, change the bot choice (200)."""
    token = bearer_token()
    account_id = accounts().account_id(token)
    rate_limit("pools", settings().joins_per_minute, token)
    body = json_body(JoinSchema())
    new, ticket = pools().join(account_id, body["game"], body["players"], body["options"],
                               body["bot_fill"], body["time_control"])
    return ticket, 201 if new else 200, {"Location": "/v1/me/pool"}


@bp.get("/me/pool")
def my_ticket() -> dict[str, Any]:
    """The account's ticket; ``wait`` long-polls until it changes (matched, dropped)."""
    account_id = accounts().account_id(bearer_token())
    wait = min(query(WaitQuery())["wait"], settings().max_wait_seconds)
    return pools().status(account_id, wait)


@bp.delete("/me/pool")
def leave_pool() -> dict[str, Any]:
    """Stop waiting (a ticket already matched is a 409: its match is there to play)."""
    return pools().leave(accounts().account_id(bearer_token()))
