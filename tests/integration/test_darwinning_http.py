"""Darwinning! over real HTTP, with the real worker playing the bots."""

from __future__ import annotations

import random
import time

import pytest

from tests.integration.conftest import Client, Worker

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("integration")]


def test_human_against_an_ismcts_bot_two_players(client: Client, worker: Worker) -> None:
    """A human seat (v2.2, the dummy in play) finishes a match against an ISMCTS bot, seeing
    only its own hand, with readable labels; a bad move is refused without a change."""
    created = client.create({"game": "darwinning", "seed": 11, "seats": [
        {"kind": "human", "name": "Ada"},
        {"kind": "bot", "bot": {"kind": "ismcts", "simulations": 30}}]})
    match_id, token = created["id"], created["tokens"][0]["token"]
    rng = random.Random(11)
    match = client.match(match_id, token)
    assert len(match["view"]["dummy_cards"]) == 3 and "hands" not in match["view"]
    deadline = time.monotonic() + 240
    kinds: set[str] = set()
    refused = False
    while match["status"] != "finished":
        assert time.monotonic() < deadline
        if 0 not in match["to_move"]:
            match = client.match(match_id, token, version=match["version"], wait=10)
            continue
        listing = client.call("GET", f"/v1/matches/{match_id}/moves", token).json()
        assert all(m["label"] and not m["label"].startswith("{") for m in listing["moves"])
        if not refused:
            bad = client.call("POST", f"/v1/matches/{match_id}/moves", token, json={
                "version": listing["version"], "move": {"type": "play", "cards": [999]}})
            assert bad.status_code == 422
            assert bad.headers["Content-Type"].startswith("application/problem+json")
            assert client.match(match_id, token)["version"] == listing["version"]
            refused = True
        choice = rng.choice(listing["moves"])
        kinds.add(choice["move"]["type"])
        response = client.call("POST", f"/v1/matches/{match_id}/moves", token,
                               json={"version": listing["version"], "move_id": choice["id"]})
        assert response.status_code == 200, response.text
        match = client.match(match_id, token)
        assert "hands" not in match["view"] and "deck" not in match["view"]
    assert match["result"]["winners"] and len(match["result"]["scores"]) == 2
    assert {"play", "announce", "lead"} <= kinds  # tricks and the v2.2 announcement


def test_five_bots_finish_with_the_secret_discard(client: Client, worker: Worker) -> None:
    """Five bots (v1.7: the simultaneous secret discard goes through the worker) finish."""
    bots = [{"kind": "random"}, {"kind": "greedy"}, {"kind": "ismcts", "simulations": 20},
            {"kind": "random"}, {"kind": "greedy"}]
    created = client.create({"game": "darwinning", "seed": 5, "options": {"edition": "1.7"},
                             "seats": [{"kind": "bot", "bot": b} for b in bots]})
    final = client.wait_finished(created["id"], timeout=300)
    assert len(final["result"]["scores"]) == 5 and final["result"]["winners"]
    events = client.call("GET", f"/v1/matches/{created['id']}/events").json()
    assert "'type': 'discard'" in str(events["events"])  # the secret discard moves were made
