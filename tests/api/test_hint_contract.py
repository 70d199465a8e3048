"""The hint route's answers when no bot worker runs (the API tests start none)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api import create_app
from shared.bots.catalogue import HINT_RETRY
from tests.api.test_errors import TWO_HUMANS
from tests.api.test_openapi import MATCH, check


@pytest.fixture
def client(app: Flask) -> Iterator[FlaskClient]:
    # The module's app, waiting 0.3 s for a worker's answer instead of 8.
    settings = dataclasses.replace(app.extensions["evo.settings"], hint_wait_seconds=0.3)
    with create_app(settings).test_client() as test_client:
        yield test_client


def test_no_worker_means_searching_not_a_server_error(client: FlaskClient) -> None:
    # Evolution: one seat owes at a time (Savanna's seats pick at once).
    created = client.post("/v1/matches", json={**TWO_HUMANS, "game": "evolution",
                                               "seed": 5}).get_json()
    match_id, tokens = created["id"], {t["seat"]: t["token"] for t in created["tokens"]}
    owing = created["to_move"][0]
    url = f"/v1/matches/{match_id}/hint"
    auth = {"Authorization": f"Bearer {tokens[owing]}"}
    for _ in range(2):  # asking again waits for the search already asked: 202, never 429
        waited = client.get(url, headers=auth)
        body = check(waited, MATCH + "/hint", "GET")
        assert waited.status_code == 202 and body["status"] == "searching"
        assert int(waited.headers["Retry-After"]) == body["retry_after"] == HINT_RETRY
    other = client.get(url, headers={"Authorization": f"Bearer {tokens[1 - owing]}"})
    assert check(other, MATCH + "/hint", "GET")["status"] == 409


def test_a_new_search_too_soon_is_a_429_problem(client: FlaskClient) -> None:
    # Savanna: once both seats have picked, each owes a placement, a new question.
    created = client.post("/v1/matches", json={**TWO_HUMANS, "game": "savanna",
                                               "seed": 5}).get_json()
    match_id, tokens = created["id"], {t["seat"]: t["token"] for t in created["tokens"]}
    auths = {seat: {"Authorization": f"Bearer {token}"} for seat, token in tokens.items()}
    url = f"/v1/matches/{match_id}/hint"
    assert client.get(url, headers=auths[0]).status_code == 202
    for seat in (0, 1):
        moves = client.get(f"/v1/matches/{match_id}/moves", headers=auths[seat]).get_json()
        picked = client.post(f"/v1/matches/{match_id}/moves", headers=auths[seat], json={
            "version": moves["version"], "move_id": moves["moves"][0]["id"]})
        assert picked.status_code == 200, picked.get_json()
    limited = client.get(url, headers=auths[0])
    assert check(limited, MATCH + "/hint", "GET")["status"] == 429
    assert 1 <= int(limited.headers["Retry-After"]) <= 10
