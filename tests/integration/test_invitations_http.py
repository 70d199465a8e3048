"""Issue 39's exploit on the real stack (gunicorn, the worker and its sweeps): a stranger's rated
match naming a victim, with a 0.2 s deadline, neither starts nor moves the victim's rating
while the worker's deadline sweep runs; once the victim accepts, it plays and is rated. A
stranger's tournament naming the victim neither starts nor renames it."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from tests.integration.conftest import Client, Worker

pytestmark = pytest.mark.integration


def account(client: Client, name: str) -> dict[str, Any]:
    response = client.call("POST", "/v1/accounts", json={"name": name})
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def rating(client: Client, account_id: str) -> dict[str, Any] | None:
    board = client.call("GET", "/v1/games/savanna/leaderboard",
                        params={"limit": 1000}).json()["leaderboard"]
    return next((row for row in board if row["account"] == account_id), None)


def test_a_strangers_rated_match_waits_for_the_victim_then_plays_and_is_rated(
        client: Client, worker: Worker) -> None:
    stranger, victim = account(client, "Stranger 39"), account(client, "Victim 39")
    created = client.call("POST", "/v1/matches", stranger["key"], json={
        "game": "savanna", "rated": True, "move_deadline": 0.2, "seats": [
            {"kind": "account", "account": stranger["id"]},
            {"kind": "account", "account": victim["id"]}]})
    assert created.status_code == 201, created.text
    match = created.json()
    assert match["status"] == "waiting"
    time.sleep(3.5)  # the deadline sweep runs every second: three sweeps past 0.2 s
    still = client.match(match["id"])
    assert (still["status"], still["version"]) == ("waiting", 1)
    assert rating(client, victim["id"]) is None
    assert client.call("GET", "/v1/me/turns", victim["key"]).json()["invitations"][0][
        "match"] == match["id"]

    accepted = client.call("POST", f"/v1/me/invitations/match-{match['id']}/accept",
                           victim["key"])
    assert accepted.status_code == 200 and accepted.json()["status"] == "running"
    keys, rng = [stranger["key"], victim["key"]], random.Random(3)
    deadline = time.monotonic() + 120
    while (now := client.match(match["id"]))["status"] == "running":
        assert time.monotonic() < deadline, "the accepted match did not end"
        for seat in now["to_move"]:  # the sweep plays the seats we are too slow for
            legal = client.call("GET", f"/v1/matches/{match['id']}/moves", keys[seat]).json()
            if legal["moves"]:
                client.call("POST", f"/v1/matches/{match['id']}/moves", keys[seat], json={
                    "version": legal["version"], "move_id": rng.choice(legal["moves"])["id"]})
    assert now["status"] == "finished"
    while (rated := rating(client, victim["id"])) is None:  # the worker rates it
        assert time.monotonic() < deadline, "the finished match was never rated"
        time.sleep(0.2)
    assert rated["matches"] == 1 and rated["name"] == "Victim 39"


def test_a_strangers_tournament_neither_starts_nor_renames_the_victim(
        client: Client, worker: Worker) -> None:
    victim = account(client, "Named 39")
    renamed = client.call("POST", "/v1/tournaments", json={
        "game": "savanna", "format": "round_robin", "move_deadline": 0.2, "entrants": [
            {"account": victim["id"], "name": "renamed by a stranger"},
            {"bot": {"kind": "random"}}]})
    assert renamed.status_code == 422, renamed.text
    created = client.call("POST", "/v1/tournaments", json={
        "game": "savanna", "format": "round_robin", "move_deadline": 0.2, "entrants": [
            {"account": victim["id"]}, {"bot": {"kind": "random"}}]})
    assert created.status_code == 201, created.text
    tournament = created.json()
    time.sleep(4.5)  # the tournament sweep (every 2 s) ticks it twice
    shown = client.call("GET", f"/v1/tournaments/{tournament['id']}").json()
    assert shown["status"] == "waiting" and shown["progress"]["running"] == 0
    matches = client.call("GET", f"/v1/tournaments/{tournament['id']}/matches").json()
    assert all(row["match"] is None for row in matches["matches"])
    assert rating(client, victim["id"]) is None
    declined = client.call("POST", f"/v1/me/invitations/tournament-{tournament['id']}/decline",
                           victim["key"])
    assert declined.status_code == 200 and declined.json()["status"] == "aborted"
    assert client.call("GET", "/v1/me", victim["key"]).json()["name"] == "Named 39"
