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
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import requests

from bench.bench_latency import percentile
from bench.receiver import Receiver
from scripts.stack import local_stack


def turn_arrival(receiver: Receiver, key: tuple[str, int, int], seconds: float
                 ) -> tuple[float, float]:
    """When the signed "your_turn" of (match, seat, version) was sent and when it arrived."""
    def found() -> tuple[float, float] | None:
        for call in receiver.got:
            note = call["note"]
            if (note and note["kind"] == "your_turn" and (
                    note["data"]["match"], note["data"]["seat"], note["data"]["version"]) == key):
                return note["at"], call["arrived"]
        return None
    arrival: tuple[float, float] = receiver.wait_for(found, seconds)
    return arrival


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
                at, arrived = turn_arrival(receiver, (match_id, owing, moved["version"]), 60)
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
          f"refused signatures {receiver.refused()}")


if __name__ == "__main__":
    main()
