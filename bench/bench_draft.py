"""Searches wasted in a bot-only simultaneous draft, through the real service.

Four ISMCTS bots play Ecosystem: Savanna with a worker of ``--concurrency`` processes. Each
draft step is a simultaneous secret pick, then a simultaneous public placement of the
revealed cards (docs/rules/savanna.md, rules S-2.2 and S-2.6). A bot whose search is
overtaken by another seat's hidden pick resubmits its move at the new version
(``shared/matches/carryover.py``; the log entry says ``searched_at_version``); one overtaken by a
placement, which it can see, drops it and searches again. This reports how many searches
each match ran, how many were dropped, how many carried over, and the wall time.
Starts its own redis-server, gunicorn and Celery worker on free ports.
Run: ``.venv/bin/python -m bench.bench_draft --matches 3 --simulations 300 --concurrency 4``.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import requests

from scripts.localredis import free_port, start_redis
from scripts.stack import UNLIMITED, start_api, start_worker, wait_healthy

DROPPED = b"bot move dropped"


def play(base: str, seed: int, simulations: int) -> tuple[float, list[dict]]:
    """One bot-only match; its wall time and its complete move log."""
    http = requests.Session()
    seats = [{"kind": "bot", "bot": {"kind": "ismcts", "simulations": simulations}}] * 4
    started = time.perf_counter()
    match = http.post(f"{base}/v1/matches", json={"game": "savanna", "seed": seed,
                                                  "seats": seats}).json()
    while match["status"] != "finished":
        match = http.get(f"{base}/v1/matches/{match['id']}",
                         params={"version": match["version"], "wait": 30}).json()
    elapsed = time.perf_counter() - started
    events = http.get(f"{base}/v1/matches/{match['id']}/events").json()["events"]
    return elapsed, [e for e in events if "bot" in e]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--simulations", type=int, default=300)
    parser.add_argument("--concurrency", type=int, default=4)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        redis_port, api_port = free_port(), free_port()
        redis = start_redis(Path(tmp) / "redis", redis_port, appendonly=True)
        env = dict(os.environ, REDIS_URL=f"redis://127.0.0.1:{redis_port}/0", **UNLIMITED)
        log_path = Path(tmp) / "stack.log"
        log = open(log_path, "wb")  # noqa: SIM115 - closed below
        api = start_api(env, f"127.0.0.1:{api_port}", log)
        worker = start_worker(env, Path(tmp) / "beat", log, concurrency=args.concurrency)
        base = f"http://127.0.0.1:{api_port}"
        try:
            wait_healthy(base, api)
            for seed in range(1, args.matches + 1):
                dropped_before = log_path.read_bytes().count(DROPPED)
                elapsed, moves = play(base, seed, args.simulations)
                dropped = log_path.read_bytes().count(DROPPED) - dropped_before
                carried = sum("searched_at_version" in m["bot"] for m in moves)
                print(f"seed {seed}: {len(moves)} moves, {len(moves) + dropped} searches, "
                      f"{dropped} dropped, {carried} carried over, {elapsed:.1f} s", flush=True)
        finally:
            for process in (worker, api, redis):
                process.terminate()
                process.wait(timeout=20)
            log.close()


if __name__ == "__main__":
    main()
