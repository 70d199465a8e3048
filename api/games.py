"""The catalogue: games with their player counts, options and rules versions, each game's
component catalogue (cards, traits, boards… with names and rules texts); bot kinds."""

from __future__ import annotations

from functools import cache

from flask import Blueprint, Response, current_app

from api.i18n import content_language, current_lang
from shared.bots.catalogue import catalogue
from shared.domain.errors import NotFound
from shared.games import all_games, get_game
from shared.kernel.protocol import Game

bp = Blueprint("games", __name__, url_prefix="/v1")

#: The component catalogue changes only with a deploy: shared caches may keep it an hour, and
#: its strong ETag (api.web) makes the revalidation after that a bodiless 304.
COMPONENTS_CACHE_CONTROL = "public, max-age=3600"


@bp.get("/games")
def list_games() -> dict[str, object]:
    return {"games": [game.to_json() for game in all_games()]}


@bp.get("/games/<game_id>")
def show_game(game_id: str) -> dict[str, object]:
    return _game(game_id).to_json()


@bp.get("/games/<game_id>/components")
def game_components(game_id: str) -> Response:
    # In the request's language (``lang``, else Accept-Language): one body, so one ETag, each.
    lang = current_lang()
    response = Response(_components_body(_game(game_id).id, lang), mimetype="application/json")
    response.headers["Cache-Control"] = COMPONENTS_CACHE_CONTROL
    return content_language(response, lang)


@bp.get("/bots")
def list_bots() -> dict[str, object]:
    return {"bots": catalogue()}


def _game(game_id: str) -> Game:
    try:
        return get_game(game_id)
    except KeyError:
        raise NotFound(f"no game with id {game_id!r}") from None


@cache  # one body per game and language for the process's life: data change only by a deploy
def _components_body(game_id: str, lang: str) -> str:
    return str(current_app.json.dumps(get_game(game_id).components(lang)))
