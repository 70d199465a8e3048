"""Post-match analysis through the real stack: the API sends the task by name to the
tournament queue, a real Celery worker of that queue searches every decision of the seat
(from its view, a small budget) and keeps the answer, which the API then serves."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from shared.games import get_game
from shared.infra.queue import TOURNAMENT_QUEUE
from shared.replays.analysis import MIN_LOSS, replayed
from tests.api.test_openapi import component
from tests.integration.conftest import Client, Worker

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("integration")]


@pytest.fixture(scope="module")
def analysis_worker(redis_url: str, tmp_path_factory: pytest.TempPathFactory
                    ) -> Iterator[Worker]:
    """A worker of the tournament queue, where analyses go, with a small search budget."""
    running = Worker(redis_url, tmp_path_factory.mktemp("analysis-worker"), TOURNAMENT_QUEUE)
    running.env.update(ANALYSIS_SIMULATIONS="40", ANALYSIS_SECONDS="0.5", WORKER_NICE="0")
    running.start()
    try:
        yield running
    finally:
        running.stop()


def finished_match(client: Client, seed: int) -> tuple[str, dict[str, Any]]:
    """A 2-seat Savanna match played to its end with random moves over HTTP."""
    created = client.create({"game": "savanna", "seed": seed, "seats": [
        {"kind": "human"}, {"kind": "human"}]})
    match_id, tokens = created["id"], {t["seat"]: t["token"] for t in created["tokens"]}
    rng = random.Random(seed)
    match = created
    while match["status"] == "running":
        seat = rng.choice(match["to_move"])
        moves = client.call("GET", f"/v1/matches/{match_id}/moves", tokens[seat]).json()
        played = client.call("POST", f"/v1/matches/{match_id}/moves", tokens[seat], json={
            "version": moves["version"], "move_id": rng.choice(moves["moves"])["id"]})
        assert played.status_code == 200, played.text
        match = client.match(match_id)
    return match_id, match


def ask(client: Client, url: str, timeout: float = 180) -> tuple[requests.Response, int]:
    """GET until the analysis is done, as a client should (``Retry-After`` on each 202);
    the answer and the number of 202s before it."""
    deadline = time.monotonic() + timeout
    waits = 0
    response = client.call("GET", url)
    while response.status_code == 202:
        assert int(response.headers["Retry-After"]) >= 1
        assert response.json()["status"] == "computing"
        assert time.monotonic() < deadline, "no analysis in time"
        waits += 1
        time.sleep(1)  # quicker than Retry-After: the test only waits
        response = client.call("GET", url)
    return response, waits


def test_a_worker_marks_the_moves_where_the_seat_lost_most(
        client: Client, analysis_worker: Worker) -> None:
    match_id, match = finished_match(client, 515)
    url = f"/v1/matches/{match_id}/analysis?seat=0"
    response, waits = ask(client, url)
    assert response.status_code == 200, response.text
    assert waits >= 1  # computed by the worker, not in the request
    analysis = response.json()
    assert component("Analysis").is_valid(analysis), analysis
    assert analysis["id"] == match_id and analysis["seat"] == 0
    assert analysis["simulations"] == 40  # the worker's budget setting

    # Every decision of seat 0 that had a choice is there, at its replay step, with the move
    # it played and a move the search could legally have played instead.
    game = get_game("savanna")
    log = client.call("GET", f"/v1/matches/{match_id}/events").json()["events"]
    decisions = {d["step"]: d for d in analysis["decisions"]}
    expected = []
    for step, (state, entry) in enumerate(replayed(game, 2, match["options"], match["seed"],
                                                   log), 1):
        if entry["seat"] != 0 or len(state.legal_moves(0)) < 2:
            continue
        expected.append(step)
        found = decisions[step]
        assert found["move"] == entry["move"] and found["version"] == entry["version"]
        assert found["best_id"] in {state.move_id(m) for m in state.legal_moves(0)}
        if found["best_id"] == state.move_id(entry["move"]):
            assert found["loss"] == 0
    assert sorted(decisions) == expected and len(expected) > 5

    # The marked ones are the largest losses, worst first, each at least MIN_LOSS.
    losses = [decisions[step]["loss"] for step in analysis["marked"]]
    assert losses == sorted(losses, reverse=True) and all(x >= MIN_LOSS for x in losses)
    unmarked = [d["loss"] for d in analysis["decisions"]
                if d["step"] not in analysis["marked"] and d["loss"] is not None]
    assert all(x <= min(losses, default=MIN_LOSS) for x in unmarked)
    assert losses  # random play gives some of its estimate away

    again = client.call("GET", url)  # kept: no second search
    assert again.status_code == 200 and again.json() == analysis
    assert "ETag" in again.headers


def test_an_unfinished_match_has_no_analysis(client: Client) -> None:
    created = client.create({"game": "savanna", "seats": [{"kind": "human"},
                                                          {"kind": "human"}]})
    response = client.call("GET", f"/v1/matches/{created['id']}/analysis?seat=0")
    assert response.status_code == 409, response.text
    assert client.call("GET", f"/v1/matches/{created['id']}/analysis").status_code == 422
