"""Quick-play pools on a real Redis (and Redis Cluster): the rating window, its widening with the
wait, bot fills, atomic matching under concurrent passes, and a formed match a dead node left
behind being created by the next pass."""

from __future__ import annotations

import threading
import time
from collections import Counter
from typing import Any

import pytest

from shared.accounts.service import AccountService, parse_networks
from shared.domain.errors import Conflict, NotFound, Unprocessable
from shared.infra.redis_client import RedisClient
from shared.matches.store import MatchStore
from shared.pools.service import PoolService, PoolSettings
from shared.pools.store import MatchRules, PoolStore
from shared.ratings.store import RatingStore
from shared.services import match_service
from tests.shared.test_service import Recorder

RULES = MatchRules(players=2, window=2.0, widen_per_second=1.0, max_window=10.0,
                   bot_fill_seconds=30.0, idle_seconds=90.0)


@pytest.fixture
def store(store_client: RedisClient) -> PoolStore:
    return PoolStore(store_client)


@pytest.fixture
def pools(store_client: RedisClient) -> tuple[PoolService, AccountService]:
    matches = match_service(MatchStore(store_client), Recorder())
    accounts = AccountService(matches.accounts, matches, parse_networks("127.0.0.0/8"))
    service = PoolService(PoolStore(store_client), matches, RatingStore(store_client).ratings,
                          PoolSettings(window=2.0, widen_per_second=0.0, max_window=2.0,
                                       bot_fill_seconds=0.0, idle_seconds=90.0))
    return service, accounts


def matched(found: list[dict[str, Any]]) -> list[list[str]]:
    return sorted(sorted(s["account"] for s in e["seats"] if s["kind"] == "account")
                  for e in found)


def test_people_within_the_window_are_matched_and_others_wait(store: PoolStore) -> None:
    for who, rating in (("a", 25.0), ("b", 26.5), ("c", 40.0)):
        store.join("p", who, rating, "", 1000.0)
    found = store.match("p", RULES, "aaaaaaaaaaaa", 1000.0)
    assert matched(found) == [["a", "b"]]
    assert store.touch("p", "a", 1000.0)[0]["status"] == "matched"  # type: ignore[index]
    assert store.touch("p", "c", 1000.0)[0]["status"] == "waiting"  # type: ignore[index]
    assert store.waiting_counts(["p"]) == [1]


def test_the_window_widens_with_the_wait_of_both(store: PoolStore) -> None:
    store.join("p", "a", 20.0, "", 1000.0)
    store.join("p", "b", 26.0, "", 1000.0)  # 6 apart: a window of 2 + 1/s needs 4 s each
    assert store.match("p", RULES, "aaaaaaaaaaaa", 1003.0) == []
    store.join("p", "c", 26.0, "", 1003.5)
    store.leave("p", "b", 1003.5)
    # a has waited long enough, c has not: both windows must hold the gap.
    assert store.match("p", RULES, "aaaaaaaaaaaa", 1005.0) == []
    assert matched(store.match("p", RULES, "aaaaaaaaaaaa", 1007.5)) == [["a", "c"]]


def test_the_nearest_rating_is_chosen(store: PoolStore) -> None:
    for who, rating in (("a", 25.0), ("far", 26.9), ("near", 25.3)):
        store.join("p", who, rating, "", 1000.0)
    assert matched(store.match("p", RULES, "aaaaaaaaaaaa", 1000.0)) == [["a", "near"]]


def test_a_bot_fills_the_seat_after_the_wait_only_for_those_who_chose_it(
        store: PoolStore) -> None:
    rules = MatchRules(players=3, window=1.0, widen_per_second=0.0, max_window=1.0,
                       bot_fill_seconds=30.0, idle_seconds=90.0)
    store.join("p", "a", 25.0, "easy", 1000.0)
    store.join("p", "b", 25.5, "", 1000.0)  # no bots for b
    assert store.match("p", rules, "aaaaaaaaaaaa", 1029.0) == []
    [entry] = store.match("p", rules, "aaaaaaaaaaaa", 1030.0)
    assert [s["kind"] for s in entry["seats"]] == ["account", "bot", "bot"]
    assert entry["seats"][1]["bot"] == {"kind": "ismcts", "level": "easy"}
    assert store.touch("p", "b", 1030.0)[0]["status"] == "waiting"  # type: ignore[index]


def test_a_ticket_nobody_polls_is_dropped(store: PoolStore) -> None:
    store.join("p", "a", 25.0, "", 1000.0)
    store.touch("p", "a", 1080.0)
    store.join("p", "b", 25.0, "", 1100.0)
    assert store.match("p", RULES, "aaaaaaaaaaaa", 1171.0) == []  # a last polled at 1080
    assert store.touch("p", "a", 1171.0)[0]["status"] == "dropped"  # type: ignore[index]


