"""Redis round trips per request path (a pipeline or a script is one): deterministic counts,
not timings, so a change that adds a read shows here at once.

Paths, each measured in steady state (the broker's connection and the store's scripts
already loaded, as in a running server), with the defaults of ``Settings`` (rate limits on,
the broker on the same Redis, so a sent task's ``LPUSH`` counts too):

* ``person's move``: ``POST /v1/matches/{id}/moves`` through the API, a person against a
  bot in two-player Evolution, the move handing the turn to the bot (its task is sent);
* ``bot reply``: the worker's task for one bot move (``shared.bots.turns.play_bot_turn``),
  from its start to its commit, against a person (nothing handed on);
* ``bot reply, handed on``: the same between two bots, so the commit hands the turn on to the
  next bot (its queued mark and its task);
* ``legal moves``: ``GET /v1/matches/{id}/moves`` with a seat token;
* ``view``: ``GET /v1/matches/{id}`` with a seat token;
* ``pull bot's move``: a pull bot's three requests today (``GET /v1/me/turns``, the legal
  moves, the move), each counted, and their sum.

Run: ``.venv/bin/python -m bench.bench_round_trips`` (starts its own redis-server; no
worker: the bot's task is run in this process, as the worker runs it).
``tests/shared/test_round_trips.py`` asserts the bounds (a person's move at most 5, a bot
reply at most 6).
"""

from __future__ import annotations

import dataclasses
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from api import create_app
from bench.round_trips import RoundTrips
from scripts.localredis import free_port, start_redis
from shared.bots import turns
from shared.bots.turn_budget import TurnBudget
from shared.bots.webhooks import WebhookPolicy
from shared.infra.config import Settings
from shared.matches.service import MatchService

#: The most a path may cost (the issue's targets); the test asserts them.
BOUNDS = {"person's move": 5, "bot reply": 6, "bot reply, handed on": 6}
GAME = "evolution"  # two players take turns: each person's move hands the turn to the bot
RANDOM_BOT = {"kind": "bot", "bot": {"kind": "random"}}


