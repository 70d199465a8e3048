"""Ratings: forfeits rank last, match points, OpenSkill's numbers, each match rated once."""

from __future__ import annotations

import threading

import pytest
from openskill.models import PlackettLuce

from shared.infra.redis_client import RedisClient
from shared.ratings import model as ratings
from shared.ratings.store import RatingStore


def test_placings_put_forfeited_seats_last_and_keep_ties() -> None:
    assert ratings.placings([1, 2, 3]) == [1, 2, 3]
    assert ratings.placings([1, 2, 3], [0]) == [3, 1, 2]
    assert ratings.placings([1, 1, 3, 4], [3]) == [1, 1, 3, 4]
    assert ratings.placings([2, 1, 1, 4], [1, 2]) == [1, 3, 3, 2]
    assert ratings.points([1, 2], 0) == 1.0 and ratings.points([1, 1], 1) == 0.5
    assert ratings.points([2, 1, 2, 4], 0) == pytest.approx((1 + 0.5) / 3)


def test_player_keys_name_accounts_and_bot_levels() -> None:
    assert ratings.player_key({"kind": "bot", "bot": {"kind": "random"}}) == "bot:random"
    assert ratings.player_key({"kind": "bot", "bot": {"kind": "ismcts", "level": "easy"}}) \
        == "bot:ismcts:easy"
    assert ratings.player_key({"kind": "bot", "bot": {
        "kind": "ismcts", "level": "custom", "simulations": 50}}) == "bot:ismcts:sims50"
    assert ratings.player_key({"kind": "account", "account": "ab12"}) == "account:ab12"
    assert ratings.player_key({"kind": "human"}) is None
    assert ratings.player_name({"kind": "bot", "bot": {"kind": "ismcts", "level": "easy"}}) \
        == "ismcts easy"


def test_rate_is_openskill_plackett_luce() -> None:
    model = PlackettLuce()
    a, b, c = model.rating(mu=30, sigma=5), model.rating(), model.rating(mu=20, sigma=3)
    expected = model.rate([[a], [b], [c]], ranks=[2, 1, 2])
    got = ratings.rate([{"mu": 30, "sigma": 5}, None, {"mu": 20, "sigma": 3}], [2, 1, 2])
    assert got == [(t[0].mu, t[0].sigma) for t in expected]


def test_a_match_is_rated_once_even_when_many_workers_see_it_finish(
        store_client: RedisClient) -> None:
    # Two accounts: built-in bots are anchors now, which no match moves (test_anchors.py).
    store = RatingStore(store_client)
    players = [("account:lo", "lo"), ("account:hi", "hi")]
    records = []

    def rate(match_id: str) -> None:
        records.append(store.rate_once("savanna", match_id, players,
                                       lambda current: ratings.rate(current, [2, 1])))

    threads = [threading.Thread(target=rate, args=(f"m{i % 3}",)) for i in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len({r["seq"] for r in records}) == 3  # three matches, each rated once
    board = dict(store.leaderboard("savanna", 10))
    assert board["account:lo"]["matches"] == board["account:hi"]["matches"] == 3
    model = PlackettLuce()
    loser, winner = model.rating(), model.rating()
    for _ in range(3):
        [[loser], [winner]] = model.rate([[loser], [winner]], ranks=[2, 1])
    assert board["account:hi"]["mu"] == pytest.approx(winner.mu)
    assert board["account:lo"]["sigma"] == pytest.approx(loser.sigma)
    assert [key for key, _ in store.leaderboard("savanna", 10)] == ["account:hi", "account:lo"]
