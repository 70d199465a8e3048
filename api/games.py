"""The catalogue: games with their player counts, options and rules versions; bot kinds."""

from __future__ import annotations

from flask import Blueprint

from shared.bots.catalogue import catalogue
from shared.domain.errors import NotFound
from shared.games import all_games, get_game

bp = Blueprint("games", __name__, url_prefix="/v1")


@bp.get("/games")
def list_games() -> dict[str, object]:
    return {"games": [game.to_json() for game in all_games()]}


@bp.get("/games/<game_id>")
def show_game(game_id: str) -> dict[str, object]:
    try:
        return get_game(game_id).to_json()
    except KeyError:
        raise NotFound(f"no game with id {game_id!r}") from None


@bp.get("/bots")
def list_bots() -> dict[str, object]:
    return {"bots": catalogue()}
