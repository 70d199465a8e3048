"""Marshmallow schemas of the match routes (bodies and query strings)."""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema

from shared.bots.catalogue import BOT_KINDS, LEVELS, MAX_SECONDS, MAX_SIMULATIONS, MIN_SECONDS
from shared.domain.names import name_problem
from shared.domain.types import MatchStatus, SeatKind
from shared.matches import clocks


class StrictInt(fields.Integer):
    """An integer that refuses booleans, fractions and numeric strings.

    ``5.0`` is accepted as ``5``: JSON Schema's ``integer`` (the contract's) includes it.
    """

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValidationError("Not a valid integer.")
        return super()._deserialize(value, attr, data, **kwargs)


class StrictNumber(fields.Float):
    """A JSON number (integer or decimal) that refuses booleans and numeric strings."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValidationError("Not a valid number.")
        return super()._deserialize(value, attr, data, **kwargs)


class StrictBool(fields.Boolean):
    """A JSON ``true`` or ``false`` only: marshmallow's Boolean also takes 0, 1, "true",
    "yes" and the like, which the contract's ``boolean`` does not (``rated: 0`` is a 422)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise ValidationError("Not a valid boolean: give true or false.")
        return value


class QueryBool(fields.Boolean):
    """A boolean from a query string, spelled as the contract serialises it: ``true`` or
    ``false`` (not 1, yes, on…)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if value not in ("true", "false"):
            raise ValidationError("Not a valid boolean: give true or false.")
        return bool(value == "true")


class QueryInt(fields.Integer):
    """A non-negative integer from a query string: ASCII digits only (no sign, no ``_``)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        if not (isinstance(value, str) and value.isascii() and value.isdigit()
                and len(value) <= 18):
            raise ValidationError("Not a valid integer.")
        return super()._deserialize(value, attr, data, **kwargs)


def printable_utf8(value: str) -> None:
    """A name (``shared.domain.names``): valid Unicode, not only spaces, no character of the
    categories Cc, Cf (bidirectional overrides, zero-width marks), Zl or Zp."""
    problem = name_problem(value)
    if problem is not None:
        raise ValidationError(problem)


class BotSchema(Schema):
    class Meta:
        unknown = RAISE

    kind = fields.String(required=True, validate=validate.OneOf(list(BOT_KINDS)))
    level = fields.String(validate=validate.OneOf(list(LEVELS)))
    simulations = StrictInt(validate=validate.Range(1, MAX_SIMULATIONS))
    seconds = StrictNumber(validate=validate.Range(MIN_SECONDS, MAX_SECONDS))


class SeatSchema(Schema):
    class Meta:
        unknown = RAISE

    kind = fields.String(required=True, validate=validate.OneOf(list(SeatKind)))
    name = fields.String(validate=[validate.Length(1, 40), printable_utf8])
    bot = fields.Nested(BotSchema)
    account = fields.String(validate=validate.Length(1, 40))

    @validates_schema
    def bot_only_for_bots(self, data: dict[str, Any], **_: Any) -> None:
        if data["kind"] == SeatKind.BOT and "bot" not in data:
            raise ValidationError("a bot seat needs 'bot': {'kind': ...}", "bot")
        if data["kind"] != SeatKind.BOT and "bot" in data:
            raise ValidationError("only a bot seat takes 'bot'", "bot")
        if (data["kind"] == SeatKind.ACCOUNT) != ("account" in data):
            raise ValidationError("an account seat (and only it) takes 'account': its id",
                                  "account")
        if data["kind"] == SeatKind.ACCOUNT and "name" in data:
            # The account plays under its own name: a seat never renames an account.
            raise ValidationError("an account seat plays under the account's own name; it "
                                  "takes no 'name'", "name")
        budget = {"level", "simulations", "seconds"} & set(data.get("bot", {}))
        if len(budget) > 1:
            raise ValidationError("give one of 'level', 'simulations' or 'seconds'", "bot")


