"""Response sizes with and without gzip, and the 304 rate of a polling client.

Starts its own redis-server, gunicorn and Celery worker on free ports. Measures, over real
HTTP: the final event log of a 6-player Evolution match of random bots, a seat's view and the
spectator's view of it, and of a 4-player Savanna match, each as plain JSON and gzipped. Then a
person (a seat that "thinks" ``--think`` seconds per move) plays Savanna against three random
bots while a second client polls the match ``--hz`` times a second with ``If-None-Match``:
how many polls were a bodiless 304, and the bytes it downloaded against polling without
ETags.
Run: ``.venv/bin/python -m bench.bench_compact --think 1 --hz 2``.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import requests

from scripts.localredis import free_port, start_redis
from scripts.stack import start_api, start_worker, wait_healthy

RANDOM_BOT = {"kind": "bot", "bot": {"kind": "random"}}


def wire_size(http: requests.Session, url: str, gzip: bool, token: str | None = None) -> int:
    """Bytes of the body as sent (before any decompression)."""
    headers = {"Accept-Encoding": "gzip" if gzip else "identity"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    response = http.get(url, headers=headers, stream=True)
    return len(response.raw.read(decode_content=False))


def finish(http: requests.Session, base: str, match: dict[str, Any]) -> dict[str, Any]:
    while match["status"] != "finished":
        match = http.get(f"{base}/v1/matches/{match['id']}",
                         params={"version": match["version"], "wait": 30}).json()
    return match


def sizes(http: requests.Session, base: str, game: str, players: int, seed: int) -> None:
    seats = [{"kind": "human"}] + [RANDOM_BOT] * (players - 1)
    created = http.post(f"{base}/v1/matches", json={"game": game, "seed": seed,
                                                    "seats": seats}).json()
    token = created["tokens"][0]["token"]
    url = f"{base}/v1/matches/{created['id']}"
    # Seat 0 plays its first legal move each turn; the figures are of the finished match.
    match = created
    while match["status"] == "running":
        if 0 in match["to_move"]:
            moves = http.get(f"{url}/moves", headers={"Authorization": f"Bearer {token}"}).json()
            http.post(f"{url}/moves", headers={"Authorization": f"Bearer {token}"},
                      json={"version": moves["version"], "move_id": moves["moves"][0]["id"]})
        match = http.get(url, params={"version": match["version"], "wait": 30}).json()
    for name, path, who in (("seat view", "", token), ("spectator view", "", None),
                            ("event log", "/events", None)):
        plain, packed = (wire_size(http, url + path, z, who) for z in (False, True))
        print(f"{game} {players}p {name:15s} {plain:8d} B plain {packed:7d} B gzip "
              f"({packed / plain:.0%})", flush=True)


def poll_rate(http: requests.Session, base: str, think: float, hz: float, seed: int) -> None:
    created = http.post(f"{base}/v1/matches", json={
        "game": "savanna", "seed": seed, "seats": [{"kind": "human"}] + [RANDOM_BOT] * 3}).json()
    url = f"{base}/v1/matches/{created['id']}"
    token = created["tokens"][0]["token"]
    stats = {"polls": 0, "not_modified": 0, "bytes": 0, "bytes_no_etag": 0}
    done = threading.Event()

    def poller() -> None:
        poll, etag, last_size = requests.Session(), None, 0
        while not done.is_set():
            headers = {"Accept-Encoding": "gzip"} | ({"If-None-Match": etag} if etag else {})
            response = poll.get(url, headers=headers, stream=True)
            body = response.raw.read(decode_content=False)
            stats["polls"] += 1
            if response.status_code == 304:
                stats["not_modified"] += 1
            else:
                etag, last_size = response.headers.get("ETag"), len(body)
            stats["bytes"] += len(body)
            stats["bytes_no_etag"] += last_size
            time.sleep(1 / hz)

    thread = threading.Thread(target=poller)
    thread.start()
    auth = {"Authorization": f"Bearer {token}"}
    match = http.get(url, headers=auth).json()
    started = time.perf_counter()
    while match["status"] == "running":
        if 0 in match["to_move"]:
            time.sleep(think)  # the person decides
            moves = http.get(f"{url}/moves", headers=auth).json()
            http.post(f"{url}/moves", headers=auth,
                      json={"version": moves["version"], "move_id": moves["moves"][0]["id"]})
        match = http.get(url, headers=auth, params={"version": match["version"], "wait": 30}).json()
    done.set()
    thread.join()
    print(f"polling at {hz:g} Hz for {time.perf_counter() - started:.1f} s ({think:g} s per "
          f"move): {stats['polls']} polls, {stats['not_modified']} answered 304 "
          f"({stats['not_modified'] / stats['polls']:.0%}); {stats['bytes']} B downloaded "
          f"against {stats['bytes_no_etag']} B without ETags", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--hz", type=float, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        redis_port, api_port = free_port(), free_port()
        redis = start_redis(Path(tmp) / "redis", redis_port)
        env = dict(os.environ, REDIS_URL=f"redis://127.0.0.1:{redis_port}/0")
        log = open(Path(tmp) / "stack.log", "wb")  # noqa: SIM115 - closed below
        api = start_api(env, f"127.0.0.1:{api_port}", log)
        worker = start_worker(env, Path(tmp) / "beat", log, concurrency=2)
        base = f"http://127.0.0.1:{api_port}"
        try:
            wait_healthy(base, api)
            http = requests.Session()
            sizes(http, base, "evolution", 6, 1)
            sizes(http, base, "savanna", 4, 1)
            poll_rate(http, base, args.think, args.hz, 2)
        finally:
            for process in (worker, api, redis):
                process.terminate()
                process.wait(timeout=20)
            log.close()


if __name__ == "__main__":
    main()
