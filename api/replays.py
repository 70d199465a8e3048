"""Replays and analyses of finished matches: ``GET /v1/matches/{id}/replay`` (the log and a
step's view from a seat or a spectator), ``GET /v1/matches/{id}/analysis`` (a seat's
decisions searched by a worker) and the replay page ``/replay/<id>``."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template
from marshmallow import RAISE, Schema, validate

from api.context import query
from api.match_schemas import QueryInt
from shared.replays.service import ANALYSIS_RETRY, ReplayService

bp = Blueprint("replays", __name__)
#: A finished match's replay never changes: shared caches may keep it, and its ETag (api.web)
#: makes a revalidation a bodiless 304.
REPLAY_CACHE_CONTROL = "public, max-age=86400, immutable"
#: A seat's analysis, once done, is kept as long as the log it comes from.
ANALYSIS_CACHE_CONTROL = "public, max-age=3600"


class ReplayQuery(Schema):
    class Meta:
        unknown = RAISE

    seat = QueryInt(validate=validate.Range(0))  # absent: a spectator's point of view
    step = QueryInt(validate=validate.Range(0), load_default=0)


class AnalysisQuery(Schema):
    class Meta:
        unknown = RAISE

    seat = QueryInt(validate=validate.Range(0), required=True)


def replays() -> ReplayService:
    found: ReplayService = current_app.extensions["evo.replays"]
    return found


@bp.get("/v1/matches/<match_id>/replay")
def replay(match_id: str) -> Response:
    args = query(ReplayQuery())
    response = jsonify(replays().replay(match_id, args.get("seat"), args["step"]))
    response.headers["Cache-Control"] = REPLAY_CACHE_CONTROL
    return response


@bp.get("/v1/matches/<match_id>/analysis")
def analysis(match_id: str) -> Response | tuple[dict[str, Any], int, dict[str, str]]:
    args = query(AnalysisQuery())
    found = replays().analysis(match_id, args["seat"])
    if found is None:  # a worker is computing it: ask again
        return ({"status": "computing", "retry_after": ANALYSIS_RETRY,
                 "detail": "a worker is searching this seat's decisions; ask again"},
                202, {"Retry-After": str(ANALYSIS_RETRY), "Cache-Control": "no-store"})
    response = jsonify(found)
    response.headers["Cache-Control"] = ANALYSIS_CACHE_CONTROL
    return response


@bp.get("/replay/<match_id>")
def replay_page(match_id: str) -> str:
    return render_template("replay.html", match_id=match_id)
