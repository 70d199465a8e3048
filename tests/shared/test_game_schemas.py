"""Every game's JSON Schemas (``Game.schemas()``) fit what it sends and takes, and are strict.

Seeded random play of every registered game (never named here), every player count and every
option combination: each view (every seat and a spectator, at every step) and each legal move
of every seat owing one validates against the game's schemas. The bulk runs on jsonschema_rs
(pinned; ~100x faster than jsonschema, so thousands of views stay within the test budget);
jsonschema checks every hundredth view, and the API's move check (``shared.matches.moves``: the same
compiled validator, jsonschema for a refusal's reason; ``test_move_check.py`` shows the two
agree) accepts every distinct legal move. Then the schemas must refuse wrong shapes: mutated
views and moves fail, on both validators.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterator
from typing import Any

import jsonschema_rs
import pytest

from shared.games import all_games
from shared.games.schemas import move_union, standalone, view_problem
from shared.kernel.protocol import Game, State
from shared.matches.moves import move_problem

GAMES = all_games()
IDS = [game.id for game in GAMES]
MATCHES_PER_SETUP = 3  # per player count and option combination
JSONSCHEMA_EVERY = 100  # every n-th view is checked by jsonschema too (~3 ms a view)


def setups(game: Game) -> list[tuple[int, dict[str, Any]]]:
    """Every player count with every combination of the game's choice and bool options."""
    axes = [[(opt.name, value) for value in (opt.choices if opt.choices is not None
                                              else (False, True) if opt.type == "bool"
                                              else (opt.default,))]
            for opt in game.options]
    combos = [dict(combo) for combo in itertools.product(*axes)]
    return [(players, game.resolve_options(options))
            for players in range(game.min_players, game.max_players + 1) for options in combos]


def random_play(game: Game, players: int, options: dict[str, Any],
                seed: int) -> Iterator[State]:
    """Every state of one seeded random match, the final one included."""
    rng = random.Random(seed)
    state = game.new_state(players, options, rng)
    while True:
        yield state
        if state.is_over():
            return
        seat = rng.choice(state.to_move())
        state.apply(seat, rng.choice(state.legal_moves(seat)), rng)


def fast_validators(game: Game) -> tuple[Any, Any]:
    schemas = game.schemas()
    return (jsonschema_rs.Draft202012Validator(standalone(schemas, schemas["view"])),
            jsonschema_rs.Draft202012Validator(standalone(schemas, move_union(schemas))))


def first_error(validator: Any, instance: Any) -> str:
    return next((f"{'/'.join(map(str, e.instance_path))}: {e.message}"
                 for e in validator.iter_errors(instance)), "")


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_every_view_and_legal_move_of_random_play_fits_the_game_schemas(game: Game) -> None:
    view_check, move_check = fast_validators(game)
    views = moves = 0
    distinct: dict[str, dict[str, Any]] = {}
    for index, (players, options) in enumerate(setups(game)):
        for match in range(MATCHES_PER_SETUP):
            seed = 1000 * index + match
            for state in random_play(game, players, options, seed):
                for seat in (None, *range(players)):
                    view = state.view(seat)
                    assert view_check.is_valid(view), (
                        players, options, seed, seat, first_error(view_check, view))
                    if views % JSONSCHEMA_EVERY == 0:
                        assert view_problem(game.id, view) is None, (players, options, seed)
                    views += 1
                for seat in state.to_move():
                    for move in state.legal_moves(seat):
                        assert move_check.is_valid(move), (move, first_error(move_check, move))
                        distinct.setdefault(state.move_id(move), move)
                        moves += 1
    for move in distinct.values():  # the API's own check accepts every legal move
        assert move_problem(game, move) is None, move
    assert views >= 2000 and moves >= 2000, (views, moves)


# -- strictness --------------------------------------------------------------------------

def sample_views(game: Game) -> list[dict[str, Any]]:
    """Seat 0's and a spectator's view from the middle of a match, and seat 0's at its end."""
    players, options = setups(game)[-1]  # the most players, the last option combination
    states = [state.clone() for state in random_play(game, players, options, seed=3)]
    middle = states[len(states) // 2]
    return [middle.view(0), middle.view(None), states[-1].view(0)]


def wrong_value(value: Any) -> Any:
    """A value of another JSON type than ``value``'s (None for a null: no single wrong one)."""
    if isinstance(value, bool):
        return "true"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, str):
        return 7
    if isinstance(value, list):
        return {"items": value}
    if isinstance(value, dict):
        return [value]
    return None


