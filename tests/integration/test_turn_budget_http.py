"""A person's turn budget through the real stack (gunicorn, Celery worker, Redis): the bot
decisions between two of a person's turns share it, while an all-bot match keeps its levels'
budgets. Checked on the budgets each search was given (the log's bot notes) against the
arithmetic (``shared.bots.turn_budget``), and on the time the searches took, with a generous
margin. A person's whole wait also holds each decision's queueing, loading and commit, which
a loaded 2-core machine can stretch to a second a decision: ``bench.bench_bot_wait`` measures
it (a timed test would flake)."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
import redis

from shared.bots.catalogue import LEVELS
from shared.bots.turn_budget import FLOOR_SECONDS, FLOOR_SIMULATIONS, TurnBudget
from shared.matches.store import match_key
from tests.integration.conftest import TURN_BUDGET_SECONDS, Client, Worker

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("integration")]

BUDGET = float(TURN_BUDGET_SECONDS)
SLACK = 2e-3  # the notes' rounding (4 decimals) and reading two clocks
# The margin of the searches' own time over the budget: a loaded 2-core machine pausing the
# worker mid-iteration. The budgets themselves are checked exactly.
MARGIN = 5.0


def _events(client: Client, match_id: str, token: str, since: int) -> list[dict[str, Any]]:
    response = client.call("GET", f"/v1/matches/{match_id}/events", token,
                           params={"since": since})
    assert response.status_code == 200, response.text
    return response.json()["events"]


def _check_chain(start: float, level: str, entries: list[dict[str, Any]]) -> int:
    """Each search's budget in a chain of bot moves that began at ``start`` lies within what
    the turn budget gives a decision begun between the previous commit and its own search;
    each ran a search. Returns how many were shrunk below the level's cap."""
    turn, cap, shrunk, previous = TurnBudget(BUDGET), LEVELS[level], 0, start
    for entry in entries:
        note = entry["bot"]
        assert note["kind"] == "ismcts" and "fallback" not in note, entry
        began_by = entry["at"] - note["think_seconds"]  # the search began no later
        most = turn.decision(cap, start, previous).time_cap
        least = turn.decision(cap, start, began_by).time_cap
        assert least - SLACK <= note["budget_seconds"] <= most + SLACK, (entry, least, most)
        if note["budget_seconds"] < cap.time_cap:
            shrunk += 1
            assert note.get("forced") or note["simulations"] >= FLOOR_SIMULATIONS, entry
        else:
            assert note.get("forced") or note["simulations"] >= 1, entry
        previous = entry["at"]  # turn by turn: the next bot's task is sent after this commit
    return shrunk


def test_a_persons_turn_comes_back_within_the_turn_budget(worker: Worker,
                                                          client: Client) -> None:
    # Three `hard` bots in turn (Evolution: one seat acts at a time): unshared, a person
    # would wait three 2.5 s caps; shared, three decisions cost about the 3 s budget.
    created = client.create({"game": "evolution", "seed": 11, "seats": [
        {"kind": "human"}, *[{"kind": "bot", "bot": {"kind": "ismcts", "level": "hard"}}] * 3]})
    match_id, token = created["id"], created["tokens"][0]["token"]
    rng = random.Random(11)
    chains: list[tuple[float, int]] = []  # (wait, decisions) of each person's wait
    shrunk = 0
    match = client.match(match_id, token)
    deadline = time.monotonic() + 240
    while len([c for c in chains if c[1] >= 2]) < 3 and match["status"] == "running":
        assert time.monotonic() < deadline, chains
        if 0 not in match["to_move"]:
            match = client.match(match_id, token, version=match["version"], wait=10)
            continue
        moves = client.call("GET", f"/v1/matches/{match_id}/moves", token).json()
        answer = client.call("POST", f"/v1/matches/{match_id}/moves", token, json={
            "version": moves["version"], "move_id": rng.choice(moves["moves"])["id"]})
        assert answer.status_code == 200, answer.text
        accepted = time.monotonic()
        version = answer.json()["version"]
        match = client.match(match_id, token)
        while 0 not in match["to_move"] and match["status"] == "running":
            match = client.match(match_id, token, version=match["version"], wait=10)
        waited = time.monotonic() - accepted
        log = _events(client, match_id, token, version - 1)
        assert log[0]["version"] == version and log[0]["seat"] == 0
        bots = [e for e in log[1:] if "bot" in e]
        if not bots:
            continue  # the person moves again at once
        shrunk += _check_chain(log[0]["at"], "hard", bots)
        floors = sum(1 for e in bots if e["bot"]["budget_seconds"] <= FLOOR_SECONDS + SLACK)
        searched = sum(e["bot"]["think_seconds"] for e in bots)
        assert searched <= BUDGET + floors * FLOOR_SECONDS + MARGIN, (searched, waited, bots)
        chains.append((waited, len(bots)))
    assert len([c for c in chains if c[1] >= 2]) >= 3, chains
    assert shrunk >= 3  # half of a 3 s budget is under `hard`'s cap: every chain shrinks


def test_an_all_bot_match_keeps_its_levels_budgets(worker: Worker, client: Client,
                                                   redis_url: str) -> None:
    created = client.create({"game": "evolution", "seed": 12, "seats": [
        {"kind": "bot", "bot": {"kind": "ismcts", "level": "easy"}},
        {"kind": "bot", "bot": {"kind": "random"}}]})
    store = redis.Redis.from_url(redis_url, decode_responses=True)
    assert store.hget(match_key(created["id"]), "bots_since") == "null"
    finished = client.wait_finished(created["id"], timeout=240)
    log = client.call("GET", f"/v1/matches/{created['id']}/events").json()["events"]
    searches = [e for e in log if e.get("bot", {}).get("kind") == "ismcts"]
    assert searches and all(e["bot"]["budget_seconds"] == LEVELS["easy"].time_cap
                            for e in searches), searches
    # Not vacuous: had the match's start begun a shared budget, these would have been shrunk.
    turn = TurnBudget(BUDGET)
    late = [e for e in searches if turn.decision(
        LEVELS["easy"], finished["created_at"],
        e["at"] - e["bot"]["think_seconds"]).time_cap < LEVELS["easy"].time_cap]
    assert late, "the match ended before a shared budget would have bound"
