"""Each game's board renderer and stylesheet are served from its engine's folder."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from shared.games import all_games

GAMES = [game.id for game in all_games()]


@pytest.mark.parametrize("game", GAMES)
def test_a_game_serves_its_board_and_its_stylesheet(client: FlaskClient, game: str) -> None:
    folder = next(g for g in all_games() if g.id == game).data_dir()
    script = client.get(f"/boards/{game}.js")
    assert script.status_code == 200 and script.mimetype == "text/javascript"
    style = client.get(f"/boards/{game}.css")
    assert style.status_code == 200 and style.mimetype == "text/css"
    assert style.get_data() == (folder / "board.css").read_bytes()


@pytest.mark.parametrize("path", ["/boards/no-such-game.css", "/boards/no-such-game.js"])
def test_an_unknown_game_has_no_board_files(client: FlaskClient, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 404
    assert answer.mimetype == "application/problem+json"
