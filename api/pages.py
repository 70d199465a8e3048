"""The web pages people use: a lobby (``/``) and a match page (``/play/<id>``) to watch or play;
the site's icon at ``/favicon.ico``.

Plain HTML and JavaScript served by the API itself (no CDN, no build step). A game may ship a
board renderer, ``board.js`` in its engine's folder (``Game.data_dir``), served at
``/boards/<game id>.js``, and its stylesheet, ``board.css`` beside it, at
``/boards/<game id>.css``; a game without a renderer is drawn by the page's generic one from
its view JSON.
"""

from __future__ import annotations

import re

from flask import Blueprint, Response, abort, current_app, render_template, send_from_directory

from shared.games import all_games

bp = Blueprint("pages", __name__)
_GAME_ID = re.compile(r"^[a-z0-9_-]{1,40}$")


@bp.app_context_processor
def game_names() -> dict[str, object]:
    """Every page names a game by its catalogue ``name``, not its id title-cased
    (``window.EVO_GAMES``, read by ``Arena.gameName``)."""
    return {"evo_games": {game.id: game.name for game in all_games()}}


@bp.get("/")
def lobby() -> str:
    # The leaderboard link opens the first game's (its page links to every game's).
    return render_template("lobby.html", leaderboard_game=next(iter(all_games())).id)


@bp.get("/play/<match_id>")
def match_page(match_id: str) -> str:
    return render_template("match.html", match_id=match_id)


@bp.get("/favicon.ico")
def favicon() -> Response:
    """The site's icon where browsers look for it unasked (on the API's JSON, for one); the
    pages name it in their head. An SVG: every browser that asks here draws one."""
    return current_app.send_static_file("icon.svg")


@bp.get("/boards/<game_id>.js")
def board(game_id: str) -> Response:
    """A game's board renderer (404 when it has none: the page then draws a generic one)."""
    return _board_file(game_id, "board.js", "text/javascript")


@bp.get("/boards/<game_id>.css")
def board_style(game_id: str) -> Response:
    """A game's board stylesheet, beside its renderer (404 when it has none)."""
    return _board_file(game_id, "board.css", "text/css")


def _board_file(game_id: str, name: str, mimetype: str) -> Response:
    games = {game.id: game for game in all_games()}
    if not _GAME_ID.match(game_id) or game_id not in games:
        abort(404)
    folder = games[game_id].data_dir()
    if not (folder / name).is_file():
        abort(404)
    response = send_from_directory(folder, name, mimetype=mimetype)
    response.headers["Cache-Control"] = "no-cache"
    return response
