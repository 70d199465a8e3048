"""Queue overhead through the real service: from a human move being accepted to the bot's reply
being readable, minus the bot's own thinking time (recorded in the move log).

Starts its own redis-server, gunicorn and Celery worker on free ports, plays 2-player
Evolution matches (turns alternate, so each human move is answered by the bot) against a
``random`` bot and reports p50/p95 over ``--samples`` replies.
Run: ``.venv/bin/python -m bench.bench_latency --samples 200``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

import requests

from scripts.stack import local_stack


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def measure(base: str, samples: int, bot: str) -> list[float]:
    http, overheads, seed = requests.Session(), [], 0
    while len(overheads) < samples:
        seed += 1
        created = http.post(f"{base}/v1/matches", json={"game": "evolution", "seed": seed,
                            "seats": [{"kind": "human"}, {"kind": "bot", "bot": {"kind": bot}}]}
                            ).json()
        match_id, token = created["id"], created["tokens"][0]["token"]
        auth = {"Authorization": f"Bearer {token}"}
        rng = random.Random(seed)
        match = http.get(f"{base}/v1/matches/{match_id}", headers=auth).json()
        while match["status"] != "finished" and len(overheads) < samples:
            if 0 not in match["to_move"]:
                match = http.get(f"{base}/v1/matches/{match_id}", headers=auth,
                                 params={"version": match["version"], "wait": 10}).json()
                continue
            moves = http.get(f"{base}/v1/matches/{match_id}/moves", headers=auth).json()
            choice = rng.choice(moves["moves"])
            answer = http.post(f"{base}/v1/matches/{match_id}/moves", headers=auth,
                               json={"version": moves["version"], "move_id": choice["id"]}
                               ).json()
            accepted = time.perf_counter()
            if answer["to_move"] != [1]:
                match = http.get(f"{base}/v1/matches/{match_id}", headers=auth).json()
                continue
            match = http.get(f"{base}/v1/matches/{match_id}", headers=auth,
                             params={"version": answer["version"], "wait": 30}).json()
            readable = time.perf_counter()
            log = http.get(f"{base}/v1/matches/{match_id}/events", headers=auth,
                           params={"since": answer["version"]}).json()["events"]
            think = log[0]["bot"]["think_seconds"] if log and "bot" in log[0] else 0.0
            overheads.append(readable - accepted - think)
    return overheads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--bot", default="random")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, local_stack(Path(tmp)) as stack:
        measure(stack.base, 10, args.bot)  # warm-up: worker pool forks, imports, connections
        values = measure(stack.base, args.samples, args.bot)
    print(f"queue overhead (human move accepted -> {args.bot} bot reply readable, minus "
          f"thinking), {len(values)} replies: p50 {statistics.median(values) * 1000:.1f} ms, "
          f"p95 {percentile(values, 0.95) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
