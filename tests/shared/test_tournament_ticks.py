"""An idle tournament tick costs the same few Redis round trips whatever the number of running
matches: it learns which matches ended from the ends the finish handling noted, not by
reloading every running match."""

from __future__ import annotations

import redis

from bench.round_trips import RoundTrips
from shared.matches.store import MatchStore
from shared.ratings.store import RatingStore
from shared.services import match_service
from shared.tournaments.service import TournamentService
from shared.tournaments.store import TournamentStore
from tests.shared.test_service import Recorder

#: The idle tick's round trips on a single Redis: lock (with the dirty mark), take the mark,
#: read the tournament (one pipeline), take the mark again, unlock (with the last check).
IDLE_TICK_ROUND_TRIPS = 5


def idle_tick_round_trips(tournaments: TournamentService, running: int) -> int:
    """Round trips of a tick of a tournament with ``running`` matches running, no news."""
    entrants = [{"bot": {"kind": "random"}} for _ in range(2 * running)]
    tid = tournaments.create({"game": "savanna", "format": "round_robin", "seats": 2,
                              "seed": 1, "rounds": 1, "move_deadline": 10,
                              "forfeit_after": 3, "concurrency": running,
                              "entrants": entrants})["id"]  # its first tick starts them
    assert tournaments.describe(tid)["progress"]["running"] == running
    tournaments.tick(tid)
    with RoundTrips() as trips:
        tournaments.tick(tid)
    assert tournaments.describe(tid)["progress"]["running"] == running
    return trips.count


def test_an_idle_tick_costs_the_same_round_trips_with_1_and_8_running_matches(
        redis_client: redis.Redis) -> None:
    tournaments = TournamentService(match_service(MatchStore(redis_client), Recorder()),
                                    TournamentStore(redis_client), RatingStore(redis_client))
    one, eight = idle_tick_round_trips(tournaments, 1), idle_tick_round_trips(tournaments, 8)
    assert one == eight == IDLE_TICK_ROUND_TRIPS


def test_a_noted_end_is_recorded_by_the_next_tick(redis_client: redis.Redis) -> None:
    """The finish handling notes the end; the tick records its outcome and drops the note."""
    finished: list[str] = []
    matches = match_service(MatchStore(redis_client), Recorder(), on_finish=finished.append)
    tournaments = TournamentService(matches, TournamentStore(redis_client),
                                    RatingStore(redis_client))
    tid = tournaments.create({"game": "savanna", "format": "round_robin", "seats": 2,
                              "seed": 2, "rounds": 1, "move_deadline": 10, "forfeit_after": 3,
                              "concurrency": 1, "entrants": [{"bot": {"kind": "random"}}] * 2}
                             )["id"]
    match_id = tournaments.store.match_ids(tid)[0]
    while (record := matches.load(match_id)).status == "running":
        seat = record.to_move[0]
        matches.submit_move(match_id, seat, record.version,
                             matches.legal_moves(record, seat)[0]["id"])
    tournaments.tick(tid)  # the end not yet handled: nothing recorded
    assert tournaments.store.results(tid) == {}
    assert finished == [match_id]
    tournaments.match_finished(match_id)
    assert tournaments.store.results(tid)[0]["match"] == match_id
    assert tournaments.store.snapshot(tid).ended == set()
    assert tournaments.describe(tid)["progress"]["running"] == 1  # the next match started
