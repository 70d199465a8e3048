"""Random JSON thrown at every registered engine and at the service: only clean refusals.

Issue 18: a move whose ``type`` was a list crashed an engine. Every game in the catalogue
(``all_games()``, never by name) must answer any JSON at ``find_move``/``apply`` with
``IllegalMove`` and nothing else; the service must answer it with a 4xx service error; and
every move an engine itself offers must pass the game-agnostic shape check of
``shared.matches.moves`` (else that check would refuse legal moves).
"""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import pytest
import redis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.domain.errors import ServiceError
from shared.games import all_games
from shared.kernel.protocol import Game, IllegalMove, State
from shared.matches.moves import move_shape_problem
from shared.matches.store import MatchStore, match_key
from shared.services import match_service

GAMES = all_games()
IDS = [game.id for game in GAMES]

scalars = (st.none() | st.booleans() | st.integers(-(2**70), 2**70)
           | st.floats(allow_nan=False) | st.text(max_size=30))
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                           max_leaves=12)


def move_types(game: Game) -> list[str]:
    """The move types the engine's own moves use (so random moves get past the first check)."""
    types: set[str] = set()
    for state in sample_states(game, 3):
        for seat in state.to_move():
            types.update(m.get("type") for m in state.legal_moves(seat) if isinstance(m, dict))
    return sorted(t for t in types if isinstance(t, str)) or ["x"]


def moves_of(game: Game) -> st.SearchStrategy[Any]:
    """Random JSON, and objects shaped like the game's moves with random field values."""
    fields = st.dictionaries(st.sampled_from(["card", "animal", "target", "trait", "row",
                                              "col", "cards", "food", "seat", "id"]),
                             json_values, max_size=4)
    typed = st.builds(lambda t, f: {**f, "type": t}, st.sampled_from(move_types(game)) |
                      json_values, fields)
    return json_values | typed | st.text(max_size=40)


def sample_states(game: Game, count: int, seed: int = 7) -> list[State]:
    """States met in random play: the start and a few later points of ``count`` games."""
    rng = random.Random(seed)
    states = []
    for _ in range(count):
        players = rng.randint(game.min_players, game.max_players)
        state = game.new_state(players, game.resolve_options({}), rng)
        for step in range(400):
            if state.is_over():
                break
            if step % 37 == 0:
                states.append(game.state_from_json(state.to_json()))
            seat = state.to_move()[0]
            state.apply(seat, state.random_move(seat, rng), rng)
    return states


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_random_json_at_an_engine_is_only_ever_illegal(game: Game) -> None:
    states = sample_states(game, 2)

    @settings(max_examples=150, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow])
    @given(index=st.integers(0, len(states) - 1), seat=st.integers(-1, 8),
           move=moves_of(game))
    def check(index: int, seat: int, move: Any) -> None:
        state = game.state_from_json(states[index].to_json())
        try:
            canonical = state.find_move(seat, move)
        except IllegalMove:
            canonical = None
        with contextlib.suppress(IllegalMove):
            state.apply(seat, canonical if canonical is not None else move, random.Random(1))

    check()


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_every_offered_move_has_the_accepted_shape(game: Game) -> None:
    for state in sample_states(game, 4, seed=11):
        for seat in state.to_move():
            for move in state.legal_moves(seat):
                assert move_shape_problem(move) is None, (game.id, move)
                assert move_shape_problem(state.move_id(move)) is None, (game.id, move)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_random_json_through_the_service_is_a_clean_refusal(
        game: Game, redis_client: redis.Redis) -> None:
    service = match_service(MatchStore(redis_client), lambda *_: None)
    seats = [{"kind": "human"} for _ in range(game.min_players)]
    record, _ = service.create_match(game.id, {}, None, seats)

    @settings(max_examples=100, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow,
                                     HealthCheck.function_scoped_fixture])
    @given(move=moves_of(game), key=st.none() | st.text(min_size=1, max_size=20))
    def check(move: Any, key: str | None) -> None:
        current = service.load(record.id)
        seat = current.to_move[0] if current.to_move else 0
        before = redis_client.hgetall(match_key(record.id))
        try:
            service.submit_move(record.id, seat, current.version, move, key)
        except ServiceError as exc:
            assert 400 <= exc.status < 500
            # Refused means nothing written (no half-applied move).
            assert redis_client.hgetall(match_key(record.id)) == before
        json.dumps(service.describe(service.load(record.id), seat))

    check()
