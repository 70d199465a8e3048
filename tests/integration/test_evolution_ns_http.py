"""Evolution (North Star) over real HTTP, with the real worker playing the bots."""

from __future__ import annotations

import random
import time

import pytest

from tests.integration.conftest import Client, Worker

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("integration")]


def quick_step(listing: dict) -> bool:
    """Moves of a step where both seats owe a decision at once (food card, quick play)."""
    return len(listing["to_move"]) > 1


def play(client: Client, seed: int, options: dict) -> tuple[dict, list[dict]]:
    """A human seat (random moves, by id) against an ``ismcts`` bot; the final match and the
    human's moves with their labels."""
    created = client.create({"game": "evolution-ns", "seed": seed, "options": options,
                             "seats": [{"kind": "human", "name": "Alex"},
                                       {"kind": "bot", "bot": {"kind": "ismcts",
                                                               "simulations": 40}}]})
    match_id, token = created["id"], created["tokens"][0]["token"]
    rng, played = random.Random(seed), []
    match = client.match(match_id, token)
    deadline = time.monotonic() + 240
    while match["status"] != "finished":
        assert time.monotonic() < deadline
        if 0 not in match["to_move"]:
            match = client.match(match_id, token, version=match["version"], wait=10)
            continue
        listing = client.call("GET", f"/v1/matches/{match_id}/moves", token).json()
        moves = listing["moves"]
        attacks = [m for m in moves if m["move"]["type"] in ("attack", "negate")]
        choice = rng.choice(attacks or moves)
        response = client.call("POST", f"/v1/matches/{match_id}/moves", token,
                               json={"version": listing["version"], "move_id": choice["id"]})
        if response.status_code == 409 and quick_step(listing):
            # a simultaneous step: the bot moved between our read and our post; read again
            match = client.match(match_id, token)
            continue
        assert response.status_code == 200, response.text
        played.append(choice)
        match = client.match(match_id, token)
    return match, played


@pytest.mark.parametrize("quick", [False, True])
def test_human_against_ismcts_finishes(client: Client, worker: Worker, quick: bool) -> None:
    final, played = play(client, 3, {"quick": quick})
    assert final["status"] == "finished" and final["result"]["winners"]
    kinds = {m["move"]["type"] for m in played}
    assert "food" in kinds, "the human chose food cards (a simultaneous step)"
    assert kinds & {"trait", "new_species", "grow", "done"}, "and played cards"
    assert kinds & {"eat", "attack", "intelligence", "negate", "pass"}, "and fed"
    assert all(m["label"] and not m["label"].startswith("{") for m in played)


def test_six_bots_finish(client: Client, worker: Worker) -> None:
    kinds = [{"kind": "random"}, {"kind": "greedy"}, {"kind": "ismcts", "simulations": 10},
             {"kind": "random"}, {"kind": "ismcts", "simulations": 10}, {"kind": "random"}]
    created = client.create({"game": "evolution-ns", "seed": 5, "seats": [
        {"kind": "bot", "bot": kind} for kind in kinds]})
    final = client.wait_finished(created["id"], timeout=300)
    assert final["status"] == "finished" and len(final["result"]["scores"]) == 6
