"""``make run``: start Redis (unless ``REDIS_URL`` is set), the API under gunicorn, the Celery
workers of people's matches (``BOT_WORKERS``, default 1) and of tournaments, and Celery beat
as its own process (exactly one scheduler of the sweeps however many workers run), all under
a supervisor that restarts whatever dies, with back-off. Ctrl-C stops them all.

``EVO_VAR`` moves the data directory (default ``var/``); the supervisor keeps the children's
pids in ``$EVO_VAR/supervisor.json``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from scripts.localredis import start_redis
from scripts.stack import ROOT, start_api, start_beat, start_worker
from scripts.supervise import Child, Supervisor
from shared.infra.queue import TOURNAMENT_QUEUE


def main() -> int:
    env = dict(os.environ)
    var = Path(env.get("EVO_VAR", ROOT / "var"))
    var.mkdir(parents=True, exist_ok=True)
    children: list[Child] = []
    if "REDIS_URL" not in env:
        redis_port = int(env.get("REDIS_PORT", 6379))
        maxmemory = env.get("REDIS_MAXMEMORY", "512mb")
        print(f"starting redis-server on 127.0.0.1:{redis_port} (data in {var / 'redis'}, "
              f"AOF on, maxmemory {maxmemory}, noeviction)")
        children.append(Child("redis", lambda: start_redis(
            var / "redis", redis_port, quiet=False, maxmemory=maxmemory, own_session=True)))
        env["REDIS_URL"] = f"redis://127.0.0.1:{redis_port}/0"
    if env.get("REDIS_CLUSTER_NODES") and "BROKER_URL" not in env:
        # The matches live on the cluster; the local Redis (or REDIS_URL) is the broker only.
        env["BROKER_URL"] = env["REDIS_URL"]
    port = env.get("PORT", "8000")
    concurrency = int(env.get("WORKER_CONCURRENCY", 2))
    children.append(Child("api", lambda: start_api(env, f"0.0.0.0:{port}", own_session=True)))
    for index in range(int(env.get("BOT_WORKERS", 1))):
        children.append(Child(f"worker-{index}", lambda: start_worker(
            env, None, concurrency=concurrency, own_session=True)))
    children.append(Child("tournament worker", lambda: start_worker(
        env, None, concurrency=int(env.get("TOURNAMENT_CONCURRENCY", concurrency)),
        queue=TOURNAMENT_QUEUE, own_session=True)))
    children.append(Child("beat", lambda: start_beat(env, var / "celerybeat-schedule",
                                                     own_session=True)))
    supervisor = Supervisor(children, var / "supervisor.json")
    supervisor.start()
    print(f"Evo Arena: API on http://127.0.0.1:{port} (docs at /docs); Ctrl-C stops it.")
    supervisor.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
