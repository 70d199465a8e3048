"""The load bench's game-work baseline (``bench/engine_app.py``) plays whole Savanna matches
through its two routes, as ``bench.bench_load --baseline engine`` drives it, against a real
Redis: its figure is only worth something if it does the game's work."""

from __future__ import annotations

import importlib
import sys

import pytest


def test_the_engine_baseline_plays_matches_and_refuses_a_stale_move(
        redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REDIS_URL", redis_url)
    sys.modules.pop("bench.engine_app", None)
    client = importlib.import_module("bench.engine_app").app.test_client()
    assert client.post("/engine/m").status_code == 200
    played, restarts, last = 0, 0, 0
    while restarts < 2:
        for seat in range(2):
            moves = client.get("/engine/m/moves", query_string={"seat": seat}).get_json()
            if moves["version"] < last:
                restarts += 1  # the match ended and started again
            last = moves["version"]
            if not moves["moves"]:
                continue
            assert all(m["label"] for m in moves["moves"])
            answer = client.post("/engine/m/moves", json={
                "version": moves["version"], "seat": seat, "move_id": moves["moves"][0]["id"]})
            assert answer.status_code == 200, answer.get_json()
            assert answer.get_json()["version"] == moves["version"] + 1
            played += 1
            stale = client.post("/engine/m/moves", json={
                "version": moves["version"], "seat": seat, "move_id": moves["moves"][0]["id"]})
            assert stale.status_code == 409
    assert played >= 2 * 80  # two whole matches: a pick and a place for each of 20 cards a seat
