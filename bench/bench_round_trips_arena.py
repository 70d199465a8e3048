"""Redis round trips of the arena's paths: a pull bot's move and an idle tournament tick.

Starts its own redis-server and plays through the API in this process (Flask's test client,
the production settings but for the broker, which is the same Redis), counting this thread's
round trips with :class:`bench.round_trips.RoundTrips` (a pipeline is one):

* ``pull bot move``: an account bot's move as a third party writes it, from asking for its
  turns to its accepted move (the HTTP requests and the round trips of all of them), averaged
  over the moves of a match between two pull bots, per game;
* ``idle tick, N running``: a tournament's scheduler step with ``N`` running matches and no
  news (the periodic sweep's tick), for 1 and 8 running matches.

Run from the repository root: ``.venv/bin/python -m bench.bench_round_trips_arena``.

Measured when the turns answer gained the view and legal moves (issue 38): a pull bot's move
was 3 requests and 17 round trips (turns, its legal moves, the move), now 2 and 8 (the
turns 2: the account's matches, then the matches; the move 6: its read, two rate-limit
counters, the commit's 3; the key's account id is read at the bot's first request only); an
idle tick was 12 round trips with 1 running match and 26 with 8, now 5 with either.
"""

from __future__ import annotations

import dataclasses
import random
import statistics
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from api import create_app
from bench.round_trips import RoundTrips
from scripts.localredis import free_port, start_redis
from shared.infra.config import Settings

GAMES = ("savanna", "darwinning")  # a simultaneous game and a sequential one


@contextmanager
def redis_server() -> Iterator[str]:
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        process = start_redis(Path(tmp), port, appendonly=False)
        try:
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            process.terminate()
            process.wait(timeout=10)


def make_app(redis_url: str) -> Flask:
    settings = dataclasses.replace(Settings.from_env(), redis_url=redis_url,
                                   broker_url=redis_url)
    return create_app(settings)


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def new_account(client: FlaskClient, name: str) -> dict[str, Any]:
    response = client.post("/v1/accounts", json={"name": name})
    assert response.status_code == 201, response.get_data(as_text=True)
    account: dict[str, Any] = response.get_json()
    return account


def pull_move(client: FlaskClient, key: str, rng: random.Random) -> tuple[int, int, int]:
    """One pull bot's move, the way the turns answer lets a bot make it: (requests, round
    trips, status of the move). A turn without its moves (an older server) costs a GET of
    the legal moves too."""
    requests, status = 0, 0
    with RoundTrips() as trips:
        turns = client.get("/v1/me/turns", headers=bearer(key)).get_json()["turns"]
        requests += 1
        if turns:
            turn = turns[0]
            url = f"/v1/matches/{turn['match']}/moves"
            moves, version = turn.get("moves"), turn["version"]
            if moves is None:
                listed = client.get(url, headers=bearer(key)).get_json()
                moves, version = listed["moves"], listed["version"]
                requests += 1
            answer = client.post(url, headers=bearer(key),
                                 json={"version": version, "move_id": rng.choice(moves)["id"]})
            requests += 1
            status = answer.status_code
    return requests, trips.count, status


def pull_bot_match(client: FlaskClient, game: str, seed: int) -> list[tuple[int, int, int]]:
    """A match between two pull bots, each move measured; the bots take turns asking."""
    keys = []
    seats = []
    for index in range(2):
        account = new_account(client, f"puller-{game}-{seed}-{index}")
        keys.append(account["key"])
        seats.append({"kind": "account", "account": account["id"]})
    # Created with the first bot's key (its seat taken), then the second accepts its
    # invitation: an account is seated only with its consent.
    created = client.post("/v1/matches", json={"game": game, "seats": seats, "seed": seed},
                          headers={"Authorization": f"Bearer {keys[0]}"})
    assert created.status_code == 201, created.get_data(as_text=True)
    match_id = created.get_json()["id"]
    accepted = client.post(f"/v1/me/invitations/match-{match_id}/accept",
                           headers={"Authorization": f"Bearer {keys[1]}"})
    assert accepted.status_code == 200, accepted.get_data(as_text=True)
    rng, out = random.Random(seed), []
    for _ in range(2000):
        for key in keys:
            requests, count, status = pull_move(client, key, rng)
            if status:
                out.append((requests, count, status))
        if client.get(f"/v1/matches/{match_id}").get_json()["status"] != "running":
            return out
    raise AssertionError("the match did not end")


def idle_tick(redis_url: str, running: int) -> int:
    """Round trips of a tournament tick with ``running`` matches running and no news."""
    from shared import services  # the worker's composition, as the tick task builds it

    settings = dataclasses.replace(Settings.from_env(), redis_url=redis_url,
                                   broker_url=redis_url)
    built = services.build(settings)
    tournaments = built.tournaments
    tournaments.start = lambda _tid: None  # no worker here: the bench ticks it itself
    entrants = [{"bot": {"kind": "random"}} for _ in range(running * 2)]
    meta = tournaments.create({"game": "savanna", "format": "round_robin", "seats": 2,
                               "entrants": entrants, "rounds": 1, "seed": 1,
                               "move_deadline": 10.0, "forfeit_after": 3,
                               "concurrency": running})
    tournaments.tick(meta["id"])  # starts the matches (nobody plays them here)
    tournaments.tick(meta["id"])
    with RoundTrips() as trips:
        tournaments.tick(meta["id"])
    assert tournaments.describe(meta["id"])["progress"]["running"] == running
    return trips.count


def main() -> int:
    with redis_server() as url:
        app = make_app(url)
        with app.test_client() as client:
            for game in GAMES:
                rows = [row for seed in (1, 2) for row in pull_bot_match(client, game, seed)]
                conflicts = sum(status == 409 for _, _, status in rows)
                print(f"pull bot move, {game}: {len(rows)} moves, HTTP requests "
                      f"{statistics.mean(r for r, _, _ in rows):.2f} mean, "
                      f"round trips {statistics.mean(c for _, c, _ in rows):.2f} mean / "
                      f"{max(c for _, c, _ in rows)} max, {conflicts} refused (409)")
        for running in (1, 8):
            print(f"idle tick, {running} running: {idle_tick(url, running)} round trips")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
