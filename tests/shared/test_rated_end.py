"""A rated match's end is never lost, whatever the broker does: the write that ends it marks it
as owing its finish handling (rating, tournament tick) in the same atomic commit, and the
tournament sweep handles a mark the task sent after the commit did not clear.

The send is Celery's own sender aimed at a port where no broker listens (connection
refused). The contract runs on a single Redis and on Redis Cluster (the mark in the match's
slot, the index in another); the rarer paths on a single Redis.
"""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Callable

import pytest
import redis

from scripts.localredis import free_port
from shared.accounts.service import AccountService
from shared.infra.queue import MATCH_FINISHED_TASK, make_sender
from shared.infra.redis_client import RedisClient
from shared.matches.record import MatchRecord
from shared.matches.service import MatchService
from shared.matches.store import MatchStore, match_key
from shared.ratings import model as ratings
from shared.ratings.store import RatingStore
from shared.services import match_service
from shared.tournaments.service import TournamentService
from shared.tournaments.store import TournamentStore
from tests.shared.test_end_commit import DiesAfterTheEnd, ProcessDied
from tests.shared.test_service import Recorder
from tests.shared.test_store import record as bare_record
from tests.worker.test_tournament_scheduler import drive


@pytest.fixture(scope="module")
def dead_broker() -> Callable[[str], None]:
    """``on_finish`` as the API builds it, on a broker that refuses every connection."""
    return make_sender(f"redis://127.0.0.1:{free_port()}/0", MATCH_FINISHED_TASK)


def rated_match(matches: MatchService) -> MatchRecord:
    """A rated Savanna match between two fresh pull-bot accounts (names are unique: each
    call names its own)."""
    accounts = AccountService(matches.accounts, matches)
    suffix = secrets.token_hex(3)
    ids = [accounts.create(f"{name}-{suffix}", None)[0]["id"] for name in ("ant", "bee")]
    record, _ = matches.create_match("savanna", {}, 7, [{"kind": "account", "account": a}
                                                        for a in ids], rated=True,
                                        accepted=ids)
    return record


def play_to_the_end(matches: MatchService, match_id: str) -> dict[str, object]:
    """Play random legal moves for whichever seat owes one; the answer to the last move."""
    rng, record = random.Random(5), matches.load(match_id)
    while True:
        seat = record.to_move[0]
        move = rng.choice(matches.legal_moves(record, seat))["id"]
        answer = matches.submit_move(match_id, seat, record.version, move)
        record = matches.load(match_id)
        if record.status != "running":
            return answer


def owed(client: RedisClient, match_id: str) -> tuple[bool, bool]:
    """(the match's own mark, its entry in the global index)."""
    return (client.hget(match_key(match_id), "finish_owed") == "true",
            client.zscore("evo:finishing", match_id) is not None)


def test_a_rated_end_whose_send_fails_answers_the_mover_and_the_sweep_rates_it_once(
        store_client: RedisClient, dead_broker: Callable[[str], None]) -> None:
    matches = match_service(MatchStore(store_client), Recorder(), on_finish=dead_broker)
    tournaments = TournamentService(matches, TournamentStore(store_client),
                                    RatingStore(store_client))
    record = rated_match(matches)
    answer = play_to_the_end(matches, record.id)

    ended = matches.load(record.id)
    assert ended.status == "finished"
    assert answer["status"] == "finished" and answer["version"] == ended.version
    assert ended.finish_owed and owed(store_client, record.id) == (True, True)
    assert tournaments.ratings.rated("savanna", [record.id]) == {}

    assert tournaments.sweep(finish_grace=60) == 0  # too recent: its task may still come
    assert tournaments.ratings.rated("savanna", [record.id]) == {}
    assert tournaments.sweep(finish_grace=0, now=time.time() + 1) == 1
    rated = tournaments.ratings.rated("savanna", [record.id])[record.id]
    places = ratings.placings(ended.result["ranking"], ended.forfeited)
    expected = ratings.rate([None, None], places)
    players = [ratings.player_key(seat) for seat in ended.seats]
    assert [(rated["after"][p]["mu"], rated["after"][p]["sigma"]) for p in players] == expected
    assert owed(store_client, record.id) == (False, False)

    # Swept again, and the late task of the fast path: still rated once.
    assert tournaments.sweep(finish_grace=0, now=time.time() + 1) == 0
    tournaments.match_finished(record.id)
    assert tournaments.ratings.rated("savanna", [record.id])[record.id] == rated
    found = tournaments.ratings.ratings("savanna", players)
    assert [found[p]["matches"] for p in players] == [1, 1]
    assert owed(store_client, record.id) == (False, False)


