"""Hints through the real stack: the API asks a real Celery worker by task name and waits."""

from __future__ import annotations

import time

import pytest
import requests

from tests.api.test_openapi import component
from tests.integration.conftest import Client, Worker

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("integration")]


def ask_hint(client: Client, url: str, token: str, tries: int = 10) -> requests.Response:
    """GET a hint as a client should: on 202 (the workers busy), ask again after
    ``Retry-After``; the search goes on meanwhile, so asking again starts no other."""
    response = client.call("GET", url, token)
    for _ in range(tries):
        if response.status_code != 202:
            break
        time.sleep(int(response.headers["Retry-After"]))
        response = client.call("GET", url, token)
    return response


def test_a_seat_gets_a_legal_hint_and_the_same_one_again(client: Client, worker: Worker) -> None:
    created = client.create({"game": "evolution", "seed": 21, "seats": [
        {"kind": "human"}, {"kind": "human"}]})
    match_id, tokens = created["id"], [t["token"] for t in created["tokens"]]
    match = client.match(match_id, tokens[0])
    owing = match["to_move"][0]
    waiting = 1 - owing
    url = f"/v1/matches/{match_id}/hint"

    response = ask_hint(client, url, tokens[owing])  # 202s: busy with earlier tests' bots
    assert response.status_code == 200, response.text
    hint = response.json()
    assert component("Hint").is_valid(hint), hint
    legal = client.call("GET", f"/v1/matches/{match_id}/moves", tokens[owing]).json()
    assert hint["move_id"] in {move["id"] for move in legal["moves"]}
    assert hint["version"] == match["version"] and hint["seat"] == owing
    assert hint["win_estimate"] is None or 0 <= hint["win_estimate"] <= 1
    assert hint["simulations"] >= 1 or len(legal["moves"]) == 1

    again = client.call("GET", url, tokens[owing])  # the same question: the kept answer
    assert again.status_code == 200 and again.json() == hint

    other = client.call("GET", url, tokens[waiting])  # owes nothing now
    assert other.status_code == 409 and other.json()["version"] == match["version"]
    assert client.call("GET", url).status_code == 401
    assert client.call("GET", url, "not-a-token").status_code == 403
    assert client.call("GET", "/v1/matches/nope/hint", tokens[owing]).status_code == 404

    # The hint is playable as it is.
    played = client.call("POST", f"/v1/matches/{match_id}/moves", tokens[owing],
                         json={"version": hint["version"], "move_id": hint["move_id"]})
    assert played.status_code == 200, played.text


def test_a_hint_whose_connection_dropped_is_answered_on_the_next_ask(
        client: Client, worker: Worker) -> None:
    """A phone loses its connection while the API waits for the search: asking again gets
    the answer of the search already asked for (kept in the store), not a 429."""
    created = client.create({"game": "evolution", "seed": 22, "seats": [
        {"kind": "human"}, {"kind": "human"}]})
    match_id, tokens = created["id"], [t["token"] for t in created["tokens"]]
    match = client.match(match_id, tokens[0])
    owing = match["to_move"][0]
    url = f"/v1/matches/{match_id}/hint"
    with pytest.raises(requests.exceptions.ReadTimeout):  # gone before the search ends
        requests.get(f"{client.base}{url}", timeout=0.05,
                     headers={"Authorization": f"Bearer {tokens[owing]}"})
    response = ask_hint(client, url, tokens[owing])
    assert response.status_code == 200, response.text
    hint = response.json()
    assert component("Hint").is_valid(hint), hint
    assert hint["version"] == match["version"] and hint["seat"] == owing
