"""ISMCTS simulations per second per game, plain sources against the compiled build.

Each round runs ``bench.bench_search`` once on the plain sources and once through
``bench.accel`` (the worker's mypyc build), one game and the opening position at a time, the
two builds alternating so that load from other processes hits both alike; it prints the
median of the rounds per build, their ratio and the load average at the start and the end.
Run from the repository root::

    .venv/bin/python -m bench.bench_sims_builds [--games savanna evolution] [--players 2]
        [--seconds 1] [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys

from shared.games import all_games
from shared.infra import accel

COMMAND = "python -m bench.bench_sims_builds " + " ".join(sys.argv[1:])
RATE = re.compile(r"ismcts/s=(\d+)")


def rate(game: str, players: int, seconds: float, compiled: bool) -> float:
    """ISMCTS iterations per second at ``game``'s opening, on one build."""
    search = ["bench.bench_search", "--games", game, "--players", str(players),
              "--seconds", str(seconds), "--positions", "1"]
    launcher = ["bench.accel", *search] if compiled else search
    out = subprocess.run([sys.executable, "-m", *launcher], capture_output=True, text=True,
                         check=True).stdout
    found = RATE.search(out)
    if found is None:
        raise RuntimeError(f"no ismcts/s in the output of {launcher}: {out!r}")
    return float(found.group(1))


def load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=[g.id for g in all_games()])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=1.0,
                        help="per rate and run (bench_search's --seconds)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    accel.build()  # before timing anything
    print(f"# {COMMAND}", flush=True)
    print("| game | players | plain sims/s | compiled sims/s | ratio | load 1/5/15 min at "
          "start → end |\n|---|---|---|---|---|---|", flush=True)
    for game in args.games:
        before = load()
        rates: dict[bool, list[float]] = {False: [], True: []}
        for _ in range(args.rounds):
            for compiled in (False, True):
                rates[compiled].append(rate(game, args.players, args.seconds, compiled))
        plain, fast = (statistics.median(rates[c]) for c in (False, True))
        print(f"| {game} | {args.players} | {plain:,.0f} | {fast:,.0f} | "
              f"{fast / plain:.1f}x | {before} → {load()} |", flush=True)


if __name__ == "__main__":
    main()
