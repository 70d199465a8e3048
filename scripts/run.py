"""``make run``: start Redis (unless ``REDIS_URL`` is set), the API under gunicorn and two Celery
workers on this machine: one for people's matches (with the beat of the sweeps), one for
tournaments, so a person's game never waits behind a tournament. Ctrl-C stops them all."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from scripts.localredis import start_redis
from scripts.stack import ROOT, start_api, start_worker
from shared.queue import TOURNAMENT_QUEUE

VAR = ROOT / "var"


def main() -> int:
    env = dict(os.environ)
    processes: list[tuple[str, subprocess.Popen[bytes]]] = []
    if "REDIS_URL" not in env:
        port = int(env.get("REDIS_PORT", 6379))
        maxmemory = env.get("REDIS_MAXMEMORY", "512mb")
        print(f"starting redis-server on 127.0.0.1:{port} (data in {VAR / 'redis'}, AOF on, "
              f"maxmemory {maxmemory}, noeviction)")
        processes.append(("redis", start_redis(VAR / "redis", port, quiet=False,
                                               maxmemory=maxmemory)))
        env["REDIS_URL"] = f"redis://127.0.0.1:{port}/0"
    port = env.get("PORT", "8000")
    processes.append(("api", start_api(env, f"0.0.0.0:{port}")))
    VAR.mkdir(exist_ok=True)
    concurrency = int(env.get("WORKER_CONCURRENCY", 2))
    processes.append(("worker", start_worker(env, VAR / "celerybeat-schedule",
                                             concurrency=concurrency)))
    processes.append(("tournament worker", start_worker(
        env, None, concurrency=int(env.get("TOURNAMENT_CONCURRENCY", concurrency)),
        queue=TOURNAMENT_QUEUE)))
    print(f"Evo Arena: API on http://127.0.0.1:{port} (docs at /docs); Ctrl-C stops it.")

    stopping = False

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    while not stopping:
        if any(p.poll() is not None for _, p in processes):
            dead = [name for name, p in processes if p.poll() is not None]
            print(f"{', '.join(dead)} exited; stopping the rest", file=sys.stderr)
            break
        time.sleep(0.5)
    # Stop in reverse order (worker and API before Redis) so nothing writes to a dead store.
    for name, process in reversed(processes):
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                print(f"{name} did not stop in 20 s; killing it", file=sys.stderr)
                process.kill()
    return 0 if stopping else 1


if __name__ == "__main__":
    sys.exit(main())
