"""The move check's two validators agree (``shared.games.schemas.move_type_problem``).

A submitted move is accepted when ``jsonschema_rs`` finds it valid, and only a refused move is
checked again by ``jsonschema`` for a reason that names the field. So the compiled validator
must refuse exactly what ``jsonschema`` refuses: random moves built from each game's own move
types, field names and the values its legal moves use (plus wrong ones), never named here.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.games import all_games
from shared.games.schemas import fast_move_validators, move_validators, problem
from shared.kernel.protocol import Game
from shared.matches.moves import move_problem, move_shape_problem

GAMES = all_games()
IDS = [game.id for game in GAMES]


def legal_moves(game: Game, count: int = 400) -> list[dict[str, Any]]:
    """Object moves met in seeded random play."""
    rng = random.Random(21)
    found: list[dict[str, Any]] = []
    while len(found) < count:
        state = game.new_state(rng.randint(game.min_players, game.max_players),
                               game.resolve_options({}), rng)
        while not state.is_over() and len(found) < count:
            seat = rng.choice(state.to_move())
            legal = state.legal_moves(seat)
            found.extend(m for m in legal[:4] if isinstance(m, dict))
            state.apply(seat, rng.choice(legal), rng)
    return found


def moves_like(game: Game) -> st.SearchStrategy[dict[str, Any]]:
    """A legal move with fields replaced, added or dropped, using the game's own names and
    values and a few generic ones of every JSON type the shape guard lets through."""
    moves = legal_moves(game)
    names = sorted({key for move in moves for key in move} | {"bogus"})
    seen = [value for move in moves for key, value in move.items() if key != "type"]
    scalars = (st.sampled_from([v for v in seen if not isinstance(v, list)] or [0])
               | st.none() | st.booleans() | st.integers(-3, 40) | st.sampled_from([1.0, 2.5])
               | st.text(max_size=6))
    values = scalars | st.lists(scalars, max_size=4) | st.sampled_from(
        [v for v in seen if isinstance(v, list)] or [[]])
    edits = st.dictionaries(st.sampled_from(names), values, max_size=3)
    dropped = st.sets(st.sampled_from(names), max_size=2)
    kinds = st.sampled_from(sorted(game.schemas()["moves"]))

    def build(base: dict[str, Any], kind: str | None, edit: dict[str, Any],
              drop: set[str]) -> dict[str, Any]:
        move = {k: v for k, v in {**base, **edit}.items() if k not in drop}
        move["type"] = kind or base["type"]
        return move

    return st.builds(build, st.sampled_from(moves), st.none() | kinds, edits, dropped)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_the_compiled_and_the_python_validator_refuse_the_same_moves(game: Game) -> None:
    fast, slow = fast_move_validators(game.id), move_validators(game.id)
    assert set(fast) == set(slow)
    outcomes: set[bool] = set()

    @settings(max_examples=400, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow])
    @given(move=moves_like(game))
    def check(move: dict[str, Any]) -> None:
        if move_shape_problem(move) is not None:
            return  # refused before any schema
        valid = fast[move["type"]].is_valid(move)
        reason = problem(slow[move["type"]], move)
        assert valid == (reason is None), (move, reason)
        outcomes.add(valid)
        assert move_problem(game, move) == (None if valid else f"{move['type']}: {reason}")

    check()
    assert outcomes == {True, False}  # both kinds were met, so the check compared something
