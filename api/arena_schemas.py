"""Marshmallow schemas of the account and tournament routes."""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema

from api.match_schemas import BotSchema, QueryInt, StrictInt, printable_utf8
from shared.tournaments.formats import FORMATS


class Strict(Schema):
    class Meta:
        unknown = RAISE


class CreateAccountSchema(Strict):
    name = fields.String(required=True, validate=[validate.Length(1, 40), printable_utf8])
    webhook = fields.String(validate=validate.Length(1, 500))


class TurnsQuery(Strict):
    wait = fields.Float(validate=validate.Range(0, 60), allow_nan=False, load_default=0.0)


class EntrantSchema(Strict):
    name = fields.String(validate=[validate.Length(1, 40), printable_utf8])
    bot = fields.Nested(BotSchema)
    account = fields.String(validate=validate.Length(1, 40))

    @validates_schema
    def bot_or_account(self, data: dict[str, Any], **_: Any) -> None:
        if ("bot" in data) == ("account" in data):
            raise ValidationError("give exactly one of 'bot' (a built-in bot) or 'account'")
        if "account" in data and "name" in data:
            # The account plays under its own name: an entrant never renames an account.
            raise ValidationError("an account entrant plays under the account's own name; "
                                  "it takes no 'name'", "name")
        if "bot" in data and {"level", "simulations"} <= set(data["bot"]):
            raise ValidationError("give 'level' or 'simulations', not both", "bot")


class CreateTournamentSchema(Strict):
    name = fields.String(validate=[validate.Length(1, 80), printable_utf8])
    game = fields.String(required=True, validate=validate.Length(1, 40))
    options = fields.Dict(keys=fields.String(), load_default=dict)
    format = fields.String(required=True, validate=validate.OneOf(FORMATS))
    seats = StrictInt(validate=validate.Range(2, 8), load_default=2)
    entrants = fields.List(fields.Nested(EntrantSchema), required=True,
                           validate=validate.Length(2, 256))
    rounds = StrictInt(validate=validate.Range(1, 1000), load_default=1)
    deals = StrictInt(validate=validate.Range(1, 100_000))
    seed = StrictInt(validate=validate.Range(0, 2**63 - 1), allow_none=True)
    move_deadline = fields.Float(validate=validate.Range(0.1, 3600), allow_nan=False,
                                 load_default=10.0)
    forfeit_after = StrictInt(validate=validate.Range(1, 1000), load_default=3)
    concurrency = StrictInt(validate=validate.Range(1, 1000), load_default=4)

    @validates_schema
    def deals_for_pods(self, data: dict[str, Any], **_: Any) -> None:
        if "deals" in data and data["format"] != "pods":
            raise ValidationError("'deals' is for pods; round robin and Swiss take 'rounds'",
                                  "deals")


class ResultsQuery(Strict):
    format = fields.String(validate=validate.OneOf(["jsonl", "csv"]), load_default="jsonl")


class LeaderboardQuery(Strict):
    limit = QueryInt(validate=validate.Range(1, 1000), load_default=100)


class VersionQuery(Strict):
    since = QueryInt(validate=validate.Range(0))