def counted(call: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[int, Any]:
    """The round trips ``call(*args, **kwargs)`` costs in this thread, and its answer."""
    with RoundTrips() as trips:
        out = call(*args, **kwargs)
    return trips.count, out


def make_app(redis_url: str) -> Flask:
    """The API with the default settings on ``redis_url`` (the broker there too), but no
    limit on creating matches and accounts (the bench creates many; the moves' limits,
    which the counted paths pay, stay on)."""
    settings = dataclasses.replace(Settings.from_env(), redis_url=redis_url,
                                   broker_url=redis_url, matches_per_minute=0,
                                   accounts_per_minute=0, bot_seats_per_client=0)
    return create_app(settings)


def bot_move(service: MatchService, settings: Settings, match_id: str, seat: int,
             version: int) -> str:
    """What the worker's ``evo.play_bot_turn`` task runs (``worker.tasks``)."""
    return turns.play_bot_turn(service, match_id, seat, version, settings.bot_lease_seconds,
                               WebhookPolicy((), settings.webhook_default_timeout),
                               TurnBudget(settings.turn_budget_seconds))


class Paths:
    """One app on one Redis; each method counts one path."""

    def __init__(self, redis_url: str) -> None:
        self.app = make_app(redis_url)
        self.http: FlaskClient = self.app.test_client()
        self.settings: Settings = self.app.extensions["evo.settings"]
        self.service: MatchService = self.app.extensions["evo.service"]
        self.seed = 0

    def _create(self, seats: list[dict[str, Any]], headers: dict[str, str] | None = None
                ) -> dict[str, Any]:
        """A new match; ``headers`` carry the key of an account seated in it (its seat is
        then taken at once, not an invitation)."""
        self.seed += 1
        created = self.http.post("/v1/matches", headers=headers or {},
                                 json={"game": GAME, "seed": self.seed, "seats": seats})
        assert created.status_code == 201, created.get_json()
        return created.get_json()

    def _person_to_move(self) -> tuple[str, dict[str, str], dict[str, Any]]:
        """A match (a person, seat 0, against a bot) where the person's first legal move
        hands the turn to the bot, and those legal moves."""
        for _ in range(50):
            match = self._create([{"kind": "human"}, RANDOM_BOT])
            auth = {"Authorization": f"Bearer {match['tokens'][0]['token']}"}
            while 0 not in match["to_move"] and match["status"] == "running":
                self._bot_plays(match["id"], 1, match["version"])
                match = self.http.get(f"/v1/matches/{match['id']}", headers=auth).get_json()
            moves = self.http.get(f"/v1/matches/{match['id']}/moves", headers=auth).get_json()
            if moves["moves"]:
                return match["id"], auth, moves
        raise AssertionError("no match with the person to move")

    def _bot_plays(self, match_id: str, seat: int, version: int) -> str:
        return bot_move(self.service, self.settings, match_id, seat, version)

    def warm_up(self) -> None:
        """One of each path uncounted: the broker's connection, the scripts' SHA1s."""
        self.person_move()
        self.bot_reply()
        self.bot_reply_handed_on()
        self.pull_bot_move()

    def person_move(self) -> int:
        """A person's move handing the turn to the bot (its task is sent)."""
        for _ in range(50):
            match_id, auth, moves = self._person_to_move()
            trips, answer = counted(
                self.http.post, f"/v1/matches/{match_id}/moves", headers=auth,
                json={"version": moves["version"], "move_id": moves["moves"][0]["id"]})
            assert answer.status_code == 200, answer.get_json()
            if answer.get_json()["to_move"] == [1]:
                return trips
        raise AssertionError("no move handed the turn to the bot")

    def bot_reply(self) -> int:
        """The bot's task answering a person's move (nothing to hand on)."""
        for _ in range(50):
            match_id, auth, moves = self._person_to_move()
            answer = self.http.post(f"/v1/matches/{match_id}/moves", headers=auth, json={
                "version": moves["version"], "move_id": moves["moves"][0]["id"]}).get_json()
            if answer["to_move"] != [1]:
                continue
            trips, outcome = counted(self._bot_plays, match_id, 1, answer["version"])
            assert outcome == "played", outcome
            after = self.service.load(match_id)
            if not self.service.bot_seats_due(after):
                return trips
        raise AssertionError("no bot reply handed the turn back to the person")

    def bot_reply_handed_on(self) -> int:
        """A bot's task whose move hands the turn to the other bot."""
        for _ in range(50):
            match = self._create([RANDOM_BOT, RANDOM_BOT])
            seat = match["to_move"][0]
            trips, outcome = counted(self._bot_plays, match["id"], seat, match["version"])
            assert outcome == "played", outcome
            after = self.service.load(match["id"])
            if self.service.bot_seats_due(after) and after.to_move != [seat]:
                return trips
        raise AssertionError("no bot move handed the turn on")

    def legal_moves(self) -> int:
        match_id, auth, _ = self._person_to_move()
        trips, answer = counted(self.http.get, f"/v1/matches/{match_id}/moves", headers=auth)
        assert answer.status_code == 200
        return trips

    def view(self) -> int:
        match_id, auth, _ = self._person_to_move()
        trips, answer = counted(self.http.get, f"/v1/matches/{match_id}", headers=auth)
        assert answer.status_code == 200
        return trips

    def pull_bot_move(self) -> dict[str, int]:
        """A pull bot's move as its requests are today: its turns, its legal moves, its
        move (each counted)."""
        account = self.http.post("/v1/accounts", json={"name": f"pull-{self.seed}"})
        assert account.status_code == 201, account.get_json()
        auth = {"Authorization": f"Bearer {account.get_json()['key']}"}
        for _ in range(50):
            match = self._create([{"kind": "account", "account": account.get_json()["id"]},
                                  RANDOM_BOT], headers=auth)
            while 0 not in match["to_move"] and match["status"] == "running":
                self._bot_plays(match["id"], 1, match["version"])
                match = self.http.get(f"/v1/matches/{match['id']}").get_json()
            url = f"/v1/matches/{match['id']}/moves"
            turns_trips, listed_turns = counted(self.http.get, "/v1/me/turns", headers=auth)
            assert listed_turns.status_code == 200
            moves_trips, moves = counted(self.http.get, url, headers=auth)
            listed = moves.get_json()
            if not listed["moves"]:
                continue
            move_trips, answer = counted(self.http.post, url, headers=auth, json={
                "version": listed["version"], "move_id": listed["moves"][0]["id"]})
            assert answer.status_code == 200, answer.get_json()
            return {"turns": turns_trips, "legal moves": moves_trips, "move": move_trips,
                    "total": turns_trips + moves_trips + move_trips}
        raise AssertionError("no pull bot's turn found")

    def all(self) -> dict[str, Any]:
        self.warm_up()
        return {"person's move": self.person_move(), "bot reply": self.bot_reply(),
                "bot reply, handed on": self.bot_reply_handed_on(),
                "legal moves": self.legal_moves(), "view": self.view(),
                "pull bot's move": self.pull_bot_move()}


def main() -> int:
    with tempfile.TemporaryDirectory() as data:
        port = free_port()
        process = start_redis(Path(data), port, appendonly=False)
        try:
            figures = Paths(f"redis://127.0.0.1:{port}/0").all()
        finally:
            process.terminate()
            process.wait(timeout=10)
    print("Redis round trips per path (a pipeline or a script is one):")
    over = 0
    for path, count in figures.items():
        if isinstance(count, dict):
            parts = ", ".join(f"{name} {n}" for name, n in count.items() if name != "total")
            print(f"  {path:<22} {count['total']:>3}   ({parts})")
            continue
        bound = BOUNDS.get(path)
        over |= bound is not None and count > bound
        print(f"  {path:<22} {count:>3}" + ("" if bound is None else f"   (at most {bound})"))
    return int(over)


if __name__ == "__main__":
    sys.exit(main())
