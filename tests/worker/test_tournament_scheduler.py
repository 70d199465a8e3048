"""The tournament scheduler in-process against a real Redis: the queue replaced by a list the
test drains (the Celery path is in the integration tests)."""

from __future__ import annotations

import time

import redis

from shared.bots import turns
from shared.infra.redis_client import RedisClient
from shared.matches.service import MatchService
from shared.matches.store import MatchStore, match_key
from shared.ratings.store import RatingStore
from shared.services import match_service
from shared.tournaments.service import TournamentService
from shared.tournaments.store import TournamentStore
from tests.shared.test_service import Recorder


def drive(matches: MatchService, tournaments: TournamentService, finished: list[str]) -> None:
    """Play every enqueued bot turn and report every finished match, until nothing is left."""
    queue: Recorder = matches.enqueue  # type: ignore[assignment]
    while queue.calls or finished:
        while queue.calls:
            turns.play_bot_turn(matches, *queue.calls.pop(0), lease_seconds=5)
        while finished:
            tournaments.match_finished(finished.pop(0))


def test_a_round_robin_runs_to_the_end_and_a_slot_is_never_played_twice(
        store_client: RedisClient) -> None:
    finished: list[str] = []
    matches = match_service(MatchStore(store_client), Recorder(), on_finish=finished.append)
    tournaments = TournamentService(matches, TournamentStore(store_client),
                                    RatingStore(store_client))
    spec = {"game": "savanna", "format": "round_robin", "seats": 2, "seed": 3, "rounds": 1,
            "move_deadline": 10, "forfeit_after": 3, "concurrency": 2,
            "entrants": [{"bot": {"kind": "random"}}, {"bot": {"kind": "greedy"}},
                         {"bot": {"kind": "ismcts", "simulations": 3}}]}
    created = tournaments.create(spec)  # no start hook: the first tick runs in-process
    tid = created["id"]
    assert len(tournaments.store.match_ids(tid)) == 2  # its concurrency
    # A scheduler that died after claiming a slot's id: the next tick creates that match,
    # and creating an existing match changes nothing.
    tournaments.store.claim_match_id(tid, 2, f"{tid}-2")
    first = matches.store.load(f"{tid}-0")
    assert first is not None
    again, tokens = matches.create_match("savanna", {}, first.seed, [
        {"kind": "bot", "bot": {"kind": "random"}}] * 2, match_id=first.id)
    assert again.to_fields() == first.to_fields() and tokens == {}
    tournaments.tick(tid)
    assert matches.store.load(f"{tid}-2") is not None
    drive(matches, tournaments, finished)
    final = tournaments.describe(tid)
    assert final["status"] == "finished" and final["progress"]["done"] == 6
    assert sorted(tournaments.store.match_ids(tid).values()) == [f"{tid}-{n}" for n in range(6)]
    assert sum(row["points"] for row in final["standings"]) == 6
    assert [row["rating"]["matches"] for row in final["standings"]] == [4, 4, 4]
    tournaments.tick(tid)  # a late tick of a finished tournament changes nothing
    assert tournaments.describe(tid)["version"] == final["version"]


def test_a_server_drawn_seed_stays_secret_until_the_matches_are_over(
        redis_client: redis.Redis) -> None:
    """Every deal derives from the tournament's seed: an entrant who read it while matches
    run could foresee the hidden cards, so a seed the server drew is shown only once over."""
    finished: list[str] = []
    matches = match_service(MatchStore(redis_client), Recorder(), on_finish=finished.append)
    tournaments = TournamentService(matches, TournamentStore(redis_client),
                                    RatingStore(redis_client))
    spec = {"game": "savanna", "format": "round_robin", "seats": 2, "rounds": 1,
            "move_deadline": 10, "forfeit_after": 3, "concurrency": 1,
            "entrants": [{"bot": {"kind": "random"}}, {"bot": {"kind": "random"}}]}
    tid = tournaments.create(spec)["id"]
    running = tournaments.describe(tid)
    assert running["seed"] is None and running["seeded"] is False
    assert [m["seed"] for m in tournaments.match_list(tid)] == [None, None]
    drive(matches, tournaments, finished)
    over = tournaments.describe(tid)
    assert over["status"] == "finished" and isinstance(over["seed"], int)
    assert all(isinstance(m["seed"], int) for m in tournaments.match_list(tid))
    # A creator-chosen seed is hidden alike while the tournament runs (issue 39: the creator
    # is not every entrant; before, it was shown from the start), and flagged ``seeded``.
    chosen = tournaments.create({**spec, "seed": 11})
    shown = tournaments.describe(chosen["id"])
    assert shown["seed"] is None and shown["seeded"] is True
    assert [m["seed"] for m in tournaments.match_list(chosen["id"])] == [None, None]
    drive(matches, tournaments, finished)
    assert tournaments.describe(chosen["id"])["seed"] == 11


def test_a_match_whose_state_expired_before_its_tick_is_scored_from_its_kept_result(
        store_client: RedisClient) -> None:
    """Every worker down for longer than ``ENDED_TTL`` after a match's end: its state is gone
    when the periodic sweep comes (the end's own task was lost). The sweep handles the end it
    still owes and ticks: the tick scores it from the result kept after its end (rated
    once), never plays the slot again, and the tournament goes on to its end."""
    ended: list[str] = []
    store = MatchStore(store_client, ended_ttl=3600, result_ttl=7200)
    matches = match_service(store, Recorder(), on_finish=ended.append)
    tournaments = TournamentService(matches, TournamentStore(store_client),
                                    RatingStore(store_client))
    spec = {"game": "savanna", "format": "round_robin", "seats": 2, "seed": 5, "rounds": 1,
            "move_deadline": 10, "forfeit_after": 3, "concurrency": 1,
            "entrants": [{"bot": {"kind": "random"}}, {"bot": {"kind": "greedy"}},
                         {"bot": {"kind": "ismcts", "simulations": 3}}]}
    tid = tournaments.create(spec)["id"]
    queue: Recorder = matches.enqueue  # type: ignore[assignment]
    expired: list[str] = []
    while queue.calls:
        while queue.calls:
            turns.play_bot_turn(matches, *queue.calls.pop(0), lease_seconds=5)
        for match_id in ended:  # what the end's TTL does (the end's own task was lost)
            assert store.kept_result(match_id) is not None
            store_client.delete(match_key(match_id), match_key(match_id, ":tok"))
            expired.append(match_id)
        ended.clear()
        tournaments.sweep(finish_grace=0, now=time.time() + 1)
    final = tournaments.describe(tid)
    assert final["status"] == "finished" and final["progress"]["done"] == 6
    assert sorted(expired) == [f"{tid}-{n}" for n in range(6)]
    assert all(store.version(match_id) is None for match_id in expired)  # none replayed
    assert [row["rating"]["matches"] for row in final["standings"]] == [4, 4, 4]
    assert [m["result"]["ranking"] for m in tournaments.match_list(tid)] == [
        store.kept_result(match_id)["result"]["ranking"] for match_id in sorted(expired)]
