"""Ratings: a player's rating history (JSON), and the pages that show the leaderboard and a
player's rating drawn as a line (server-rendered HTML with an inline SVG, no script)."""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, render_template
from markupsafe import Markup
from marshmallow import validate

from api.arena_schemas import Strict
from api.context import query, tournaments
from api.match_schemas import QueryInt
from api.rating_chart import history_svg
from shared.domain.errors import NotFound
from shared.games import all_games, get_game
from shared.kernel.protocol import Game
from shared.ratings.model import HISTORY_LENGTH

bp = Blueprint("ratings", __name__)
#: A rated player: ``account:<id>`` or ``bot:<kind>[:<level>]`` (``shared.ratings.model``).
PLAYER = re.compile(r"^(account|bot):[A-Za-z0-9_.:-]{1,80}$")
PAGE_ROWS = 100


class HistoryQuery(Strict):
    limit = QueryInt(validate=validate.Range(1, HISTORY_LENGTH), load_default=100)


def _game(game_id: str) -> Game:
    try:
        return get_game(game_id)
    except KeyError:
        raise NotFound(f"no game with id {game_id!r}") from None


def _history(game_id: str, player: str, limit: int) -> dict[str, Any]:
    game = _game(game_id)
    if not PLAYER.match(player):
        raise NotFound(f"no player {player!r}: a player is 'account:<id>' or 'bot:<kind>'")
    return tournaments().rating_history(game.id, player, limit)


@bp.get("/v1/games/<game_id>/ratings/<player>/history")
def rating_history(game_id: str, player: str) -> dict[str, Any]:
    """A player's rating now and after each of its last rated matches, oldest first."""
    args = query(HistoryQuery())
    return _history(game_id, player, args["limit"])


@bp.get("/leaderboard/<game_id>")
def leaderboard_page(game_id: str) -> str:
    game = _game(game_id)
    rows = tournaments().leaderboard(game.id, PAGE_ROWS)
    return render_template("leaderboard.html", game=game, rows=rows,
                           games=list(all_games()))


@bp.get("/ratings/<game_id>/<player>")
def player_page(game_id: str, player: str) -> str:
    found = _history(game_id, player, HISTORY_LENGTH)
    chart = Markup(history_svg(
        found["history"], f"{found['name']}: conservative rating after each rated match"))
    return render_template("player.html", game=_game(game_id), player=found, chart=chart,
                           recent=list(reversed(found["history"][-20:])))
