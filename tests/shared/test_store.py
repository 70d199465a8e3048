"""The Redis store directly: compare-and-set, leases, waiting for a change."""

from __future__ import annotations

import threading
import time

from shared.infra.redis_client import RedisClient
from shared.matches.record import MatchRecord
from shared.matches.store import MatchStore


def record(match_id: str = "m1", version: int = 1) -> MatchRecord:
    now = time.time()
    return MatchRecord(id=match_id, game="savanna", rules_version="savanna-1", options={},
                       seed=1, seats=[], status="running", version=version, state="{}",
                       rng="[]", result=None, to_move=[0], created_at=now, updated_at=now)


def test_commit_is_a_compare_and_set(store_client: RedisClient) -> None:
    store = MatchStore(store_client)
    store.create(record(), {})
    newer = record(version=2)
    assert store.commit(newer, 1, [{"version": 2, "events": []}])
    assert not store.commit(record(version=3), 1, [{"version": 3, "events": []}])
    assert store.version("m1") == 2
    assert [e["version"] for e in store.log("m1")] == [2]


def test_finished_match_leaves_the_active_set(store_client: RedisClient) -> None:
    store = MatchStore(store_client)
    store.create(record(), {})
    assert store.stale_matches(time.time() + 1) == ["m1"]
    done = record(version=2)
    done.status = "finished"
    assert store.commit(done, 1)
    assert store.stale_matches(time.time() + 1) == []


def test_bot_lease_is_exclusive_and_expires(store_client: RedisClient) -> None:
    store = MatchStore(store_client)
    assert store.claim_bot_turn("m1", 1, 5, ttl=0.2)
    assert not store.claim_bot_turn("m1", 1, 5, ttl=0.2)
    assert store.bot_turn_claimed("m1", 1, 5)
    time.sleep(0.3)
    assert store.claim_bot_turn("m1", 1, 5, ttl=0.2)


def test_wait_for_change_wakes_on_commit(store_client: RedisClient) -> None:
    store = MatchStore(store_client)
    store.create(record(), {})
    timer = threading.Timer(0.2, lambda: store.commit(record(version=2), 1))
    timer.start()
    started = time.monotonic()
    assert store.wait_for_change("m1", 1, timeout=20) == 2
    waited = time.monotonic() - started
    timer.join()
    # Woken by the commit's publish, not by the timeout's last look: without the PUBLISH in
    # _COMMIT the waiter still sees version 2, but only after the whole 20 s. The bound is
    # generous (the commit lands at 0.2 s), so a busy machine does not fail it.
    assert waited < 2.0, f"woke after {waited:.1f} s: the commit did not wake the waiter"
    assert store.wait_for_change("m1", 2, timeout=0.1) == 2  # timed out, unchanged
    assert store.wait_for_change("missing", 1, timeout=0.1) is None
