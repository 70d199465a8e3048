"""Hints through the real stack: the API asks a real Celery worker by task name and waits."""

from __future__ import annotations

import time

import pytest

from tests.api.test_openapi import component
from tests.integration.conftest import Client, Worker

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("integration")]


def test_a_seat_gets_a_legal_hint_then_must_wait(client: Client, worker: Worker) -> None:
    created = client.create({"game": "evolution", "seed": 21, "seats": [
        {"kind": "human"}, {"kind": "human"}]})
    match_id, tokens = created["id"], [t["token"] for t in created["tokens"]]
    match = client.match(match_id, tokens[0])
    owing = match["to_move"][0]
    waiting = 1 - owing
    url = f"/v1/matches/{match_id}/hint"

    response = client.call("GET", url, tokens[owing])
    for _ in range(3):  # 202: the worker was still busy with earlier tests' bots; ask again
        if response.status_code != 202:
            break
        time.sleep(int(response.headers["Retry-After"]))
        response = client.call("GET", url, tokens[owing])
    assert response.status_code == 200, response.text
    hint = response.json()
    assert component("Hint").is_valid(hint), hint
    legal = client.call("GET", f"/v1/matches/{match_id}/moves", tokens[owing]).json()
    assert hint["move_id"] in {move["id"] for move in legal["moves"]}
    assert hint["version"] == match["version"] and hint["seat"] == owing
    assert hint["win_estimate"] is None or 0 <= hint["win_estimate"] <= 1
    assert hint["simulations"] >= 1 or len(legal["moves"]) == 1

    again = client.call("GET", url, tokens[owing])  # rate-limited, per seat
    assert again.status_code == 429
    assert again.headers["Content-Type"].startswith("application/problem+json")
    assert 1 <= int(again.headers["Retry-After"]) <= 10

    other = client.call("GET", url, tokens[waiting])  # owes nothing now
    assert other.status_code == 409 and other.json()["version"] == match["version"]
    assert client.call("GET", url).status_code == 401
    assert client.call("GET", url, "not-a-token").status_code == 403
    assert client.call("GET", "/v1/matches/nope/hint", tokens[owing]).status_code == 404

    # The hint is playable as it is.
    played = client.call("POST", f"/v1/matches/{match_id}/moves", tokens[owing],
                         json={"version": hint["version"], "move_id": hint["move_id"]})
    assert played.status_code == 200, played.text
