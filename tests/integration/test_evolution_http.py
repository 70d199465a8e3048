"""Evolution: The Origin of Species over real HTTP, with the real worker playing the bots."""

from __future__ import annotations

import random
import time

import pytest

from tests.integration.conftest import Client, Worker

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("integration")]
DEFENSIVE = {"running", "tail_loss", "mimicry"}


def human_choice(moves: list[dict], rng: random.Random) -> dict:
    """A client policy that seeks defence decisions: defend when asked, grow defences."""
    defences = [m for m in moves if m["move"]["type"] == "defend"]
    if defences:
        return rng.choice(defences)
    defensive = [m for m in moves if m["move"]["type"] == "play_trait"
                 and m["move"].get("trait") in DEFENSIVE]
    if defensive and rng.random() < 0.8:
        return rng.choice(defensive)
    animals = [m for m in moves if m["move"]["type"] == "play_animal"]
    if animals and rng.random() < 0.5:
        return rng.choice(animals)
    return rng.choice(moves)


def play(client: Client, seed: int) -> tuple[dict, list[dict]]:
    """One human seat against a greedy bot; returns the final match and the human's moves."""
    created = client.create({"game": "evolution", "seed": seed, "seats": [
        {"kind": "human", "name": "Alex"}, {"kind": "bot", "bot": {"kind": "greedy"}}]})
    match_id, token = created["id"], created["tokens"][0]["token"]
    rng, played = random.Random(seed), []
    match = client.match(match_id, token)
    deadline = time.monotonic() + 120
    while match["status"] != "finished":
        assert time.monotonic() < deadline
        if 0 not in match["to_move"]:
            match = client.match(match_id, token, version=match["version"], wait=10)
            continue
        listing = client.call("GET", f"/v1/matches/{match_id}/moves", token).json()
        choice = human_choice(listing["moves"], rng)
        response = client.call("POST", f"/v1/matches/{match_id}/moves", token,
                               json={"version": listing["version"], "move_id": choice["id"]})
        assert response.status_code == 200, response.text
        played.append(choice)
        match = client.match(match_id, token)
    return match, played


def test_human_against_bot_with_a_defence_decision(client: Client, worker: Worker) -> None:
    """The human seat defends (not on its turn) through the API at least once."""
    for seed in range(1, 30):
        final, played = play(client, seed)
        assert final["status"] == "finished" and final["result"]["winners"]
        if any(m["move"]["type"] == "defend" for m in played):
            return
    pytest.fail("no seed gave the human a defence decision")


def test_six_bots_finish(client: Client, worker: Worker) -> None:
    kinds = ["random", "greedy"] * 3
    created = client.create({"game": "evolution", "seed": 5, "seats": [
        {"kind": "bot", "bot": {"kind": kind}} for kind in kinds]})
    final = client.wait_finished(created["id"], timeout=240)
    assert len(final["result"]["scores"]) == 6
