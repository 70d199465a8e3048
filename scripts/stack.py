"""Starting the API (gunicorn) and Celery workers as child processes: used by ``make run``,
the integration tests and the benchmarks, so all of them run the same commands."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import requests

from scripts.localredis import free_port, start_redis
from shared.infra.queue import BOT_QUEUE, TOURNAMENT_QUEUE

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
#: ``WORKER_NICE`` of a tournament worker unless the environment sets one: its searches
#: yield the CPU to people's bots on a shared machine (``shared.infra.config.Settings``).
TOURNAMENT_NICE = "10"


def start_api(env: dict[str, str], bind: str, out: IO[bytes] | None = None,
              workers: int | None = None, own_session: bool = False
              ) -> subprocess.Popen[bytes]:
    args = [str(BIN / "gunicorn"), "--config", str(ROOT / "gunicorn.conf.py"), "--bind", bind]
    if workers is not None:
        args += ["--workers", str(workers)]
    return subprocess.Popen([*args, "api.wsgi:app"], cwd=ROOT, env=env, stdout=out,
                            stderr=subprocess.STDOUT if out else None,
                            start_new_session=own_session)


def start_beat(env: dict[str, str], schedule: Path, out: IO[bytes] | None = None,
               own_session: bool = False) -> subprocess.Popen[bytes]:
    """Celery beat on its own: the one scheduler of the periodic sweeps, however many workers
    run (a worker embedding it with ``--beat`` would multiply the sweeps)."""
    args = [str(BIN / "celery"), "-A", "worker.celery_app", "beat", "--schedule", str(schedule),
            "--loglevel", "info"]
    return subprocess.Popen(args, cwd=ROOT, env=env, stdout=out,
                            stderr=subprocess.STDOUT if out else None,
                            start_new_session=own_session)


def start_worker(env: dict[str, str], schedule: Path | None, out: IO[bytes] | None = None,
                 concurrency: int = 2, own_session: bool = False, queue: str = BOT_QUEUE
                 ) -> subprocess.Popen[bytes]:
    """A Celery worker consuming ``queue``; prefork pool. With a ``schedule`` file it embeds
    the beat that sends the periodic sweeps (run exactly one such worker). A tournament
    worker runs niced (``TOURNAMENT_NICE``) unless ``env`` sets ``WORKER_NICE``."""
    if queue == TOURNAMENT_QUEUE:
        env = {"WORKER_NICE": TOURNAMENT_NICE, **env}
    args = [str(BIN / "celery"), "-A", "worker.celery_app", "worker", "--queues", queue,
            "--hostname", f"{queue}-{secrets.token_hex(3)}@%h", "--loglevel", "info",
            "--concurrency", str(concurrency), "--without-gossip", "--without-mingle"]
    if schedule is not None:
        args += ["--beat", "--schedule", str(schedule)]
    return subprocess.Popen(args, cwd=ROOT, env=env, stdout=out,
                            stderr=subprocess.STDOUT if out else None,
                            start_new_session=own_session)


def wait_healthy(url: str, process: subprocess.Popen[bytes], timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            if requests.get(f"{url}/healthz", timeout=1).status_code == 200:
                return
        except requests.RequestException:  # not listening yet, or too busy to answer in 1 s
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.terminate()  # gunicorn's master takes its workers down with it
            process.wait(timeout=15)
            raise RuntimeError(f"the API at {url} did not start")
        time.sleep(0.1)


# A benchmark measures the server, not its rate limits (0: unlimited).
UNLIMITED = {"MATCHES_PER_MINUTE": "0", "JOINS_PER_MINUTE": "0", "MOVES_PER_MINUTE": "0",
             "BOT_SEATS_PER_CLIENT": "0"}


@dataclass
class LocalStack:
    """A throwaway stack for a benchmark: its API URL, environment and shared log file."""

    base: str
    env: dict[str, str]
    log: IO[bytes]


@contextmanager
def local_stack(tmp: Path, **env: str) -> Iterator[LocalStack]:
    """Redis (AOF on), the API and the worker of people's matches on free ports, in ``tmp``;
    ``env`` adds settings. Everything is stopped on exit."""
    redis_port, api_port = free_port(), free_port()
    redis = start_redis(tmp / "redis", redis_port, appendonly=True)
    environment = dict(os.environ, REDIS_URL=f"redis://127.0.0.1:{redis_port}/0",
                       **{**UNLIMITED, **env})
    with open(tmp / "stack.log", "wb") as log:
        api = start_api(environment, f"127.0.0.1:{api_port}", log)
        worker = start_worker(environment, None, log)
        beat = start_beat(environment, tmp / "beat", log)
        base = f"http://127.0.0.1:{api_port}"
        try:
            wait_healthy(base, api)
            yield LocalStack(base, environment, log)
        finally:
            for process in (beat, worker, api, redis):
                process.terminate()
                process.wait(timeout=30)
