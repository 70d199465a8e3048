"""Redis round trips per request path (``bench/bench_round_trips.py``), counted, not timed: a
person's move at most 5, a bot's reply at most 6 (the issue's targets), and no path dearer
than it is today, so one more read on a hot path fails here."""

from __future__ import annotations

from typing import Any

import pytest

from bench.bench_round_trips import BOUNDS, Paths

#: What each path costs now (single Redis, default settings, broker on the same Redis): a
#: change that adds a round trip to one of them must say so here.
TODAY = {"person's move": 4, "bot reply": 4, "bot reply, handed on": 5, "legal moves": 1,
         "view": 1}


@pytest.fixture(scope="module")
def figures(redis_url: str) -> dict[str, Any]:
    return Paths(redis_url).all()


@pytest.mark.parametrize("path", sorted(BOUNDS))
def test_a_path_stays_within_its_bound(figures: dict[str, Any], path: str) -> None:
    assert figures[path] <= BOUNDS[path], (path, figures[path])


@pytest.mark.parametrize("path", sorted(TODAY))
def test_no_path_costs_more_than_today(figures: dict[str, Any], path: str) -> None:
    assert figures[path] <= TODAY[path], (path, figures[path])


def test_a_pull_bots_requests_read_the_match_once(figures: dict[str, Any]) -> None:
    """An account's key on a match's routes: the match and the seat tokens in one round trip,
    the key's account in one more, then the move's own writes (rate limits, commit, task)."""
    pull = figures["pull bot's move"]
    assert pull["legal moves"] <= 2 and pull["move"] <= 5, pull


def test_the_count_sees_the_paths_commands(figures: dict[str, Any]) -> None:
    """Every counted path does talk to Redis (a count of 0 would mean counting is broken)."""
    assert all(figures[path] >= 1 for path in TODAY)
    assert figures["pull bot's move"]["total"] >= 3
