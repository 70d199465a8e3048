"""Tournament throughput and the interactive bot reply latency while a tournament runs.

Starts its own redis-server, gunicorn, the worker of people's matches (with the beat) and one,
then two, tournament worker processes (one pool process each), all on free ports, and runs:

* a round robin of four ``random`` bots, then of four ``easy`` ISMCTS bots, in Savanna
  (2 seats), with one and with two tournament workers: matches per hour and the ratio;
* the queue overhead of a person's bot reply (``bench.bench_latency``'s measure: 2-player
  Evolution against a ``random`` bot) with no tournament, then while an ``easy`` tournament
  keeps the two tournament workers busy.

Run: ``.venv/bin/python -m bench.bench_tournament --random-rounds 4 --easy-rounds 1``.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, BinaryIO

import requests

from bench.bench_latency import measure, percentile
from scripts.stack import local_stack, start_worker
from shared.infra.queue import TOURNAMENT_QUEUE


def run_tournament(base: str, bot: dict[str, Any], rounds: int, concurrency: int
                   ) -> tuple[int, float]:
    """Play a round robin of four copies of ``bot``; its matches and wall seconds."""
    body = {"game": "savanna", "format": "round_robin", "rounds": rounds, "seed": 1,
            "concurrency": concurrency, "entrants": [{"bot": bot}] * 4}
    started = time.perf_counter()
    created = requests.post(f"{base}/v1/tournaments", json=body, timeout=60).json()
    while True:
        info = requests.get(f"{base}/v1/tournaments/{created['id']}", timeout=60).json()
        if info["status"] != "running":
            break
        time.sleep(0.2)
    assert info["status"] == "finished", info
    return info["progress"]["done"], time.perf_counter() - started


def tournament_workers(env: dict[str, str], count: int, log: BinaryIO
                       ) -> list[subprocess.Popen[bytes]]:
    return [start_worker(env, None, log, concurrency=1, queue=TOURNAMENT_QUEUE)
            for _ in range(count)]


def stop(processes: list[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        process.terminate()
    for process in processes:
        process.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--random-rounds", type=int, default=4)
    parser.add_argument("--easy-rounds", type=int, default=1)
    parser.add_argument("--samples", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, local_stack(
            Path(tmp), TOURNAMENTS_PER_MINUTE="1000") as stack:
        base = stack.base
        rates: dict[tuple[str, int], float] = {}
        for workers in (1, 2):
            pool = tournament_workers(stack.env, workers, stack.log)
            try:
                run_tournament(base, {"kind": "random"}, 1, 8)  # warm-up: forks, imports
                for name, bot, rounds in (("random", {"kind": "random"}, args.random_rounds),
                                          ("easy", {"kind": "ismcts", "level": "easy"},
                                           args.easy_rounds)):
                    matches, seconds = run_tournament(base, bot, rounds, 8)
                    rates[(name, workers)] = matches / seconds * 3600
                    print(f"{name:>6} bots, {workers} tournament worker(s): {matches} "
                          f"matches in {seconds:.1f} s = {rates[(name, workers)]:,.0f} "
                          "matches/hour", flush=True)
            finally:
                stop(pool)
        for name in ("random", "easy"):
            print(f"{name:>6} bots: two workers / one = "
                  f"{rates[(name, 2)] / rates[(name, 1)]:.2f}x")
        measure(base, 10, "random")  # warm-up of the people's worker
        quiet = measure(base, args.samples, "random")
        pool = tournament_workers(stack.env, 2, stack.log)
        try:
            body = {"game": "savanna", "format": "round_robin", "rounds": 50, "seed": 2,
                    "concurrency": 8, "entrants": [{"bot": {"kind": "ismcts",
                                                             "level": "easy"}}] * 4}
            heavy = requests.post(f"{base}/v1/tournaments", json=body, timeout=60).json()
            time.sleep(3)  # both tournament workers busy, their queue filled
            busy = measure(base, args.samples, "random")
            progress = requests.get(f"{base}/v1/tournaments/{heavy['id']}",
                                    timeout=60).json()["progress"]
            requests.post(f"{base}/v1/tournaments/{heavy['id']}/cancel", timeout=60,
                          headers={"Authorization": f"Bearer {heavy['owner_token']}"})
        finally:
            stop(pool)
    print(f"tournament running meanwhile: {progress['done']} of {progress['total']} "
          "matches done when the samples ended")
    for label, values in (("no tournament", quiet), ("easy tournament running", busy)):
        print(f"bot reply queue overhead, {label}: p50 "
              f"{statistics.median(values) * 1000:.1f} ms, p95 "
              f"{percentile(values, 0.95) * 1000:.1f} ms ({len(values)} replies)")

if __name__ == "__main__":
    main()
