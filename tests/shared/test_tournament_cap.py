"""The per-client cap on running tournaments holds under concurrent creations (issue 39): the
count and the reservation are one Redis step, so N creations at once from one address never
start more than the cap."""

from __future__ import annotations

import threading

import redis

from shared.domain.errors import TooManyRequests
from shared.matches.store import MatchStore
from shared.ratings.store import RatingStore
from shared.services import match_service
from shared.tournaments.limits import TournamentLimits
from shared.tournaments.service import TournamentService
from shared.tournaments.store import TournamentStore
from tests.shared.test_service import Recorder
from tests.shared.test_tournament_retention import SPEC


def test_concurrent_creations_from_one_address_never_pass_the_cap(
        redis_client: redis.Redis) -> None:
    tournaments = TournamentService(
        match_service(MatchStore(redis_client), Recorder()), TournamentStore(redis_client),
        RatingStore(redis_client), start=lambda _: None,
        limits=TournamentLimits(running_per_client=3))
    made, refused = [], []

    def create() -> None:
        try:
            made.append(tournaments.create(SPEC, client="198.51.100.4")["id"])
        except TooManyRequests:
            refused.append(1)

    threads = [threading.Thread(target=create) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert (len(made), len(refused)) == (3, 9)
    assert sorted(redis_client.hkeys("evo:t:client:198.51.100.4")) == sorted(made)
    tournaments.cancel(made[0])  # one ends: one more may start, and only one
    tournaments.create(SPEC, client="198.51.100.4")
    try:
        tournaments.create(SPEC, client="198.51.100.4")
    except TooManyRequests as refusal:
        assert refusal.headers == {"Retry-After": "60"}
    else:
        raise AssertionError("a fourth running tournament was accepted")
