"""The pages name a game by its name ("Evolution (North Star)"), never its id title-cased
("Evolution-Ns"): every page with the language picker hands the page's script the names
(``window.EVO_GAMES``, read by ``Arena.gameName``)."""

from __future__ import annotations

import json
import re

from flask.testing import FlaskClient

from shared.games import all_games

NAMES = re.compile(r"window\.EVO_GAMES = (\{.*?\});")


def test_the_pages_are_given_every_games_name(client: FlaskClient) -> None:
    for path in ("/", "/play/0123456789abcdef", "/replay/0123456789abcdef",
                 "/leaderboard/savanna"):
        html = client.get(path).get_data(as_text=True)
        found = NAMES.search(html)
        assert found is not None, path
        assert json.loads(found.group(1)) == {g.id: g.name for g in all_games()}, path
    assert json.loads(NAMES.search(client.get("/").get_data(as_text=True)).group(1))[
        "evolution-ns"] == "Evolution (North Star)"