def test_a_process_dying_right_after_a_rated_end_leaves_it_owed_and_swept(
        store_client: RedisClient) -> None:
    """The process dies as soon as the ending commit has run: nothing after it (not even
    the send) happens. The commit itself left the mark and its index entry."""
    sent: list[str] = []
    dying = match_service(DiesAfterTheEnd(store_client), Recorder(), on_finish=sent.append)
    record = rated_match(dying)
    with pytest.raises(ProcessDied):
        play_to_the_end(dying, record.id)
    assert sent == [] and owed(store_client, record.id) == (True, True)

    tournaments = TournamentService(match_service(MatchStore(store_client), Recorder()),
                                    TournamentStore(store_client), RatingStore(store_client))
    assert tournaments.sweep(finish_grace=0, now=time.time() + 1) == 1
    assert record.id in tournaments.ratings.rated("savanna", [record.id])
    assert owed(store_client, record.id) == (False, False)


def test_an_entry_of_a_live_match_stays_until_it_ends_and_an_unrated_end_is_dropped(
        redis_client: redis.Redis, dead_broker: Callable[[str], None]) -> None:
    """A write that would have ended the match but lost its compare-and-set leaves its entry
    (added before the commit) on a live match: the sweep never drops it while the match
    lives, since the entry may be that of a write about to land."""
    matches = match_service(MatchStore(redis_client), Recorder(), on_finish=dead_broker)
    tournaments = TournamentService(matches, TournamentStore(redis_client),
                                    RatingStore(redis_client))
    record = rated_match(matches)
    aborted = rated_match(matches)
    long_ago = time.time() - 60
    redis_client.zadd("evo:finishing", {record.id: long_ago, aborted.id: long_ago,
                                        "gone": long_ago})
    matches.abort(aborted.id, "its tournament was cancelled")

    assert tournaments.sweep(finish_grace=5) == 2  # the aborted match and the gone one
    assert redis_client.zrange("evo:finishing", 0, -1) == [record.id]
    assert redis_client.zscore("evo:finishing", record.id) > long_ago  # looked at later
    assert tournaments.ratings.rated("savanna", [record.id, aborted.id]) == {}

    play_to_the_end(matches, record.id)
    assert owed(redis_client, record.id) == (True, True)
    assert tournaments.sweep(finish_grace=0, now=time.time() + 1) == 1
    assert record.id in tournaments.ratings.rated("savanna", [record.id])
    assert redis_client.zrange("evo:finishing", 0, -1) == []


