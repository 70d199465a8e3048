"""Benchmark: complete 4-player Savanna matches per second, random moves, one core.

Usage: ``.venv/bin/python bench/bench_savanna.py [--seconds 10] [--players 4]``
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from shared.games.savanna import SavannaGame


def run(seconds: float, players: int, seed: int = 12345) -> tuple[int, float]:
    """Play random matches for about ``seconds``; return (matches, elapsed)."""
    game = SavannaGame()
    rng = random.Random(seed)
    options = game.resolve_options({})
    matches = 0
    start = time.perf_counter()
    while True:
        state = game.new_state(players, options, rng)
        while not state.is_over():
            for seat in state.to_move():
                state.advance(seat, state.random_move(seat, rng), rng)  # as playouts do
        state.result()
        matches += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return matches, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    matches, elapsed = run(args.seconds, args.players)
    print(f"savanna random playouts: {matches / elapsed:.0f} matches/s ({args.players} players)")


if __name__ == "__main__":
    main()
