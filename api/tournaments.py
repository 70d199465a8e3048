"""Tournaments: create, follow (progress, standings, matches, event stream), export, cancel;
and a game's leaderboard."""

from __future__ import annotations

import csv
import hmac
import io
import json
import secrets
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response

from api import sse
from api.arena_schemas import CreateTournamentSchema, LeaderboardQuery, ResultsQuery, VersionQuery
from api.context import (
    bearer_token,
    client_address,
    creator_accounts,
    json_body,
    query,
    rate_limit,
    settings,
    tournaments,
)
from api.tournament_list_schema import TournamentListQuery
from shared.domain.errors import Forbidden, NotFound, Unauthorized
from shared.games import get_game
from shared.infra.secrets import hash_secret

bp = Blueprint("tournaments", __name__, url_prefix="/v1")


@bp.post("/tournaments")
def create_tournament() -> tuple[dict[str, Any], int, dict[str, str]]:
    rate_limit("tournaments", settings().tournaments_per_minute)
    body = json_body(CreateTournamentSchema())
    accepted = creator_accounts()  # the key's account's entries are taken; others invited
    token = secrets.token_urlsafe(32)  # lets its creator cancel it; shown only now
    created = tournaments().create(body, owner_hash=hash_secret(token),
                                   client=client_address(), accepted=accepted)
    out = {**tournaments().describe(created["id"]), "owner_token": token}
    return out, 201, {"Location": f"/v1/tournaments/{created['id']}"}


@bp.get("/tournaments")
def list_tournaments() -> dict[str, Any]:
    """The kept tournaments, newest first; ``next`` pages on (``?before=<next>``)."""
    args = query(TournamentListQuery())
    return tournaments().listing(args.get("status"), args.get("game"), args["limit"],
                                 args.get("before"))


@bp.get("/tournaments/<tournament_id>")
def show_tournament(tournament_id: str) -> dict[str, Any]:
    return tournaments().describe(tournament_id)


@bp.get("/tournaments/<tournament_id>/matches")
def tournament_matches(tournament_id: str) -> dict[str, Any]:
    return {"tournament": tournament_id, "matches": tournaments().match_list(tournament_id)}


@bp.get("/tournaments/<tournament_id>/results")
def tournament_results(tournament_id: str) -> Response:
    """Every match, one line each: JSON Lines (default) or CSV (``?format=csv``)."""
    args = query(ResultsQuery())
    rows = [{"tournament": tournament_id, **row}
            for row in tournaments().match_list(tournament_id)]
    filename = f"tournament-{tournament_id}.{args['format']}"
    headers = {"Content-Disposition": f'attachment; filename="{filename}"'}
    if args["format"] == "jsonl":
        body = "".join(json.dumps(row) + "\n" for row in rows)
        return Response(body, mimetype="application/jsonl", headers=headers)
    return Response(_csv(rows), mimetype="text/csv", headers=headers)


CSV_COLUMNS = ("tournament", "slot", "round", "deal", "seed", "match", "status", "entrants",
               "players", "places", "points", "scores", "forfeited", "rating_seq")


def _csv(rows: list[dict[str, Any]]) -> str:
    """One row per match; per-seat columns are ``;``-separated lists in seat order."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in rows:
        result, rating = row["result"] or {}, row["rating"] or {}

        def joined(values: Any) -> str:
            return ";".join(str(v) for v in values or [])

        writer.writerow([row["tournament"], row["slot"], row["round"], row["deal"], row["seed"],
                         row["match"] or "", row["status"],
                         joined(s["entrant"] for s in row["seats"]),
                         joined(s["player"] for s in row["seats"]),
                         joined(result.get("places")), joined(result.get("points")),
                         joined(result.get("scores")), joined(result.get("forfeited")),
                         rating.get("seq", "")])
    return out.getvalue()


@bp.get("/tournaments/<tournament_id>/stream")
def tournament_stream(tournament_id: str) -> Response:
    """Server-sent events: a ``progress`` event (status and progress) per change."""
    args = query(VersionQuery())
    service = tournaments()
    meta = service.load(tournament_id)
    seen = {"version": meta["version"], "status": meta["status"]}

    def progress() -> str:
        info = service.describe(tournament_id)
        seen.update(version=info["version"], status=info["status"])
        return sse.event("progress", info["version"], {
            "version": info["version"], "status": info["status"],
            "progress": info["progress"], "leader": (info["standings"] or [{}])[0].get("name")})

    def first() -> Iterator[str]:
        if args.get("since") != meta["version"]:
            yield progress()

    def wait(seconds: float) -> Iterator[str] | None:
        if seen["status"] not in ("running", "waiting"):
            return None  # the last event sent says it is over
        current = service.wait_for_change(tournament_id, seen["version"], seconds)
        if current is None:
            return None
        return iter([progress()]) if current != seen["version"] else iter([])

    return sse.stream(first(), wait)


@bp.post("/tournaments/<tournament_id>/cancel")
def cancel_tournament(tournament_id: str) -> dict[str, Any]:
    """Cancel (owner token required): no new match starts; running ones play out."""
    meta = tournaments().load(tournament_id)
    token = bearer_token()
    if token is None:
        raise Unauthorized("cancelling needs the tournament's owner token: send "
                           "'Authorization: Bearer <owner token>'")
    if not hmac.compare_digest(hash_secret(token), meta.get("owner_hash") or ""):
        raise Forbidden("the token is not this tournament's owner token")
    return tournaments().cancel(tournament_id)


@bp.get("/games/<game_id>/leaderboard")
def leaderboard(game_id: str) -> dict[str, Any]:
    """Accounts and built-in bots by conservative rating (mu - 3 sigma)."""
    args = query(LeaderboardQuery())
    try:
        game = get_game(game_id)
    except KeyError:
        raise NotFound(f"no game with id {game_id!r}") from None
    return {"game": game.id, "leaderboard": tournaments().leaderboard(game.id, args["limit"])}
