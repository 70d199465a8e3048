"""The engines' fast paths agree with the plain ones they stand in for, state by state.

``State.random_move`` of these engines picks a move without listing every legal move (the
playouts' hot path); it must return exactly ``legal_moves(seat)[randbelow(rng, n)]`` and
leave ``rng`` in the same state, or seeded searches would play other moves. The fingerprint
test (``test_engine_fingerprint.py``) checks whole seeded matches against recorded digests;
this test checks every step of seeded random matches directly, over 2-5 seats and each
game's options, so a wrong fast path is named at the first state where it differs.
"""

from __future__ import annotations

import random

import pytest

from bench.accel_check import options_for
from shared.games import get_game
from shared.kernel.protocol import Move, canonical_id
from shared.kernel.rng import randbelow

GAMES = ("darwinning", "evolution", "evolution-ns")
MATCHES = 24


def reference_id(move: Move) -> str:
    """``canonical_id`` as first written (commit a24bd1c)."""
    parts = [str(move["type"])]
    for key in sorted(k for k in move if k != "type"):
        value = move[key]
        if isinstance(value, (list, tuple)):
            value = ",".join(str(v) for v in value)
        parts.append(f"{key}={value}")
    return ":".join(parts)


@pytest.mark.slow  # seeded random play of every engine
@pytest.mark.parametrize("game_id", GAMES)
def test_random_move_is_the_listed_move_at_the_same_draw(game_id: str) -> None:
    game = get_game(game_id)
    counts = list(range(game.min_players, min(game.max_players, 5) + 1))
    for seed in range(MATCHES):
        players = counts[seed % len(counts)]
        rng = random.Random(seed)
        state = game.new_state(players, options_for(game, seed), rng)
        step = 0
        while not state.is_over():
            seat = state.to_move()[0]
            fast_rng, listed_rng = random.Random(step), random.Random(step)
            fast = state.clone().random_move(seat, fast_rng)
            legal = state.clone().legal_moves(seat)
            listed = legal[randbelow(listed_rng, len(legal))]
            assert fast == listed, (seed, step, state.to_json())
            assert fast_rng.getstate() == listed_rng.getstate(), (seed, step)
            assert [canonical_id(move) for move in legal] == [reference_id(move)
                                                             for move in legal]
            state.apply_legal(seat, state.random_move(seat, rng), rng)
            step += 1
