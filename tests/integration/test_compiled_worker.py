"""The Celery worker runs the compiled build of the current sources (``shared/infra/accel.py``)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.integration.conftest import Client, Worker

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("integration")]


def _build_line(worker: Worker, timeout: float = 90) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        lines = [line for line in worker.log.read_text(errors="replace").splitlines()
                 if "compiled build:" in line]
        if lines:
            return lines[-1]
        time.sleep(0.5)
    raise AssertionError("the worker logged no line about the compiled build")


def test_the_worker_runs_the_build_and_says_so_in_one_line(worker: Worker, compiled_build: Path,
                                                           client: Client) -> None:
    line = _build_line(worker)
    assert f"compiled build: running {compiled_build} (" in line
    # It still plays: a bot answers a seeded match to the end.
    match = client.create({"game": "savanna", "seed": 5, "seats": [
        {"kind": "bot", "bot": {"kind": "ismcts", "level": "easy"}},
        {"kind": "bot", "bot": {"kind": "random"}}]})
    finished = client.wait_finished(match["id"], timeout=120)
    assert finished["status"] == "finished"


def test_a_bot_on_a_time_budget_answers_inside_it(worker: Worker, client: Client) -> None:
    seconds = 0.3
    match = client.create({"game": "savanna", "seed": 3, "seats": [
        {"kind": "bot", "bot": {"kind": "ismcts", "seconds": seconds}},
        {"kind": "bot", "bot": {"kind": "random"}}]})
    assert match["seats"][0]["bot"] == {"kind": "ismcts", "level": "timed", "seconds": seconds}
    client.wait_finished(match["id"], timeout=120)
    log = client.call("GET", f"/v1/matches/{match['id']}/events").json()["events"]
    thinking = [e["bot"]["think_seconds"] for e in log
                if e.get("seat") == 0 and e.get("bot", {}).get("kind") == "ismcts"]
    assert len(thinking) > 10
    # The search stops before an iteration it predicts would end late; the margin is only
    # for a loaded machine pausing the process mid-iteration (2 cores, 4 engineers).
    assert max(thinking) <= seconds + 0.2, thinking
    assert sorted(thinking)[len(thinking) // 2] > seconds / 2  # it used the time it had
