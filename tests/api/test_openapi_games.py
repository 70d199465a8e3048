"""openapi.yaml's per-game schemas are the games' own (``Game.schemas()``), kept in step.

``scripts/openapi_games.py`` writes them; these tests fail when a game's schemas changed and
the spec was not rewritten, and check that the contract's unions (``View`` and ``LegalMoves``
on ``game``, each game's ``<Game>Move`` on ``type``, the cross-game ``Move`` one of them all)
cover every game and move type and accept what random play produces, in the spec's own form.
"""

from __future__ import annotations

import random
from typing import Any

import jsonschema_rs
import pytest
import yaml

from scripts import openapi_games
from shared.games import all_games
from shared.kernel.protocol import Game

SPEC_TEXT = openapi_games.SPEC.read_text(encoding="utf-8")
SPEC: dict[str, Any] = yaml.load(SPEC_TEXT, Loader=yaml.CSafeLoader)
SCHEMAS: dict[str, Any] = SPEC["components"]["schemas"]
GAMES = all_games()
IDS = [game.id for game in GAMES]


def spec_validator(name: str) -> Any:
    """A validator of component ``name`` whose ``#/components/...`` references resolve."""
    return jsonschema_rs.Draft202012Validator(
        {"$ref": f"#/components/schemas/{name}", "components": SPEC["components"]})


def test_the_per_game_schemas_are_up_to_date() -> None:
    assert openapi_games.main(["--check"]) == 0, (
        "openapi.yaml is out of date: run `python -m scripts.openapi_games`")


def test_the_block_is_written_whole_from_the_games() -> None:
    """Emptied, the block is written back exactly: nothing in it is hand-made, so a change to
    any game's schemas shows up as a difference (the check above)."""
    start = SPEC_TEXT.index(openapi_games.BEGIN)
    end = SPEC_TEXT.index(openapi_games.END)
    emptied = SPEC_TEXT[:start] + openapi_games.BEGIN + SPEC_TEXT[end:]
    assert emptied != SPEC_TEXT
    assert openapi_games.updated(emptied, GAMES) == SPEC_TEXT


def test_view_and_legal_moves_discriminate_on_every_game() -> None:
    for union, suffix in (("View", "View"), ("LegalMoves", "LegalMoves")):
        mapping = SCHEMAS[union]["discriminator"]["mapping"]
        assert SCHEMAS[union]["discriminator"]["propertyName"] == "game"
        assert set(mapping) == set(IDS)
        for game_id, ref in mapping.items():
            name = ref.rsplit("/", 1)[1]
            assert name == openapi_games.pascal(game_id) + suffix
            assert SCHEMAS[name]["properties"]["game"]["const"] == game_id
        assert [one["$ref"] for one in SCHEMAS[union]["oneOf"]] == list(mapping.values())


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_each_game_move_union_discriminates_on_type(game: Game) -> None:
    union = SCHEMAS[f"{openapi_games.pascal(game.id)}Move"]
    assert union["discriminator"]["propertyName"] == "type"
    mapping = union["discriminator"]["mapping"]
    assert set(mapping) == set(game.schemas()["moves"])
    listed = [SCHEMAS[one["$ref"].rsplit("/", 1)[1]] for one in SCHEMAS["Move"]["oneOf"]]
    for kind, ref in mapping.items():
        move = SCHEMAS[ref.rsplit("/", 1)[1]]
        assert move["properties"]["type"]["const"] == kind
        # In the cross-game ``Move`` itself, or (spelled alike in two games) its twin.
        assert {**move, "description": ""} in [{**one, "description": ""} for one in listed]


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_random_play_fits_the_contract(game: Game) -> None:
    """Views and legal-move lists as the API sends them validate against ``View`` and
    ``LegalMoves`` of the spec; a view passed off as another game's does not."""
    view_check, legal_check = spec_validator("View"), spec_validator("LegalMoves")
    move_check = spec_validator("Move")  # a flat oneOf: each move fits exactly one member
    other = next(g.id for g in GAMES if g.id != game.id)
    checked = 0
    for seed in range(4):
        rng = random.Random(seed)
        players = game.min_players + seed % (game.max_players - game.min_players + 1)
        state = game.new_state(players, game.resolve_options({}), rng)
        while not state.is_over():
            for seat in (None, *state.to_move()):
                view = state.view(seat)
                assert view_check.is_valid(view), next(view_check.iter_errors(view)).message
                assert not view_check.is_valid({**view, "game": other})
            for seat in state.to_move():
                listed = {"game": game.id, "version": 2, "seat": seat, "status": "running",
                          "to_move": state.to_move(), "moves": [
                              {"id": state.move_id(m), "label": state.move_label(m), "move": m}
                              for m in state.legal_moves(seat)]}
                assert legal_check.is_valid(listed), next(legal_check.iter_errors(listed))
                for one in listed["moves"]:
                    assert move_check.is_valid(one["move"]), one["move"]
                assert not legal_check.is_valid({**listed, "game": other})
                checked += 1
            seat = rng.choice(state.to_move())
            state.apply(seat, rng.choice(state.legal_moves(seat)), rng)
    assert checked >= 40
