"""Resigning and abandoning through the real stack (gunicorn, Celery worker and its sweeps,
Redis), issue 40: the worker's fallback plays a resigned seat to the end, and its deadline
sweep abandons a person's seat idle past ``HUMAN_IDLE_SECONDS`` (2 s here), which ends a
match left to its bot and frees that bot's seat in the client's cap."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from tests.integration.conftest import Client, Worker, running_api, stack_env

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("integration")]


def test_the_worker_plays_a_resigned_seat_to_the_end(client: Client, worker: Worker) -> None:
    match = client.create({"game": "savanna", "seed": 5, "seats": [
        {"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": {"kind": "random"}}]})
    keys = {t["seat"]: t["token"] for t in match["tokens"]}
    left = client.call("POST", f"/v1/matches/{match['id']}/resign", keys[0])
    assert left.status_code == 200, left.text
    assert left.json()["status"] == "running" and left.json()["resigned"] == [0]
    again = client.call("POST", f"/v1/matches/{match['id']}/resign", keys[0])
    assert again.status_code == 409 and "already left" in again.json()["detail"]
    rng = random.Random(3)
    deadline = time.monotonic() + 120
    state = client.match(match["id"], keys[1])
    while state["status"] == "running":
        assert time.monotonic() < deadline, f"stuck at v{state['version']}"
        if 1 in state["to_move"]:
            legal = client.call("GET", f"/v1/matches/{match['id']}/moves", keys[1]).json()
            if legal["moves"]:
                client.call("POST", f"/v1/matches/{match['id']}/moves", keys[1], json={
                    "version": legal["version"],
                    "move_id": rng.choice(legal["moves"])["id"]})
        state = client.match(match["id"], keys[1], version=state["version"], wait=2)
    assert state["status"] == "finished"
    assert state["result"]["ranking"][0] == 3 and state["result"]["details"]["resigned"] == [0]
    log = client.call("GET", f"/v1/matches/{match['id']}/events").json()["events"]
    fallback = [e for e in log if e.get("seat") == 0 and "move" in e]
    assert fallback and all(e["bot"]["kind"] == "random" for e in fallback)


def test_idle_people_are_abandoned_and_their_bot_seats_freed(
        redis_url: str, worker: Worker, tmp_path: Path) -> None:
    env = stack_env(redis_url)
    env.update(HUMAN_IDLE_SECONDS="2", BOT_SEATS_PER_CLIENT="2")
    seats = [{"kind": "human"}, {"kind": "bot", "bot": {"kind": "random"}}]
    with running_api(env, tmp_path, workers=1) as url, Client(url) as client:
        made = [client.create({"game": "savanna", "seats": seats}) for _ in range(2)]
        refused = client.call("POST", "/v1/matches", json={"game": "savanna", "seats": seats})
        assert refused.status_code == 429, refused.text
        # Nobody moves: the worker's deadline sweep (every second) abandons both people.
        for match in made:
            ended = client.wait_finished(match["id"], 30)
            assert ended["resigned"] == [0] and ended["result"]["winners"] == [1]
            log = client.call("GET", f"/v1/matches/{match['id']}/events").json()["events"]
            assert log[-1]["events"][0] == {"type": "resigned", "seat": 0, "reason": "idle",
                                            "ends_match": True}
        again = client.call("POST", "/v1/matches", json={"game": "savanna", "seats": seats})
        assert again.status_code == 201, again.text
