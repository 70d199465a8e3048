"""Duplicate play without leaks (issue 39): the matches of one deal share a seed, so nothing
derived from it (the seed, the complete log, a spectator's or a finished match's view, the
kept result, the tournament's per-slot seed) is shown until every match of the deal is over.
In-process against a real Redis, the queue a list the test drains (the Celery path is in
tests/integration/test_tournaments_http.py)."""

from __future__ import annotations

import hashlib
from typing import Any

from shared.bots import turns
from shared.infra.redis_client import RedisClient
from shared.matches.service import MatchService
from shared.matches.store import MatchStore, match_key
from shared.ratings.store import RatingStore
from shared.services import match_service
from shared.tournaments.service import TournamentService
from shared.tournaments.store import TournamentStore
from tests.shared.test_service import Recorder

SPEC = {"game": "savanna", "format": "round_robin", "seats": 2, "rounds": 1,
        "move_deadline": 10, "forfeit_after": 3,
        "entrants": [{"bot": {"kind": "random"}}, {"bot": {"kind": "greedy"}}]}


def services(client: RedisClient, ended_ttl: int = 0
             ) -> tuple[MatchService, TournamentService, list[str]]:
    ended: list[str] = []
    store = MatchStore(client, ended_ttl=ended_ttl, result_ttl=2 * ended_ttl)
    matches = match_service(store, Recorder(), on_finish=ended.append)
    return matches, TournamentService(matches, TournamentStore(client),
                                      RatingStore(client)), ended


def play(matches: MatchService, tournaments: TournamentService, ended: list[str],
         only: str | None = None) -> None:
    """Play the queued bot turns (of match ``only``, if given) and handle the ends."""
    queue: Recorder = matches.enqueue  # type: ignore[assignment]
    while True:
        mine = [call for call in queue.calls if only is None or call[0] == only]
        if not mine and not ended:
            return
        for call in mine:
            queue.calls.remove(call)
            turns.play_bot_turn(matches, *call, lease_seconds=5)
        while ended:
            tournaments.match_finished(ended.pop(0))


def assert_sealed(matches: MatchService, tournaments: TournamentService, tid: str,
                  match_id: str) -> None:
    """Nothing a spectator reads of ``match_id`` carries its deal."""
    found = matches.read(match_id)
    shown = found if isinstance(found, dict) else matches.describe(found, None)
    assert shown["seed"] is None and shown["view"] is None
    assert shown.get("sealed") is True
    log: dict[str, Any]
    if isinstance(found, dict):
        log = matches.kept_events(found)
    else:
        log = {"redacted": True, "events": matches.events(found, None)}
    assert log["redacted"] is True
    assert all(e["events"] == [] and "move" not in e for e in log["events"])
    deal = next(m for m in tournaments.match_list(tid) if m["match"] == match_id)["deal"]
    assert all(m["seed"] is None for m in tournaments.match_list(tid) if m["deal"] == deal)


def assert_revealed(matches: MatchService, match_id: str) -> None:
    found = matches.read(match_id)
    shown = found if isinstance(found, dict) else matches.describe(found, None)
    assert shown["sealed"] is False and shown["view"] is not None
    commitment = hashlib.sha256(f"evo-arena:{match_id}:{shown['seed']}".encode()).hexdigest()
    assert shown["seed_commitment"] == commitment
    log: dict[str, Any] = (matches.kept_events(found) if isinstance(found, dict) else
                           {"redacted": False, "events": matches.events(found, None)})
    assert log["redacted"] is False and any("move" in e for e in log["events"])


def test_with_concurrency_1_a_finished_match_hides_its_deal_while_its_twin_plays(
        store_client: RedisClient) -> None:
    matches, tournaments, ended = services(store_client)
    tid = tournaments.create({**SPEC, "concurrency": 1})["id"]
    first = f"{tid}-0"
    play(matches, tournaments, ended, only=first)
    assert matches.load(first).status == "finished"
    twin = matches.load(f"{tid}-1")
    assert twin.status == "running"
    assert_sealed(matches, tournaments, tid, first)
    assert_sealed(matches, tournaments, tid, twin.id)
    # A seat still plays from its own view; a finished sealed match shows a seat no view.
    seat_view = matches.describe(twin, twin.to_move[0])
    assert seat_view["view"] is not None and seat_view["seed"] is None
    assert matches.describe(matches.load(first), 0)["view"] is None
    play(matches, tournaments, ended)
    assert tournaments.describe(tid)["status"] == "finished"
    for match_id in (first, twin.id):
        assert_revealed(matches, match_id)
    assert all(isinstance(m["seed"], int) for m in tournaments.match_list(tid))


def test_with_concurrency_2_a_spectator_of_either_twin_sees_no_card(
        store_client: RedisClient) -> None:
    matches, tournaments, ended = services(store_client)
    tid = tournaments.create({**SPEC, "concurrency": 2})["id"]
    queue: Recorder = matches.enqueue  # type: ignore[assignment]
    for _ in range(6):  # both twins under way at once
        for call in list(queue.calls):
            queue.calls.remove(call)
            turns.play_bot_turn(matches, *call, lease_seconds=5)
    for match_id in (f"{tid}-0", f"{tid}-1"):
        record = matches.load(match_id)
        assert record.status == "running" and record.version > 3
        assert_sealed(matches, tournaments, tid, match_id)
    play(matches, tournaments, ended)
    for match_id in (f"{tid}-0", f"{tid}-1"):
        assert_revealed(matches, match_id)


def test_a_sealed_match_whose_state_expired_is_kept_sealed_then_unsealed(
        store_client: RedisClient) -> None:
    """``ENDED_TTL`` passed before the twin ended: the kept result and log stay withheld,
    and the unsealing reaches them."""
    matches, tournaments, ended = services(store_client, ended_ttl=3600)
    tid = tournaments.create({**SPEC, "concurrency": 1})["id"]
    first = f"{tid}-0"
    play(matches, tournaments, ended, only=first)
    store_client.delete(match_key(first), match_key(first, ":tok"))  # what its TTL does
    kept: Any = matches.read(first)
    assert kept["archived"] is True
    assert_sealed(matches, tournaments, tid, first)
    play(matches, tournaments, ended)
    assert_revealed(matches, first)


def test_a_cancelled_tournament_unseals_and_reports_its_aborted_match(
        store_client: RedisClient) -> None:
    matches, tournaments, ended = services(store_client)
    tid = tournaments.create({**SPEC, "concurrency": 1})["id"]
    first = f"{tid}-0"
    play(matches, tournaments, ended, only=first)  # the twin starts and stays unplayed
    cancelled = tournaments.cancel(tid)
    assert cancelled["progress"]["running"] == 0 and cancelled["progress"]["aborted"] == 1
    assert [m["status"] for m in tournaments.match_list(tid)] == ["finished", "aborted"]
    assert matches.load(f"{tid}-1").status == "aborted"
    assert_revealed(matches, first)
