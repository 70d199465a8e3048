"""A pull bot as a third party would write one: only HTTP, its account key, random moves.

Run: ``python -m tests.integration.pull_bot <api url> <api key> <tournament id>``; it plays
every turn ``GET /v1/me/turns?wait=`` reports and exits when the tournament is over.
"""

from __future__ import annotations

import random
import sys

import requests


def main(base: str, key: str, tournament_id: str) -> int:
    http = requests.Session()
    http.headers["Authorization"] = f"Bearer {key}"
    rng = random.Random(7)
    played = 0
    while True:
        status = http.get(f"{base}/v1/tournaments/{tournament_id}", timeout=30).json()["status"]
        if status != "running":
            print(f"played {played} moves", flush=True)
            return 0
        turns = http.get(f"{base}/v1/me/turns", params={"wait": 2}, timeout=30).json()["turns"]
        for turn in turns:  # each carries its legal moves and the version to quote
            answer = http.post(f"{base}/v1/matches/{turn['match']}/moves",
                               json={"version": turn["version"],
                                     "move_id": rng.choice(turn["moves"])["id"]}, timeout=30)
            played += answer.status_code == 200


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