def test_a_match_of_a_tournament_cancelled_before_its_end_was_handled_is_still_rated(
        redis_client: redis.Redis, dead_broker: Callable[[str], None]) -> None:
    """The tournament's own tick rescues a lost end only while the tournament runs; the
    cancel scores (and rates, once) a match that ended before it, rather than calling it
    aborted, and the mark is still handled (and cleared) by the sweep, rating nothing twice.

    (Until issue 39 the cancel left it unrecorded and only the sweep rated it.)"""
    matches = match_service(MatchStore(redis_client), Recorder(), on_finish=dead_broker)
    tournaments = TournamentService(matches, TournamentStore(redis_client),
                                    RatingStore(redis_client))
    spec = {"game": "savanna", "format": "round_robin", "seats": 2, "seed": 3, "rounds": 1,
            "move_deadline": 10, "forfeit_after": 3, "concurrency": 1,
            "entrants": [{"bot": {"kind": "random"}}, {"bot": {"kind": "greedy"}}]}
    tid = tournaments.create(spec)["id"]
    drive(matches, tournaments, [])  # the first match to its end; its end is not sent
    first = tournaments.store.match_ids(tid)[0]
    assert matches.load(first).status == "finished"
    assert owed(redis_client, first) == (True, True)
    cancelled = tournaments.cancel(tid)
    tournaments.tick(tid)
    rated = tournaments.ratings.rated("savanna", [first])
    assert first in rated and cancelled["progress"]["done"] == 1
    assert tournaments.match_list(tid)[0]["status"] == "finished"
    assert owed(redis_client, first) == (True, True)

    assert tournaments.sweep(finish_grace=0, now=time.time() + 1) == 1
    assert tournaments.ratings.rated("savanna", [first]) == rated  # not rated twice
    assert owed(redis_client, first) == (False, False)


def test_a_rated_end_whose_state_expired_before_the_sweep_is_rated_from_its_kept_result(
        redis_client: redis.Redis, dead_broker: Callable[[str], None]) -> None:
    """With ``ENDED_TTL`` an ended match's state goes first and its result stays: a mark
    still owed then (the broker was away longer than that) is rated from the kept result."""
    matches = match_service(MatchStore(redis_client, ended_ttl=600, result_ttl=1200),
                           Recorder(), on_finish=dead_broker)
    tournaments = TournamentService(matches, TournamentStore(redis_client),
                                    RatingStore(redis_client))
    record = rated_match(matches)
    play_to_the_end(matches, record.id)
    ended = matches.load(record.id)
    redis_client.delete(match_key(record.id), match_key(record.id, ":tok"))  # expired
    assert matches.store.load(record.id) is None
    assert matches.store.kept_result(record.id)["result"] == ended.result

    assert tournaments.sweep(finish_grace=0, now=time.time() + 1) == 1
    rated = tournaments.ratings.rated("savanna", [record.id])[record.id]
    players = [ratings.player_key(seat) for seat in ended.seats]
    places = ratings.placings(ended.result["ranking"], ended.forfeited)
    assert [(rated["after"][p]["mu"], rated["after"][p]["sigma"]) for p in players] == \
        ratings.rate([None, None], places)
    assert redis_client.zscore("evo:finishing", record.id) is None
    assert not redis_client.exists(match_key(record.id))  # the handling recreated nothing


def test_an_end_that_cannot_be_handled_holds_up_neither_the_others_nor_the_ticks(
        redis_client: redis.Redis, dead_broker: Callable[[str], None],
        caplog: pytest.LogCaptureFixture) -> None:
    """A stored end the rating cannot read (no ranking) fails its handling: it is logged,
    kept and looked at again later; the match after it is rated all the same."""
    matches = match_service(MatchStore(redis_client), Recorder(), on_finish=dead_broker)
    tournaments = TournamentService(matches, TournamentStore(redis_client),
                                    RatingStore(redis_client))
    broken = bare_record("broken")
    broken.status, broken.rated, broken.result, broken.finish_owed = "finished", True, {}, True
    broken.updated_at -= 60  # ended first: the sweep meets it first
    matches.store.create(broken, {})
    good = rated_match(matches)
    play_to_the_end(matches, good.id)

    assert tournaments.sweep(finish_grace=0, now=time.time() + 1) == 1
    assert good.id in tournaments.ratings.rated("savanna", [good.id])
    assert redis_client.zrange("evo:finishing", 0, -1) == ["broken"]
    assert redis_client.zscore("evo:finishing", "broken") > broken.updated_at + 30
    assert "the end of match broken could not be handled" in caplog.text
