"""``make run``: start Redis (unless ``REDIS_URL`` is set), the API under gunicorn, the Celery
workers of people's matches (``BOT_WORKERS``, default 1) and of tournaments, and Celery beat
as its own process (exactly one scheduler of the sweeps however many workers run), all under
a supervisor that restarts whatever dies, with back-off. Ctrl-C stops them all.

``EVO_VAR`` moves the data directory (default ``var/``); the supervisor keeps the children's
pids in ``$EVO_VAR/supervisor.json``.

Everything serves at once. The workers run the compiled build of the engines and the search
(``shared/infra/accel.py``) when there is one for these sources; on a first start there is
none, so they start on the plain sources while the build runs in the background at the
lowest priority (its output in ``$EVO_VAR/accel-build.log``), and once it is ready the
workers are replaced gracefully by workers on it. One line says which:
"worker runs the plain sources; compiled build in progress", then "compiled build ready:
workers restarted on it" (or "no compiled build: plain sources" if it fails). ``EVO_ACCEL_BUILD``
replaces the build's command (``0``: no build; the tests use a slow stand-in).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

from scripts.localredis import start_redis
from scripts.stack import ROOT, start_api, start_beat, start_worker
from scripts.supervise import Child, Job, Supervisor
from shared.infra import accel
from shared.infra.queue import TOURNAMENT_QUEUE

#: The command of the background build, replacing ``python -m shared.infra.accel build``.
BUILD_COMMAND = "EVO_ACCEL_BUILD"
#: The build takes only the CPU that the stack (and anyone else) leaves.
BUILD_NICE = 19


def say(line: str) -> None:
    print(line, flush=True)  # flushed: the tests and the operator read it as it happens


def start_build(env: dict[str, str], var: Path, supervisor: Supervisor,
                workers: list[Child]) -> Path | None:
    """Run the workers on the compiled build: at once if it is built for these sources, else
    once the build made here in the background is ready (:meth:`Supervisor.replace`).

    Returns the folder the background build fills until it is complete, if one was started:
    a build stopped with the stack leaves it behind (``accel.build`` names it by its pid)."""
    if env.get(accel.SWITCH, "1") == "0":
        say(f"no compiled build: plain sources ({accel.SWITCH}=0)")
        return None
    target = accel.build_dir()
    if (target / accel.MANIFEST).exists():
        say(f"compiled build ready: workers run {target}")
        return None
    command = env.get(BUILD_COMMAND, "").strip()
    if command == "0":
        say(f"no compiled build: plain sources ({BUILD_COMMAND}=0)")
        return None
    args = shlex.split(command) or [sys.executable, "-m", "shared.infra.accel", "build",
                                    "--nice", str(BUILD_NICE)]
    log_path = var / "accel-build.log"
    started = time.monotonic()
    try:
        with open(log_path, "wb") as log:  # the child has its own copy of the descriptor
            process = subprocess.Popen(args, cwd=ROOT, env=env, stdout=log,
                                       stderr=subprocess.STDOUT, start_new_session=True)
    except OSError as error:  # e.g. a stand-in command that does not exist
        say(f"no compiled build: plain sources (the build did not start: {error})")
        return None
    say(f"worker runs the plain sources; compiled build in progress (log: {log_path})")

    def done(code: int) -> None:
        if code == 0 and (target / accel.MANIFEST).exists():
            for worker in workers:
                supervisor.replace(worker)
            say(f"compiled build ready: workers restarted on it (built in "
                f"{time.monotonic() - started:.0f} s)")
        else:
            say(f"no compiled build: plain sources (the build exited with {code}; "
                f"see {log_path})")

    supervisor.add_job(Job("compiled build", process, done))
    return target.parent / f"{target.name}.tmp{process.pid}"


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
    host = env.get("HOST", "0.0.0.0")  # the API's address (the tests keep to the loopback)
    concurrency = int(env.get("WORKER_CONCURRENCY", 2))
    children.append(Child("api", lambda: start_api(env, f"{host}:{port}", own_session=True)))
    workers = [Child(f"worker-{index}", lambda: start_worker(
        env, None, concurrency=concurrency, own_session=True))
        for index in range(int(env.get("BOT_WORKERS", 1)))]
    workers.append(Child("tournament worker", lambda: start_worker(
        env, None, concurrency=int(env.get("TOURNAMENT_CONCURRENCY", concurrency)),
        queue=TOURNAMENT_QUEUE, own_session=True)))
    children += workers
    children.append(Child("beat", lambda: start_beat(env, var / "celerybeat-schedule",
                                                     own_session=True)))
    supervisor = Supervisor(children, var / "supervisor.json")
    supervisor.start()
    say(f"Evo Arena: API on http://127.0.0.1:{port} (docs at /docs); Ctrl-C stops it.")
    partial = start_build(env, var, supervisor, workers)
    supervisor.run()
    if partial is not None:  # a build stopped half-way; a finished one has renamed it
        shutil.rmtree(partial, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
