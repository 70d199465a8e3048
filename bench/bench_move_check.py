"""The move-shape check's cost per move (``shared.matches.moves.move_problem``), per game.

Run from the repository root (the machine is shared, so under ``nice``)::

    nice -n 10 .venv/bin/python -m bench.bench_move_check --seconds 1 --rounds 3

For each registered game it collects the object moves of seeded random play (every seat that
owes a move, a few legal moves per step) and times, in microseconds per move:

* ``check``: ``move_problem`` as the API and the worker run it on every submitted move
  (the game-agnostic shape guard, then the game's schema for the move's type);
* ``jsonschema``: the same two steps with the schema checked by ``jsonschema`` alone, as the
  check ran before ``jsonschema_rs`` served it (the validators were cached then too);
* the same two for refused moves (each legal move with an unknown field), where both build
  their problem text with ``jsonschema``.

Each figure is the best of ``--rounds`` rounds of ``--seconds`` each; the line ends with the
load average before and after.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable
from typing import Any

from shared.games import all_games
from shared.games.schemas import move_validators, problem
from shared.kernel.protocol import Game
from shared.matches.moves import move_problem, move_shape_problem


def load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def sample_moves(game: Game, count: int, seed: int = 1) -> list[dict[str, Any]]:
    """Up to ``count`` object moves met in seeded random play of ``game``."""
    rng = random.Random(seed)
    moves: list[dict[str, Any]] = []
    while len(moves) < count:
        players = rng.randint(game.min_players, game.max_players)
        state = game.new_state(players, game.resolve_options({}), rng)
        while not state.is_over() and len(moves) < count:
            seat = rng.choice(state.to_move())
            legal = state.legal_moves(seat)
            moves.extend(m for m in rng.sample(legal, min(3, len(legal)))
                         if isinstance(m, dict))
            state.apply(seat, rng.choice(legal), rng)
    return moves[:count]


def jsonschema_only(game: Game, move: dict[str, Any]) -> str | None:
    """``move_problem`` with the schema checked by jsonschema alone (the check before)."""
    found = move_shape_problem(move)
    if found is not None:
        return found
    validator = move_validators(game.id).get(move["type"])
    return "no such type" if validator is None else problem(validator, move)


def per_move(check: Callable[[Game, dict[str, Any]], str | None], game: Game,
             moves: list[dict[str, Any]], seconds: float, rounds: int) -> float:
    """Best-of-``rounds`` microseconds per call of ``check`` over ``moves``."""
    best = float("inf")
    for _ in range(rounds):
        calls, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            for move in moves:
                check(game, move)
            calls += len(moves)
        best = min(best, (time.perf_counter() - start) / calls * 1e6)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--moves", type=int, default=300, help="moves sampled per game")
    args = parser.parse_args()
    print("µs per move, best of rounds: valid moves check / jsonschema, refused moves "
          "check / jsonschema")
    for game in all_games():
        moves = sample_moves(game, args.moves)
        refused = [{**move, "unknown_field": 1} for move in moves]
        for move, bad in zip(moves, refused, strict=True):  # the same answers as before
            assert move_problem(game, move) is None is jsonschema_only(game, move), move
            assert move_problem(game, bad) == f"{bad['type']}: {jsonschema_only(game, bad)}"
        before = load()
        figures = [per_move(check, game, sample, args.seconds, args.rounds)
                   for sample in (moves, refused) for check in (move_problem, jsonschema_only)]
        print(f"{game.id:13} {len(moves)} moves: valid {figures[0]:6.1f} / {figures[1]:6.1f}, "
              f"refused {figures[2]:6.1f} / {figures[3]:6.1f}  (load {before} -> {load()})",
              flush=True)


if __name__ == "__main__":
    main()
