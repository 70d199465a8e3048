"""Darwinning! random playouts per second on one core (fixed seed, 4 players).

Usage: ``.venv/bin/python bench/bench_darwinning.py [--seconds 10] [--players 4]``
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared.games import get_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--edition", default="2.2", choices=("2.2", "1.7"))
    args = parser.parse_args()
    game = get_game("darwinning")
    rng = random.Random(12345)
    matches = 0
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        state = game.new_state(args.players, {"edition": args.edition}, rng)
        while not state.is_over():
            seat = state.to_move()[0]
            state.advance(seat, state.random_move(seat, rng), rng)  # as playouts do
        matches += 1
    elapsed = time.perf_counter() - start
    print(f"darwinning random playouts: {matches / elapsed:.1f} matches/s "
          f"({args.players} players, v{args.edition})")


if __name__ == "__main__":
    main()