class TimeControlSchema(Schema):
    """A match's time control (``shared.matches.clocks``): real-time or turn-based."""

    class Meta:
        unknown = RAISE

    kind = fields.String(required=True, validate=validate.OneOf([clocks.REALTIME,
                                                                 clocks.TURN_BASED]))
    base = StrictNumber(validate=validate.Range(*clocks.BASE_RANGE))
    increment = StrictNumber(validate=validate.Range(*clocks.INCREMENT_RANGE))
    per_move = StrictNumber(validate=validate.Range(*clocks.PER_MOVE_RANGE))
    resign_after = StrictInt(validate=validate.Range(*clocks.RESIGN_AFTER_RANGE))

    @validates_schema
    def fields_of_kind(self, data: dict[str, Any], **_: Any) -> None:
        given = set(data) - {"kind"}
        needed, allowed = (({"base"}, {"base", "increment"}) if data["kind"] == clocks.REALTIME
                           else ({"per_move"}, {"per_move", "resign_after"}))
        if needed - given:
            raise ValidationError(f"a {data['kind']} time control needs "
                                  f"{', '.join(sorted(needed - given))}")
        if given - allowed:
            raise ValidationError(f"a {data['kind']} time control takes no "
                                  f"{', '.join(sorted(given - allowed))}")


class CreateMatchSchema(Schema):
    class Meta:
        unknown = RAISE

    game = fields.String(required=True, validate=validate.Length(1, 40))
    options = fields.Dict(keys=fields.String(), load_default=dict)
    seed = StrictInt(validate=validate.Range(0, 2**63 - 1), allow_none=True)
    seats = fields.List(fields.Nested(SeatSchema), required=True,
                        validate=validate.Length(1, 8))
    move_deadline = fields.Float(validate=validate.Range(0.1, 86400), allow_nan=False)
    rated = StrictBool(load_default=False)
    time_control = fields.Nested(TimeControlSchema)

    @validates_schema
    def one_clock(self, data: dict[str, Any], **_: Any) -> None:
        if "time_control" in data and "move_deadline" in data:
            raise ValidationError("give one of 'time_control' or 'move_deadline'",
                                  "time_control")


class JoinSchema(Schema):
    class Meta:
        unknown = RAISE

    seat = StrictInt(validate=validate.Range(0, 7))
    name = fields.String(validate=[validate.Length(1, 40), printable_utf8])


class SubmitMoveSchema(Schema):
    class Meta:
        unknown = RAISE

    version = StrictInt(required=True, validate=validate.Range(0))
    move = fields.Dict(keys=fields.String())
    move_id = fields.String(validate=validate.Length(1, 200))

    @validates_schema
    def one_of_move_or_id(self, data: dict[str, Any], **_: Any) -> None:
        if ("move" in data) == ("move_id" in data):
            raise ValidationError("give exactly one of 'move' (an object) or 'move_id'")


class ReadMatchQuery(Schema):
    class Meta:
        unknown = RAISE

    version = QueryInt(validate=validate.Range(0))
    # Without ``version`` there is nothing to wait past: the match is returned at once.
    wait = fields.Float(validate=validate.Range(0, 60), allow_nan=False)


class EventsQuery(Schema):
    class Meta:
        unknown = RAISE

    since = QueryInt(validate=validate.Range(0), load_default=0)


class StreamQuery(Schema):
    class Meta:
        unknown = RAISE

    since = QueryInt(validate=validate.Range(0))


class ListMatchesQuery(Schema):
    class Meta:
        unknown = RAISE

    status = fields.String(validate=validate.OneOf([MatchStatus.WAITING, MatchStatus.RUNNING]))
    game = fields.String(validate=validate.Length(1, 40))
    open = QueryBool()  # only matches with a seat left to join
    limit = QueryInt(validate=validate.Range(1, 100), load_default=50)
