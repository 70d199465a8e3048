"""Tournaments expire like matches (issue 39): a finished or cancelled tournament's keys go
``TOURNAMENT_TTL`` after its end, a running one's never; a late note of a match's end takes
the tournament's remaining time; the listing drops what expired."""

from __future__ import annotations

import time
from typing import Any

import pytest
import redis

from shared.matches.service import MatchService
from shared.matches.store import MatchStore
from shared.ratings.store import RatingStore
from shared.services import match_service
from shared.tournaments.service import TournamentService
from shared.tournaments.store import OWN_SUFFIXES, TournamentStore
from tests.shared.test_service import Recorder
from tests.worker.test_tournament_scheduler import drive

SPEC: dict[str, Any] = {
    "game": "savanna", "format": "round_robin", "seats": 2, "seed": 5, "rounds": 1,
    "move_deadline": 10, "forfeit_after": 3, "concurrency": 2,
    "entrants": [{"bot": {"kind": "random"}}, {"bot": {"kind": "greedy"}}]}


def services(client: redis.Redis, ttl: int) -> tuple[MatchService, TournamentService,
                                                     list[str]]:
    finished: list[str] = []
    matches = match_service(MatchStore(client), Recorder(), on_finish=finished.append)
    return matches, TournamentService(matches, TournamentStore(client, ended_ttl=ttl),
                                      RatingStore(client)), finished


def own_keys(client: redis.Redis, tournament_id: str) -> dict[str, int]:
    """The tournament's own keys that exist, with their TTL (-1: none)."""
    keys = [f"evo:t:{tournament_id}{suffix}" for suffix in OWN_SUFFIXES]
    return {key: client.ttl(key) for key in keys if client.exists(key)}


@pytest.mark.slow  # waits out real TTLs or deadlines (in `make test`, not test-fast)
def test_a_finished_tournament_expires_and_a_running_one_does_not(
        redis_client: redis.Redis) -> None:
    matches, tournaments, finished = services(redis_client, ttl=2)
    running = tournaments.create(SPEC)["id"]  # its first tick starts its matches
    over = tournaments.create({**SPEC, "seed": 6})["id"]
    for match_id in sorted(tournaments.store.match_ids(running).values()):
        matches.abort(match_id, "held: this tournament must stay running")
    drive(matches, tournaments, finished)
    assert tournaments.load(over)["status"] == "finished"
    assert tournaments.load(running)["status"] == "running"
    assert set(own_keys(redis_client, running).values()) == {-1}
    kept = own_keys(redis_client, over)
    assert {"", ":slots", ":ids", ":results"} <= {k.removeprefix(f"evo:t:{over}")
                                                  for k in kept}
    assert all(0 < ttl <= 2 for ttl in kept.values()), kept
    listed = tournaments.listing(None, None, 10, None)["tournaments"]
    assert [t["id"] for t in listed] == [over, running]  # newest first

    # A late note of a match's end (its finish handled again) outlives nothing.
    tournaments.store.note_ended(over, f"{over}-0")
    assert 0 < redis_client.ttl(f"evo:t:{over}:ended") <= 2
    deadline = time.monotonic() + 6
    while own_keys(redis_client, over) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert own_keys(redis_client, over) == {}
    assert tournaments.listing(None, None, 10, None)["tournaments"][0]["id"] == running
    assert redis_client.zscore("evo:t:all", over) is None  # dropped when the listing met it
    assert set(own_keys(redis_client, running).values()) == {-1}
    tournaments.store.note_ended(over, f"{over}-1")  # after its expiry: no key left behind
    assert own_keys(redis_client, over) == {}


@pytest.mark.slow  # waits out real TTLs or deadlines (in `make test`, not test-fast)
def test_a_creation_drops_expired_tournaments_from_the_listing_index(
        redis_client: redis.Redis) -> None:
    """Nobody lists: the index still keeps only what is kept (each creation prunes it)."""
    matches, tournaments, finished = services(redis_client, ttl=1)
    ended = [tournaments.create({**SPEC, "seed": seed})["id"] for seed in (1, 2)]
    drive(matches, tournaments, finished)
    assert {tournaments.load(t)["status"] for t in ended} == {"finished"}
    assert redis_client.zcard("evo:t:all") == 2 and redis_client.zcard("evo:t:expiring") == 2
    time.sleep(1.2)
    fresh = tournaments.create(SPEC)["id"]
    assert redis_client.zrange("evo:t:all", 0, -1) == [fresh]
    assert redis_client.zcard("evo:t:expiring") == 0


def test_a_cancelled_tournament_expires(redis_client: redis.Redis) -> None:
    _, tournaments, _ = services(redis_client, ttl=600)
    tid = tournaments.create(SPEC)["id"]
    assert set(own_keys(redis_client, tid).values()) == {-1}
    tournaments.cancel(tid)
    assert all(0 < ttl <= 600 for ttl in own_keys(redis_client, tid).values())


def test_a_ttl_of_zero_keeps_them(redis_client: redis.Redis) -> None:
    _, tournaments, _ = services(redis_client, ttl=0)
    tid = tournaments.create(SPEC)["id"]
    tournaments.cancel(tid)
    assert set(own_keys(redis_client, tid).values()) == {-1}
