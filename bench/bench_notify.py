"""Notification delivery latency: from a move's commit to the "your_turn" it causes reaching
the account's notification webhook (docs/notifications.md).

Starts its own redis-server, gunicorn, Celery worker and beat (``scripts.stack``) and a
receiver on loopback (``WEBHOOK_ALLOW=127.0.0.0/8``) that checks each call's signature; two
accounts play 2-player Savanna matches with their keys, one move at a time, each move waiting
for the notification it causes (if any) before the next. Two figures per notification: from
its ``at`` (stamped by the API right after the commit) and from the move request being sent,
to the receiver having read the signed call. Same machine, same clock.
Run: ``.venv/bin/python -m bench.bench_notify --samples 200``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import requests

from bench.bench_latency import percentile
from scripts.stack import local_stack
from shared.bots import signing


class Receiver:
    """Records when each signed "your_turn" (match, seat, version) arrived."""

    def __init__(self) -> None:
        self.secrets: dict[str, str] = {}
        self.arrived: dict[tuple[str, int, int], tuple[float, float]] = {}
        self.bad = 0
        self.changed = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                now = time.time()
                if signing.verify(receiver.secrets.get(self.path, "-"),
                                  self.headers.get(signing.HEADER, ""), body):
                    note = json.loads(body)
                    if note["kind"] == "your_turn":
                        data = note["data"]
                        with receiver.changed:
                            receiver.arrived[(data["match"], data["seat"], data["version"])] = (
                                note["at"], now)
                            receiver.changed.notify_all()
                else:
                    receiver.bad += 1
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"

    def wait(self, key: tuple[str, int, int], seconds: float) -> tuple[float, float]:
        with self.changed:
            if not self.changed.wait_for(lambda: key in self.arrived, seconds):
                raise TimeoutError(f"no your_turn for {key} within {seconds} s")
            return self.arrived[key]


def account(http: requests.Session, base: str, receiver: Receiver, name: str
            ) -> dict[str, Any]:
    made: dict[str, Any] = http.post(f"{base}/v1/accounts", json={"name": name}).json()
    receiver.secrets[f"/{made['id']}"] = made["webhook_secret"]
    http.put(f"{base}/v1/me/notification-webhook", json={"url": receiver.url(f"/{made['id']}")},
             headers={"Authorization": f"Bearer {made['key']}"}).raise_for_status()
    return made


def measure(base: str, receiver: Receiver, samples: int, tag: str
            ) -> tuple[list[float], list[float]]:
    http, from_commit, from_request, n = requests.Session(), [], [], 0
    first, second = (account(http, base, receiver, f"{tag} {side}") for side in ("A", "B"))
    keys = [first["key"], second["key"]]
    while len(from_commit) < samples:
        n += 1
        created = http.post(f"{base}/v1/matches", headers={"Authorization": f"Bearer {keys[0]}"},
                            json={"game": "savanna", "seats": [
                                {"kind": "account", "account": first["id"]},
                                {"kind": "account", "account": second["id"]}]}).json()
        match_id = created["id"]
        http.post(f"{base}/v1/me/invitations/match-{match_id}/accept",
                  headers={"Authorization": f"Bearer {keys[1]}"}).raise_for_status()
        rng, status = random.Random(n), "running"
        to_move = http.get(f"{base}/v1/matches/{match_id}").json()["to_move"]
        while status == "running" and len(from_commit) < samples:
            seat = to_move[0]
            auth = {"Authorization": f"Bearer {keys[seat]}"}
            legal = http.get(f"{base}/v1/matches/{match_id}/moves", headers=auth).json()
            sent = time.time()
            moved = http.post(f"{base}/v1/matches/{match_id}/moves", headers=auth, json={
                "version": legal["version"], "move_id": rng.choice(legal["moves"])["id"]}).json()
            fresh = [s for s in moved["to_move"] if s not in to_move]
            for owing in fresh:
                at, arrived = receiver.wait((match_id, owing, moved["version"]), 60)
                from_commit.append(arrived - at)
                from_request.append(arrived - sent)
            status, to_move = moved["status"], moved["to_move"]
    return from_commit, from_request


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--samples", type=int, default=200)
    args = parser.parse_args()
    receiver = Receiver()
    with tempfile.TemporaryDirectory() as tmp, local_stack(
            Path(tmp), WEBHOOK_ALLOW="127.0.0.0/8") as stack:
        measure(stack.base, receiver, 10, "warm")  # worker pool forks, imports, connections
        commit, request = measure(stack.base, receiver, args.samples, "bench")
    ms = [statistics.median(commit) * 1000, percentile(commit, 0.95) * 1000,
          statistics.median(request) * 1000, percentile(request, 0.95) * 1000]
    print(f"notification delivery ('your_turn', signed, to a receiver on loopback), "
          f"{len(commit)} notifications: from the commit p50 {ms[0]:.1f} ms, p95 {ms[1]:.1f} ms;"
          f" from the move request sent p50 {ms[2]:.1f} ms, p95 {ms[3]:.1f} ms; "
          f"refused signatures {receiver.bad}")


if __name__ == "__main__":
    main()
