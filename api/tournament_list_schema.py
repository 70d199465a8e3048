"""The query of ``GET /v1/tournaments`` (kept apart from ``api.arena_schemas``)."""

from __future__ import annotations

from marshmallow import fields, validate

from api.arena_schemas import Strict
from api.match_schemas import QueryInt


class TournamentListQuery(Strict):
    status = fields.String(validate=validate.OneOf(
        ["waiting", "running", "finished", "cancelled", "aborted"]))
    game = fields.String(validate=validate.Length(1, 40))
    limit = QueryInt(validate=validate.Range(1, 100), load_default=20)
    before = QueryInt(validate=validate.Range(1))