def test_concurrent_passes_never_match_anyone_twice(store: PoolStore) -> None:
    people = 120
    for i in range(people):
        store.join("p", f"p{i}", 20.0 + (i % 13) * 0.7, "", 1000.0)
    found: list[dict[str, Any]] = []
    lock = threading.Lock()

    def one_pass(n: int) -> None:
        got = store.match("p", RULES, f"{n:012x}", 1000.0 + n * 0.5)
        with lock:
            found.extend(got)

    threads = [threading.Thread(target=one_pass, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    unique = {e["id"]: e for e in found}  # a pass also returns the pending ones left to it
    seated = Counter(a for group in matched(list(unique.values())) for a in group)
    assert seated and max(seated.values()) == 1
    waiting = store.waiting_counts(["p"])[0]
    assert len(seated) + waiting == people


def test_two_people_join_and_get_one_rated_match_with_their_seats_taken(
        pools: tuple[PoolService, AccountService]) -> None:
    service, accounts = pools
    a, _ = accounts.create("ada", None)
    b, _ = accounts.create("bob", None)
    new, first = service.join(a["id"], "darwinning", 2, {}, None)
    assert new and first["status"] == "waiting" and first["options"]["edition"] == "2.2"
    # The options are canonicalised by the game: the defaults spelled out are the same pool.
    _, second = service.join(b["id"], "darwinning", 2, {"edition": "2.2", "eras": 3}, None)
    assert second["pool"] == first["pool"] and second["status"] == "matched"
    mine = service.status(a["id"])
    assert mine["match"] == second["match"] and {mine["seat"], second["seat"]} == {0, 1}
    record = service.matches.load(mine["match"])
    assert record.rated and record.status == "running"
    assert sorted(s["account"] for s in record.seats) == sorted([a["id"], b["id"]])
    assert all(s["joined"] for s in record.seats)
    with pytest.raises(Conflict):
        service.leave(a["id"])
    assert service.listing("darwinning") == [{**{k: first[k] for k in (
        "pool", "game", "players", "options")}, "waiting": 0}]


def test_one_pool_at_a_time_and_leaving(pools: tuple[PoolService, AccountService]) -> None:
    service, accounts = pools
    service.settings = PoolSettings(bot_fill_seconds=60.0)
    a, _ = accounts.create("ada", None)
    service.join(a["id"], "savanna", 2, None, None)
    with pytest.raises(Conflict):
        service.join(a["id"], "savanna", 3, None, None)
    again, ticket = service.join(a["id"], "savanna", 2, None, "hard")  # the bot choice changes
    assert not again and ticket["bot_fill"] == "hard"
    assert service.leave(a["id"])["status"] == "left"
    service.join(a["id"], "savanna", 3, None, None)  # free to wait elsewhere now
    with pytest.raises(Unprocessable):
        service.join(a["id"], "darwinning", 2, {"edition": "9"}, None)
    with pytest.raises(Unprocessable):
        service.join(a["id"], "savanna", 9, None, None)
    b, _ = accounts.create("bob", None)
    with pytest.raises(NotFound):
        service.status(b["id"])


def test_a_formed_match_a_dead_node_left_is_created_by_the_next_pass(
        pools: tuple[PoolService, AccountService]) -> None:
    service, accounts = pools
    a, _ = accounts.create("ada", None)
    pool, _ = service.resolve("savanna", 2, None)
    service.join(a["id"], "savanna", 2, None, "easy")  # bot fill after 0 s: made at once
    assert service.status(a["id"])["status"] == "matched"
    b, _ = accounts.create("bob", None)
    c, _ = accounts.create("cy", None)
    for who in (b, c):
        service.store.claim(who["id"], pool)
        service.store.join(pool, who["id"], 25.0, "", time.time() - 10)
    # A node forms the match, then dies before creating it (6 s ago: older than ``stale``).
    [entry] = service.store.match(pool, service._rules(2), "deaddeaddead", time.time() - 6)
    assert service.status(b["id"])["status"] == "forming"
    assert service.sweep() == 1
    ticket = service.status(b["id"])
    assert ticket["status"] == "matched" and ticket["match"] == entry["id"]
    assert service.matches.load(entry["id"]).status == "running"
    # With no worker, the long-poll of a ticket left forming creates its match too.
    d, _ = accounts.create("di", None)
    e, _ = accounts.create("ed", None)
    for who in (d, e):
        service.store.claim(who["id"], pool)
        service.store.join(pool, who["id"], 25.0, "", time.time() - 10)
    [entry] = service.store.match(pool, service._rules(2), "deaddeadbeef", time.time() - 6)
    ticket = service.status(d["id"], wait=1)
    assert ticket["status"] == "matched" and ticket["match"] == entry["id"]