def replaced(root: Any, path: tuple[Any, ...], new: Any) -> Any:
    """A deep copy of ``root`` with the value at ``path`` replaced by ``new``."""
    copy = json.loads(json.dumps(root))
    node = copy
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = new
    return copy


def mutations(root: dict[str, Any], always: set[str]) -> Iterator[tuple[str, Any]]:
    """(what, mutated copy of ``root``) for each wrong shape worth refusing: an unknown member
    in every object, a value of the wrong type at every member and leaf (the first three
    items of each list), each of the ``always`` present top-level members missing."""
    def walk(node: Any, path: tuple[Any, ...]) -> Iterator[tuple[str, Any]]:
        if isinstance(node, dict):
            for key, value in node.items():
                yield from walk(value, (*path, key))
            if path:
                yield f"{path}: unknown member", replaced(root, path, {**node, "bogus": 1})
        elif isinstance(node, list):
            for index, value in enumerate(node[:3]):
                yield from walk(value, (*path, index))
        if path and wrong_value(node) is not None:
            yield f"{path}: {node!r} as {wrong_value(node)!r}", replaced(
                root, path, wrong_value(node))
    yield from walk(root, ())
    yield "an unknown top-level member", {**root, "bogus": 1}
    for key in sorted(always):
        yield f"without {key}", {k: v for k, v in root.items() if k != key}


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_a_view_of_the_wrong_shape_fails_its_schema(game: Game) -> None:
    view_check, _ = fast_validators(game)
    checked = 0
    views = sample_views(game)
    always = set.intersection(*(set(view) for view in views))  # a spectator's, the end's too
    for view in views:
        assert view_check.is_valid(view) and view_problem(game.id, view) is None
        for what, mutated in mutations(view, always):
            assert not view_check.is_valid(mutated), f"{game.id} view accepts {what}"
            if checked % 5 == 0:  # jsonschema agrees (a fifth of them: ~3 ms each)
                assert view_problem(game.id, mutated) is not None, f"{game.id}: {what}"
            checked += 1
    assert checked >= 50, checked


def test_a_mutated_view_names_the_problem() -> None:
    """The reason says where: a seat's view with a member of the wrong type."""
    for game in GAMES:
        view = sample_views(game)[0]
        problem = view_problem(game.id, {**view, "players": "two"})
        assert problem is not None and problem.startswith("players:"), problem


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_a_move_of_the_wrong_shape_is_refused_before_the_engine(game: Game) -> None:
    players, options = setups(game)[-1]
    seen: dict[str, dict[str, Any]] = {}
    for state in random_play(game, players, options, seed=5):
        for seat in state.to_move():
            for move in state.legal_moves(seat):
                seen.setdefault(move["type"], move)
    _, move_check = fast_validators(game)
    for kind, move in seen.items():
        wrong = [{**move, "bogus": 1}, {**move, "type": f"{kind}_not"}]
        wrong += [{**move, key: wrong_value(value)} for key, value in move.items()
                  if key != "type" and wrong_value(value) is not None]
        for mutated in wrong:
            assert move_problem(game, mutated) is not None, mutated
            assert not move_check.is_valid(mutated), mutated
    unknown = move_problem(game, {"type": "no_such_move"})
    assert unknown is not None and "no move type 'no_such_move'" in unknown
    assert all(kind in unknown for kind in game.schemas()["moves"])


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_the_schema_file_is_well_formed(game: Game) -> None:
    """Each move schema names its own type; every $ref resolves; the view names the game."""
    schemas = game.schemas()
    assert set(schemas) <= {"$comment", "view", "moves", "$defs"}
    assert schemas["view"]["properties"]["game"]["const"] == game.id
    for kind, schema in schemas["moves"].items():
        assert schema["properties"]["type"]["const"] == kind
        assert schema["additionalProperties"] is False and "type" in schema["required"]
    refs = {ref.removeprefix("#/$defs/") for ref in _refs(schemas)}
    assert refs <= set(schemas.get("$defs", {})), refs - set(schemas.get("$defs", {}))


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref":
                yield value
            else:
                yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)
