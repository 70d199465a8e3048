"""``make bench``: every quick benchmark in turn, each printing its figures and its command.

Engine random-play rates (one core), Darwinning! and Evolution (North Star) playouts and
`medium` decisions with the load average, ISMCTS simulation rates against playout rates, the
queue overhead of a bot reply, the move-shape check's cost per move, the searches of a
bot-only draft, the bots' answer times (plain sources against the compiled build) through the
real service and
tournament throughput (one and two workers) with the reply latency while a tournament runs,
the API under load against a bare Flask+Redis baseline, the notification delivery latency
from a commit to an account's webhook, and quick play's time to match and matching throughput.
Bot strength is slow and has its own target (``make bench-strength``).
"""

from __future__ import annotations

import subprocess
import sys

BENCHES = [
    ["bench.bench_savanna", "--seconds", "10"],
    ["bench.bench_evolution", "--seconds", "10"],
    ["bench.bench_evolution_ns", "--seconds", "10"],
    ["bench.bench_darwinning", "--seconds", "10"],
    ["bench.bench_engine_speed", "--seconds", "5", "--positions", "2"],
    ["bench.bench_search", "--players", "4", "--seconds", "3"],
    ["bench.bench_sims_builds", "--players", "2", "--seconds", "1", "--rounds", "3"],
    ["bench.bench_latency", "--samples", "200"],
    ["bench.bench_round_trips"],
    ["bench.bench_round_trips_arena"],
    ["bench.bench_move_check", "--seconds", "1", "--rounds", "3"],
    ["bench.bench_draft", "--matches", "3", "--simulations", "300", "--concurrency", "4"],
    ["bench.bench_tournament", "--random-rounds", "4", "--easy-rounds", "1"],
    ["bench.bench_memory", "--matches", "200", "--finished", "20"],
    ["bench.bench_load", "--seconds", "8", "--rounds", "3"],
    ["bench.bench_scale", "--seconds", "10"],
    ["bench.bench_bot_wait", "--waits", "12"],
    # A person against three bots acting in turn: the longest waits the turn budget shares.
    ["bench.bench_bot_wait", "--waits", "12", "--bots", "3", "--levels", "hard", "--games",
     "evolution", "evolution-ns"],
    ["bench.bench_compact", "--think", "1", "--hz", "2"],
    ["bench.bench_notify", "--samples", "200"],
    # Quick play: time to match at a steady join rate, and one pool's matching throughput.
    ["bench.bench_pools", "--rate", "10", "--seconds", "20", "--json", "bench/results/pools.jsonl"],
]


def main() -> int:
    failed = 0
    for module, *args in BENCHES:
        command = [sys.executable, "-m", module, *args]
        print(f"$ python -m {module} {' '.join(args)}", flush=True)
        failed |= subprocess.run(command).returncode
        print(flush=True)
    return failed


if __name__ == "__main__":
    sys.exit(main())
