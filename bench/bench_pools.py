"""Quick play: the time to match in a busy pool with people joining at a steady rate, and the
matching throughput of one pool.

*Time to match*: a local stack (Redis, the API under gunicorn, the worker with beat, so the
pool's periodic pass runs); ``--rate`` accounts a second join one Savanna 2-player pool for
``--seconds``, their ratings drawn from N(25, ``--spread``) (OpenSkill mu, written to the
rating store beforehand), each then long-polling its ticket; the time from its join request to
the answer that says ``matched``, p50/p95/max, with the default pool settings.

*Throughput*: ``--backlog`` accounts already waiting long enough for the widest window in one
pool; matching passes (the script, then the matches' creation through the match service) are
run back to back in this process until nobody fits: people matched a second, and the time of
one pass over 500 waiting tickets (the script alone).

``--json FILE`` appends one record. Run: ``.venv/bin/python -m bench.bench_pools``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import statistics
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import requests

from scripts.stack import local_stack
from shared import services
from shared.infra.config import Settings


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def seed_ratings(built: services.Services, game: str, ids: list[str], spread: float,
                 rng: random.Random) -> None:
    """Give each account a rating in ``game`` (mu from N(25, spread)), as if it had played."""
    ratings = built.tournaments.ratings
    for account_id in ids:
        mu = rng.gauss(25.0, spread)
        ratings.rate_once(game, f"seed-{account_id}", [(f"account:{account_id}", account_id)],
                          lambda _current, mu=mu: [(mu, 3.0)])


def time_to_match(base: str, keys: list[str], rate: float, grace: float
                  ) -> tuple[list[float], int]:
    """Each key joins at its slot of the steady rate and polls until matched: the times."""
    times: list[float] = []
    lock = threading.Lock()
    start = time.monotonic() + 0.5
    give_up = start + len(keys) / rate + grace

    def person(n: int) -> None:
        time.sleep(max(0.0, start + n / rate - time.monotonic()))
        http = requests.Session()
        http.headers["Authorization"] = f"Bearer {keys[n]}"
        sent = time.monotonic()
        ticket = http.post(f"{base}/v1/me/pool", json={"game": "savanna", "players": 2},
                           timeout=30).json()
        while ticket["status"] != "matched" and time.monotonic() < give_up:
            ticket = http.get(f"{base}/v1/me/pool", params={"wait": 5}, timeout=30).json()
        if ticket["status"] == "matched":
            with lock:
                times.append(time.monotonic() - sent)
        else:
            http.delete(f"{base}/v1/me/pool", timeout=30)
        http.close()

    with ThreadPoolExecutor(max(8, int(rate * 20))) as pool:
        list(pool.map(person, range(len(keys))))
    return times, len(keys) - len(times)


def throughput(built: services.Services, backlog: int, spread: float, rng: random.Random
               ) -> dict[str, float]:
    """Matching passes back to back over a backlog of waiting accounts (evolution, 2)."""
    pools = built.pools
    pool, meta = pools.resolve("evolution", 2, None)
    # Not listed in the pools' index: the worker's periodic pass leaves it to this process.
    joined = time.time() - 60  # waited long enough for the widest window (12.5 at 42 s)
    for n in range(backlog):
        account, _ = built.accounts.create(f"backlog-{n}-{time.time_ns()}", None)
        pools.store.claim(account["id"], pool)
        pools.store.join(pool, account["id"], rng.gauss(25.0, spread), "", joined)
    rules = pools._rules(2)
    before = pools.store.waiting_counts([pool])[0]
    started = time.perf_counter()
    script = pools.store.match(pool, rules, "b" * 12, time.time())  # timed alone
    script_seconds = time.perf_counter() - started
    made = len(script)
    for entry in script:  # create what that pass formed, then go on pass after pass
        pools.matches.create_match(meta["game"], meta["options"], None, entry["seats"],
                                   rated=True, match_id=entry["id"],
                                   accepted=[s["account"] for s in entry["seats"]])
        pools.store.created(pool, entry["id"])
    while (found := pools.run(pool, meta)) > 0:
        made += found
    seconds = time.perf_counter() - started
    left = pools.store.waiting_counts([pool])[0]
    return {"backlog": before, "matched": before - left, "matches": made,
            "matches_per_s": round(made / seconds, 1),
            "seconds": round(seconds, 3),
            "people_per_s": round((before - left) / seconds, 1),
            "first_pass_script_ms": round(script_seconds * 1000, 2),
            "first_pass_waiting": min(before, rules.scan)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rate", type=float, default=10.0, help="joins a second")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--spread", type=float, default=4.0, help="rating stddev (mu)")
    parser.add_argument("--grace", type=float, default=60.0,
                        help="seconds after the last join before the unmatched give up")
    parser.add_argument("--backlog", type=int, default=1000)
    parser.add_argument("--json", type=Path, help="append the record to this file")
    args = parser.parse_args()
    rng = random.Random(41)
    with tempfile.TemporaryDirectory() as tmp, local_stack(
            Path(tmp), ACCOUNTS_PER_MINUTE="0") as stack:
        settings = dataclasses.replace(Settings.from_env(), redis_url=stack.env["REDIS_URL"],
                                       broker_url=stack.env["REDIS_URL"])
        built = services.build(settings)
        people = int(args.rate * args.seconds)
        made = [built.accounts.create(f"pool-{n}-{time.time_ns()}", None) for n in range(people)]
        seed_ratings(built, "savanna", [a["id"] for a, _ in made], args.spread, rng)
        times, unmatched = time_to_match(stack.base, [key for _, key in made], args.rate,
                                         args.grace)
        load = os.getloadavg()[0]
        print(f"time to match, {args.rate:g} joins/s for {args.seconds:g} s "
              f"(ratings N(25, {args.spread:g})): p50 {percentile(times, 0.5):.2f} s, "
              f"p95 {percentile(times, 0.95):.2f} s, max {max(times, default=0):.2f} s; "
              f"{len(times)} matched, {unmatched} unmatched; load {load:.1f}", flush=True)
        through = throughput(built, args.backlog, args.spread, rng)
        print(f"throughput: {through['matched']} of {through['backlog']} waiting matched in "
              f"{through['seconds']} s = {through['people_per_s']} people/s "
              f"({through['matches']} matches created); one pass over "
              f"{through['first_pass_waiting']} waiting: {through['first_pass_script_ms']} ms "
              f"(the script)", flush=True)
    record = {"at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "rate": args.rate,
              "seconds": args.seconds, "spread": args.spread, "people": people,
              "matched": len(times), "unmatched": unmatched,
              "p50": round(percentile(times, 0.5), 3), "p95": round(percentile(times, 0.95), 3),
              "max": round(max(times, default=0.0), 3),
              "mean": round(statistics.fmean(times), 3) if times else None,
              "load": round(load, 2), **{f"throughput_{k}": v for k, v in through.items()}}
    if args.json:
        with open(args.json, "a", encoding="utf-8") as out:
            out.write(json.dumps(record) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
