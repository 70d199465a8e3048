"""Bot answers through the real service, plain sources against the compiled build.

Starts its own redis-server, gunicorn and Celery worker (the production commands, the
worker's default concurrency of 2) twice: once with ``EVO_COMPILED=0`` (plain sources), once
on the compiled build (``shared/infra/accel.py``). For every game and level it plays matches of a
person (random legal moves, sent at once) against ``--bots`` ``ismcts`` bots (1: 2-player
matches) and reports:

* ``decision``: a bot's thinking time per decision (``think_seconds`` in the move log);
* ``wait``: a person's wait, from their move being accepted to their next decision being
  readable (every bot decision in between, the queue and the long poll included);
* ``chain``: how many bot decisions each wait held.

p50 and p95 of each, the plain/compiled ratios, the load average (1/5/15 min) at the start
and the end of each row (the levels' time caps and the person's turn budget keep every row
short, so a loaded machine still gives figures; the load says how loaded), and whether
``hard``'s decisions keep ``DECISION_TARGET_SECONDS`` and every level's waits keep
``WAIT_TARGET_SECONDS`` at p95. The worker runs with ``TURN_BUDGET_SECONDS`` set to
``--turn-budget`` (the default 5 s; 0: every decision its level's whole cap, as before the
turn budget). Run from the repository root::

    .venv/bin/python -m bench.bench_bot_wait [--games evolution savanna]
        [--levels easy medium hard] [--waits 12] [--builds plain compiled] [--bots 1]
        [--turn-budget 5]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import requests

from bench.bench_latency import percentile
from scripts.localredis import free_port, start_redis
from scripts.stack import UNLIMITED, start_api, start_worker, wait_healthy
from shared.bots.catalogue import DECISION_TARGET_SECONDS, WAIT_TARGET_SECONDS
from shared.games import all_games
from shared.infra import accel
from shared.infra.config import Settings


def load() -> str:
    """The load average, 1/5/15 min, printed beside every row."""
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


@contextmanager
def stack(compiled: bool, tmp: Path, turn_budget: float) -> Iterator[str]:
    """A real redis + API + worker; the worker on the build or on the plain sources."""
    redis_port, api_port = free_port(), free_port()
    redis = start_redis(tmp / "redis", redis_port, appendonly=False)
    # No rate limits or bot-seat cap: the bench creates a match per few waits from one address.
    env = dict(os.environ, REDIS_URL=f"redis://127.0.0.1:{redis_port}/0",
               TURN_BUDGET_SECONDS=repr(turn_budget),
               **{**UNLIMITED, accel.SWITCH: "1" if compiled else "0"})
    log = open(tmp / "stack.log", "wb")  # noqa: SIM115 - closed below
    api = start_api(env, f"127.0.0.1:{api_port}", log)
    worker = start_worker(env, tmp / "beat", log)
    base = f"http://127.0.0.1:{api_port}"
    try:
        wait_healthy(base, api)
        yield base
    finally:
        for process in (worker, api, redis):
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:  # a search or a long poll still running
                process.kill()
                process.wait(timeout=10)
        log.close()
        line = [x for x in (tmp / "stack.log").read_text(errors="replace").splitlines()
                if "compiled build:" in x]
        print(f"  worker: {line[-1].split('] ', 1)[-1] if line else 'no build line'}",
              flush=True)


def play(base: str, game: str, level: str, waits: int, seed: int,
         bots: int = 1) -> dict[str, list[float]]:
    """Decisions and waits of a person against ``bots`` ``level`` bots until ``waits``
    waits."""
    http = requests.Session()
    out: dict[str, list[float]] = {"decision": [], "wait": [], "chain": []}
    bot = {"kind": "bot", "bot": {"kind": "ismcts", "level": level}}
    while len(out["wait"]) < waits:
        seed += 1
        created = http.post(f"{base}/v1/matches", json={"game": game, "seed": seed, "seats": [
            {"kind": "human"}, *[bot] * bots]})
        created.raise_for_status()
        match_id, token = created.json()["id"], created.json()["tokens"][0]["token"]
        auth = {"Authorization": f"Bearer {token}"}
        rng = random.Random(seed)
        match = http.get(f"{base}/v1/matches/{match_id}", headers=auth).json()
        while match["status"] != "finished" and len(out["wait"]) < waits:
            if 0 not in match["to_move"]:
                match = http.get(f"{base}/v1/matches/{match_id}", headers=auth, timeout=130,
                                 params={"version": match["version"], "wait": 30}).json()
                continue
            moves = http.get(f"{base}/v1/matches/{match_id}/moves", headers=auth).json()
            answer = http.post(f"{base}/v1/matches/{match_id}/moves", headers=auth,
                               json={"version": moves["version"],
                                     "move_id": rng.choice(moves["moves"])["id"]}).json()
            accepted = time.perf_counter()
            match = http.get(f"{base}/v1/matches/{match_id}", headers=auth).json()
            if 0 in match["to_move"] or match["status"] == "finished":
                continue  # the person moves again at once: nobody waited
            while 0 not in match["to_move"] and match["status"] != "finished":
                match = http.get(f"{base}/v1/matches/{match_id}", headers=auth, timeout=130,
                                 params={"version": match["version"], "wait": 30}).json()
            out["wait"].append(time.perf_counter() - accepted)
            log = http.get(f"{base}/v1/matches/{match_id}/events", headers=auth,
                           params={"since": answer["version"]}).json()["events"]
            decisions = [e["bot"]["think_seconds"] for e in log
                         if e.get("bot", {}).get("kind") == "ismcts"]
            out["decision"] += decisions
            out["chain"].append(len(decisions))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=[g.id for g in all_games()])
    parser.add_argument("--levels", nargs="+", default=["easy", "medium", "hard"])
    parser.add_argument("--waits", type=int, default=12, help="a person's waits per row")
    parser.add_argument("--builds", nargs="+", default=["plain", "compiled"])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bots", type=int, default=1, help="bot seats beside the person")
    parser.add_argument("--turn-budget", type=float,
                        default=Settings.__dataclass_fields__["turn_budget_seconds"].default,
                        help="TURN_BUDGET_SECONDS of the worker (0: none)")
    parser.add_argument("--json", type=Path, help="also write the raw figures here")
    args = parser.parse_args()
    # A TERM (a timeout, a Ctrl-C from a supervisor) must still stop the stack it started.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    if "compiled" in args.builds:
        accel.build()
    figures: dict[str, Any] = {}
    loads: dict[str, str] = {}
    for build in args.builds:
        print(f"{build}: {args.bots} bot(s) against a person, turn budget "
              f"{args.turn_budget:g} s", flush=True)
        with tempfile.TemporaryDirectory() as tmp, stack(build == "compiled", Path(tmp),
                                                         args.turn_budget) as base:
            play(base, args.games[0], "easy", 2, 10_000)  # warm-up: pool forks, imports
            for game in args.games:
                for level in args.levels:
                    before = load()
                    got = play(base, game, level, args.waits, args.seed, args.bots)
                    loads[f"{game}/{level}/{build}"] = f"{before} → {load()}"
                    figures[f"{game}/{level}/{build}"] = got
                    if args.json:  # after every row: a long run stopped early keeps its rows
                        args.json.write_text(json.dumps({"figures": figures, "load": loads},
                                                        indent=1))
                    print(f"{game:10} {level:6} {build:8} " + "  ".join(
                        f"{kind} n={len(v)} p50 {percentile(v, 0.5):.2f} "
                        f"p95 {percentile(v, 0.95):.2f}" for kind, v in got.items() if v)
                        + f"  load {loads[f'{game}/{level}/{build}']}", flush=True)
    if set(args.builds) == {"plain", "compiled"}:
        print("\n| game | level | decision p50 / p95 (plain → compiled) | a person's wait "
              "p50 / p95 (plain → compiled) | decisions a wait p50 / p95 | "
              "ratio p95 decision / wait | load 1/5/15 min (plain row; compiled row) |")
        print("|---|---|---|---|---|---|---|")
        for game in args.games:
            for level in args.levels:
                plain, fast = figures[f"{game}/{level}/plain"], figures[f"{game}/{level}/compiled"]

                def cell(kind: str, p: dict[str, list[float]] = plain,
                         f: dict[str, list[float]] = fast) -> str:
                    return (f"{percentile(p[kind], .5):.2f} / {percentile(p[kind], .95):.2f} s"
                            f" → {percentile(f[kind], .5):.2f} / {percentile(f[kind], .95):.2f}"
                            " s")

                ratio = [percentile(plain[k], .95) / max(percentile(fast[k], .95), 1e-3)
                         for k in ("decision", "wait")]
                verdict = ""
                if level == "hard":
                    ok = percentile(fast["decision"], .95) < DECISION_TARGET_SECONDS
                    verdict = f" (target < {DECISION_TARGET_SECONDS:g} s: {'✓' if ok else '✗'})"
                waited = max(percentile(plain["wait"], .95), percentile(fast["wait"], .95))
                wait_verdict = (f" (target < {WAIT_TARGET_SECONDS:g} s: "
                                f"{'✓' if waited < WAIT_TARGET_SECONDS else '✗'})")
                chain = (f"{percentile(plain['chain'], .5):g} / "
                         f"{percentile(plain['chain'], .95):g} → "
                         f"{percentile(fast['chain'], .5):g} / {percentile(fast['chain'], .95):g}")
                print(f"| {game} | {level} | {cell('decision')}{verdict} | {cell('wait')}"
                      f"{wait_verdict} | {chain} | "
                      f"{ratio[0]:.1f}x / {ratio[1]:.1f}x | {loads[f'{game}/{level}/plain']}; "
                      f"{loads[f'{game}/{level}/compiled']} |")


if __name__ == "__main__":
    main()
