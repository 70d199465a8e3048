"""Each game's component catalogue (``Game.components()``) is whole and joins its views.

Seeded random play of every registered game (never named here), every player count and every
option combination: every id any view (each seat's and a spectator's, at every step) names,
read from the ``x-component`` marks of the game's view schema, is in the catalogue. So a view
that names a card, trait, ability, board or environment the catalogue lacks fails here, and so
does a catalogue that drops one; the same for every legal move. Then every component has a
name and a text, its id is ``<category>:<key>`` and its parts exist, and each texts file
holds only texts of components.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from shared.games import all_games
from shared.games.schemas import component_refs
from shared.kernel.protocol import Game
from tests.shared.test_game_schemas import random_play, setups

GAMES = all_games()
IDS = [game.id for game in GAMES]
MATCHES_PER_SETUP = 2  # a second match: Evolution (North Star) names a trait (`effects`) only there


def keys(game: Game) -> set[tuple[str, Any]]:
    return {(c["category"], c["key"]) for c in game.components()["components"]}


def marked_categories(node: Any) -> set[str]:
    """Every category an ``x-component`` mark of ``node`` (a schema) names."""
    if isinstance(node, list):
        return set().union(*(marked_categories(item) for item in node))
    if not isinstance(node, dict):
        return set()
    found = {node[mark] for mark in ("x-component", "x-component-negative") if mark in node}
    return found.union(*(marked_categories(value) for value in node.values()))


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_every_id_a_view_of_random_play_names_is_in_the_catalogue(game: Game) -> None:
    known, schemas = keys(game), game.schemas()
    named: set[tuple[str, Any]] = set()
    for index, (players, options) in enumerate(setups(game)):
        for match in range(MATCHES_PER_SETUP):
            seed = 1000 * index + match
            for state in random_play(game, players, options, seed):
                for seat in (None, *range(players)):
                    refs = component_refs(schemas, state.view(seat))
                    assert refs <= known, (players, options, seed, seat, sorted(refs - known))
                    named |= refs
    # The marks are there and read: play names something of every category the view marks.
    marked = marked_categories([schemas["view"], schemas.get("$defs", {})])
    assert {category for category, _ in named} == marked != set()


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_every_id_a_legal_move_of_random_play_names_is_in_the_catalogue(game: Game) -> None:
    """The moves' marks too: a client that draws a move as the cards it names finds them."""
    known, schemas = keys(game), game.schemas()
    named: set[tuple[str, Any]] = set()
    for index, (players, options) in enumerate(setups(game)):
        for state in random_play(game, players, options, seed=1000 * index):
            for seat in state.to_move():
                for move in state.legal_moves(seat):
                    refs = component_refs(schemas, move, schemas["moves"][move["type"]])
                    assert refs <= known, (players, options, move, sorted(refs - known))
                    named |= refs
    assert named, "no move names a component: the moves' marks are missing"


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_every_category_a_view_marks_is_in_the_catalogue(game: Game) -> None:
    catalogue = game.components()
    listed = {c["id"] for c in catalogue["categories"]}
    assert marked_categories(game.schemas()) <= listed
    assert {c["category"] for c in catalogue["components"]} == listed


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_every_component_has_an_id_a_name_a_text_and_existing_parts(game: Game) -> None:
    catalogue = game.components()
    assert catalogue["game"] == game.id and catalogue["lang"] == "en"
    components = catalogue["components"]
    ids = [c["id"] for c in components]
    assert len(ids) == len(set(ids)), "ids are unique"
    for c in components:
        assert c["id"] == f"{c['category']}:{c['key']}"
        assert c["name"].strip() and c["text"].strip(), c["id"]
        assert "{" not in c["name"] + c["text"], c["id"]  # a template filled
        assert set(c["parts"]) <= set(ids), c["id"]
        assert all(isinstance(v, int) for v in c["numbers"].values()), c["id"]
    assert catalogue["reconstruction"] == any(c["reconstruction"] for c in components)
    json.dumps(catalogue)  # JSON-ready


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_the_english_texts_file_holds_only_used_texts(game: Game) -> None:
    """No text of the file is left unread (a renamed component would leave its text behind):
    every entry of ``texts`` and ``names`` names a component of the catalogue."""
    texts = json.loads((game.data_dir() / "texts.en.json").read_text(encoding="utf-8"))
    ids = {c["id"] for c in game.components()["components"]}
    assert set(texts["texts"]) | set(texts.get("names", {})) <= ids
