"""Scaling: accepted moves/s with 1 and 2 API processes, bot moves/s with 1 and 2 worker
processes, on a single Redis and on a Redis Cluster (3 masters, 3 replicas, writes waiting for
a replica), the broker always on a Redis of its own.

Human load: ``--clients`` gevent clients, each playing both seats of its own two-person
Savanna match, every request to the next API process in turn. Bot load: ``--bot-matches``
four-bot (``random``) Savanna matches; bot moves are counted by the worker's own counter
(``evo:stats``). Each API process is gunicorn with one gevent worker, each worker process
Celery with one pool process, so "2" means twice the processes. The load average of the
machine is printed beside every figure: on a shared machine the ratios mean little without it.

    python -m bench.bench_scale --seconds 10
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402
import os  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from contextlib import contextmanager  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import IO  # noqa: E402

import gevent  # noqa: E402
import requests  # noqa: E402

from scripts.localcluster import start_cluster  # noqa: E402
from scripts.localredis import free_port, start_redis  # noqa: E402
from scripts.stack import UNLIMITED, start_api, start_worker, wait_healthy  # noqa: E402
from shared.infra import stats  # noqa: E402
from shared.infra.redis_client import RedisClient, connect  # noqa: E402


@contextmanager
def store(kind: str, tmp: Path, replica_acks: int) -> Iterator[tuple[dict[str, str], RedisClient]]:
    """The match store and a broker of its own: (environment, store client)."""
    broker_port = free_port()
    broker = start_redis(tmp / "broker", broker_port, appendonly=False)
    env = dict(os.environ, BROKER_URL=f"redis://127.0.0.1:{broker_port}/0", **UNLIMITED)
    try:
        if kind == "cluster":
            cluster = start_cluster(tmp / "cluster")
            env.update(REDIS_CLUSTER_NODES=cluster.nodes, REDIS_REPLICA_ACKS=str(replica_acks))
            try:
                yield env, connect("", cluster.nodes)
            finally:
                cluster.stop()
        else:
            port = free_port()
            single = start_redis(tmp / "redis", port, appendonly=False)
            env["REDIS_URL"] = f"redis://127.0.0.1:{port}/0"
            try:
                yield env, connect(env["REDIS_URL"])
            finally:
                single.terminate()
                single.wait(timeout=10)
    finally:
        broker.terminate()
        broker.wait(timeout=10)


@contextmanager
def processes(env: dict[str, str], apis: int, workers: int, log: IO[bytes]
              ) -> Iterator[list[str]]:
    """``apis`` API processes and ``workers`` worker processes; yields the API URLs."""
    started: list[subprocess.Popen[bytes]] = []
    urls = []
    try:
        for _ in range(apis):
            port = free_port()
            api = start_api(env, f"127.0.0.1:{port}", log, workers=1, own_session=True)
            started.append(api)
            urls.append(f"http://127.0.0.1:{port}")
        started += [start_worker(env, None, log, concurrency=1, own_session=True)
                    for _ in range(workers)]
        for url, api in zip(urls, started, strict=False):
            wait_healthy(url, api)
        yield urls
    finally:
        for process in started:
            os.killpg(process.pid, signal.SIGKILL)
        for process in started:
            process.wait(timeout=10)


def human_client(urls: list[str], stop_at: float, accepted: list[int], index: int) -> None:
    http = requests.Session()
    turn = index
    while time.monotonic() < stop_at:
        turn += 1
        created = http.post(f"{urls[turn % len(urls)]}/v1/matches", json={
            "game": "savanna", "seed": index, "seats": [{"kind": "human"}] * 2}).json()
        tokens = [t["token"] for t in created["tokens"]]
        status = created["status"]
        while status != "finished" and time.monotonic() < stop_at:
            for token in tokens:
                auth = {"Authorization": f"Bearer {token}"}
                turn += 1
                moves = http.get(f"{urls[turn % len(urls)]}/v1/matches/{created['id']}/moves",
                                 headers=auth).json()
                if not moves["moves"]:
                    status = moves["status"]
                    continue
                turn += 1
                answer = http.post(f"{urls[turn % len(urls)]}/v1/matches/{created['id']}/moves",
                                   headers=auth, json={"version": moves["version"],
                                                       "move_id": moves["moves"][0]["id"]})
                if answer.status_code == 200:
                    accepted[0] += 1
                    status = answer.json()["status"]


def human_moves_per_s(urls: list[str], clients: int, seconds: float) -> float:
    accepted = [0]
    stop_at = time.monotonic() + seconds
    gevent.joinall([gevent.spawn(human_client, urls, stop_at, accepted, i)
                    for i in range(clients)])
    return accepted[0] / seconds


def bot_moves_per_s(urls: list[str], client: RedisClient, matches: int, seconds: float
                    ) -> float:
    bot = {"kind": "bot", "bot": {"kind": "random"}}
    for n in range(matches):
        response = requests.post(f"{urls[n % len(urls)]}/v1/matches",
                                 json={"game": "savanna", "seed": n, "seats": [bot] * 4})
        response.raise_for_status()
    time.sleep(2)  # the queue fills and the workers warm up
    before = stats.read(client).get("bot_moves", 0)
    time.sleep(seconds)
    return (stats.read(client).get("bot_moves", 0) - before) / seconds


def load() -> str:
    return "load average " + " / ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--bot-matches", type=int, default=24)
    parser.add_argument("--stores", nargs="+", default=["single", "cluster"])
    parser.add_argument("--replica-acks", type=int, default=1)
    args = parser.parse_args()
    for kind in args.stores:
        human: dict[int, float] = {}
        bots: dict[int, float] = {}
        with tempfile.TemporaryDirectory() as tmp, \
                open(Path(tmp) / "stack.log", "wb") as log, \
                store(kind, Path(tmp), args.replica_acks) as (env, client):
            for apis in (1, 2):
                with processes(env, apis, 1, log) as urls:
                    human[apis] = human_moves_per_s(urls, args.clients, args.seconds)
                print(f"{kind:7} {apis} API process(es): {human[apis]:7.1f} accepted moves/s "
                      f"({args.clients} clients; {load()})", flush=True)
            for workers in (1, 2):
                client.flushall()  # a fresh store and queue: no earlier phase's bots
                connect(env["BROKER_URL"]).flushdb()
                with processes(env, 1, workers, log) as urls:
                    bots[workers] = bot_moves_per_s(urls, client, args.bot_matches,
                                                    args.seconds)
                print(f"{kind:7} {workers} worker process(es): {bots[workers]:7.1f} bot "
                      f"moves/s ({args.bot_matches} four-bot matches; {load()})", flush=True)
            client.close()
        print(f"{kind:7} scaling: API x{human[2] / max(human[1], 1e-9):.2f}, "
              f"workers x{bots[2] / max(bots[1], 1e-9):.2f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
