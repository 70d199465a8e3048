"""One seeded ISMCTS search from a game's opening: a fixed workload for profilers and counters.

Run from the repository root, plain or on the compiled build, e.g. under callgrind, which
counts the instructions of ``search_move`` alone (the compiled build's C function), a figure
that does not move with the load of a shared machine::

    .venv/bin/python -m bench.bench_one_search darwinning --simulations 300
    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        --toggle-collect=CPyDef_ismcts___search_move \\
        .venv/bin/python -m bench.accel bench.bench_one_search darwinning --simulations 300

It prints the game, the simulations per second of CPU time and the move chosen (the same on
every build: the search is seeded and its early stop is off).
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from shared.games import get_game
from shared.search import SearchBudget, SearchConfig, search_move


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--simulations", type=int, default=2000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7, help="of the match dealt")
    args = parser.parse_args()
    game = get_game(args.game)
    state = game.new_state(args.players, game.resolve_options({}), random.Random(args.seed))
    seat = state.to_move()[0]
    stats: dict[str, Any] = {}
    start = time.process_time()
    move = search_move(game, state.view(seat), seat, SearchBudget(args.simulations, 600.0),
                       random.Random(1), stats=stats,
                       config=SearchConfig(stop_when_decided=False))
    rate = stats["iterations"] / (time.process_time() - start)
    print(f"{game.id} sims/cpu-s={rate:.0f} move={move}")


if __name__ == "__main__":
    main()
