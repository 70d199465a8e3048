"""Engine speed for the search, per game: random playouts and `medium` ISMCTS decisions.

Run from the repository root, plain and on the compiled build::

    .venv/bin/python -m bench.bench_engine_speed --games darwinning evolution-ns
    .venv/bin/python -m bench.accel bench.bench_engine_speed --games darwinning evolution-ns

For each game it prints one line per player count with random playouts per second (whole
seeded matches, as ``bench_darwinning`` plays them) and one line per player count of
``medium`` searches: the mean seconds of a 1,000-simulation ISMCTS decision (the early stop
off, so every run does the same work) and the simulations per second, over the positions
``bench_search`` picks. Each rate is given per second of wall time and per second of the
process's CPU time (``cpu-s``): on a shared machine the CPU figure moves far less with the
load. Each line ends with the load average before and after it. ``--cutoffs 0 1 2`` repeats
the searches without the game's playout cut-off (0) and with it at horizons 1 and 2
(``Game.playout_cutoff``; ``cut=`` on the line), e.g. for Evolution (North Star)::

    .venv/bin/python -m bench.accel bench.bench_engine_speed --games evolution-ns \\
        --players --search-players 2 --cutoffs 0 1 2
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

from bench.bench_search import load_game, positions
from shared.bots.catalogue import LEVELS
from shared.infra.accel import compiled_modules
from shared.kernel.protocol import Game
from shared.search import SearchBudget, SearchConfig, search_move


def load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def playout_rate(game: Game, players: int, seconds: float) -> tuple[float, float]:
    """Seeded random matches per second from ``new_state`` to the end: per second of wall
    time and per second of this process's CPU time."""
    rng = random.Random(12345)
    options = game.resolve_options({})
    matches = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        state = game.new_state(players, options, rng)
        while not state.is_over():
            seat = state.to_move()[0]
            state.advance(seat, state.random_move(seat, rng), rng)
        matches += 1
    return (matches / (time.perf_counter() - start),
            matches / (time.process_time() - cpu))


def decision_time(game: Game, players: int, count: int, simulations: int, horizon: int = 0
                  ) -> tuple[float, float, float]:
    """Mean seconds per search of ``simulations`` iterations, iterations per second, and
    iterations per second of this process's CPU time; ``horizon`` > 0 cuts playouts there
    (the game's candidate ``playout_cutoff``)."""
    took = cpu = 0.0
    done = 0
    for index, (state, seat) in enumerate(positions(game, players, count)):
        stats: dict[str, object] = {}
        cutoff = game.playout_cutoff(horizon) if horizon else None
        if horizon and cutoff is None:
            raise SystemExit(f"{game.id} has no playout cut-off")
        before = time.process_time()
        search_move(game, state.view(seat), seat, SearchBudget(simulations, 600.0),
                    random.Random(index), stats=stats,
                    config=SearchConfig(stop_when_decided=False, cutoff=cutoff))
        cpu += time.process_time() - before
        took += float(stats["elapsed"])  # type: ignore[arg-type]
        done += int(stats["iterations"])  # type: ignore[call-overload]
    return took / count, done / took, done / cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=["darwinning", "evolution-ns"])
    parser.add_argument("--players", nargs="*", type=int, default=[2, 3, 4])
    parser.add_argument("--search-players", nargs="*", type=int, default=[2, 4])
    parser.add_argument("--seconds", type=float, default=5.0, help="per playout figure")
    parser.add_argument("--positions", type=int, default=3, help="searches per player count")
    parser.add_argument("--simulations", type=int, default=LEVELS["medium"].simulations)
    parser.add_argument("--cutoffs", nargs="*", type=int, default=[0],
                        help="playout cut-off horizons of the searches (0: none)")
    args = parser.parse_args()
    build = "compiled" if compiled_modules() else "plain"
    print(f"# python -m bench.bench_engine_speed {' '.join(sys.argv[1:])} ({build})")
    for game_id in args.games:
        game = load_game(game_id)
        for players in args.players:
            before = load()
            rate, cpu_rate = playout_rate(game, players, args.seconds)
            print(f"{game.id} {build} players={players} playouts/s={rate:.0f} "
                  f"playouts/cpu-s={cpu_rate:.0f} load={before}->{load()}", flush=True)
        for players in args.search_players:
            for horizon in args.cutoffs:
                before = load()
                seconds, rate, cpu_rate = decision_time(game, players, args.positions,
                                                        args.simulations, horizon)
                print(f"{game.id} {build} players={players} simulations={args.simulations} "
                      f"cut={horizon or 'none'} s/decision={seconds:.2f} sims/s={rate:.0f} "
                      f"sims/cpu-s={cpu_rate:.0f} load={before}->{load()}", flush=True)


if __name__ == "__main__":
    main()
