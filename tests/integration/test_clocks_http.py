"""Time control through the real stack (gunicorn, Celery worker and its deadline sweep,
Redis): a real-time clock that runs out loses the match for its seat, and a turn-based seat
that keeps timing out gets the fallback move until it is resigned (``shared.matches.clocks``,
docs/api.md "Clocks and turn-based play")."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.integration.conftest import Client, Worker

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("integration")]


def keys(match: dict[str, Any]) -> dict[int, str]:
    return {t["seat"]: t["token"] for t in match["tokens"]}


def log(client: Client, match_id: str) -> list[dict[str, Any]]:
    response = client.call("GET", f"/v1/matches/{match_id}/events", params={"since": 0})
    assert response.status_code == 200, response.text
    return response.json()["events"]  # type: ignore[no-any-return]


def test_a_realtime_clock_that_runs_out_loses_the_match(client: Client,
                                                        worker: Worker) -> None:
    match = client.create({"game": "savanna", "seed": 7, "seats": [
        {"kind": "human"}, {"kind": "human"}],
        "time_control": {"kind": "realtime", "base": 2, "increment": 1}})
    tokens = keys(match)
    assert match["to_move"] == [0, 1]  # the pick is simultaneous: both clocks run
    assert [c["running"] for c in match["clocks"]] == [True, True]
    # Seat 1 moves at once (gaining its increment); seat 0 never does.
    legal = client.call("GET", f"/v1/matches/{match['id']}/moves", tokens[1]).json()
    moved = client.call("POST", f"/v1/matches/{match['id']}/moves", tokens[1], json={
        "version": legal["version"], "move_id": legal["moves"][0]["id"]})
    assert moved.status_code == 200, moved.text
    started = time.monotonic()
    final = client.wait_finished(match["id"], timeout=30)
    assert time.monotonic() - started < 15  # found by the sweep, not by a stall
    assert final["resigned"] == [0] and final["result"]["winners"] == [1]
    assert final["result"]["details"]["ended_by"] == "resignation"
    clock = {c["seat"]: c for c in final["clocks"]}
    assert clock[0]["remaining"] == 0 and not clock[0]["running"]
    assert clock[1]["remaining"] > 0 and not clock[1]["running"]
    events = [e for entry in log(client, match["id"]) for e in entry.get("events", [])]
    assert {"type": "resigned", "seat": 0, "reason": "timeout", "ends_match": True} in events


def test_a_turn_based_seat_that_keeps_timing_out_is_resigned(client: Client,
                                                             worker: Worker) -> None:
    match = client.create({"game": "savanna", "seed": 8, "seats": [
        {"kind": "human"}, {"kind": "bot", "bot": {"kind": "random"}}],
        "time_control": {"kind": "turn_based", "per_move": 1, "resign_after": 3}})
    assert match["time_control"] == {"kind": "turn_based", "per_move": 1.0,
                                     "resign_after": 3}
    final = client.wait_finished(match["id"], timeout=60)
    entries = log(client, match["id"])
    fallbacks = [e for e in entries if e.get("seat") == 0 and "move" in e]
    assert [e["timeout"] for e in fallbacks] == [{"reason": "clock"}] * 2
    assert all(e["bot"]["fallback"] for e in fallbacks)
    resigned = [e for entry in entries for e in entry.get("events", [])
                if e["type"] == "resigned"]
    assert resigned == [{"type": "resigned", "seat": 0, "reason": "timeout",
                         "ends_match": True}]
    # Only the bot was left to play for: the match ended, the seat out of time last.
    assert final["resigned"] == [0] and final["result"]["ranking"] == [2, 1]
