"""The store on Redis Cluster: one slot per match, global indexes repaired by the sweep, writes
that wait for a replica."""

from __future__ import annotations

import random
import threading
import time

import pytest
import redis
from redis.crc import key_slot

from scripts.localcluster import LocalCluster
from shared.bots import turns
from shared.infra.rate_limit import RateLimiter
from shared.infra.redis_client import RedisClient, connect
from shared.matches.bot_cap import BotWorkCap
from shared.matches.store import MatchStore, match_key
from shared.services import match_service
from tests.shared.test_seeds import play_out
from tests.shared.test_service import Recorder

HUMANS = [{"kind": "human"}, {"kind": "human"}]


def test_every_key_of_a_match_shares_one_slot(store_client: RedisClient) -> None:
    service = match_service(MatchStore(store_client), Recorder(), idempotency_ttl=60)
    record, _ = service.create_match("savanna", {}, 3, [{"kind": "human"},
                                                        {"kind": "bot", "bot": {"kind": "random"}}])
    move = service.legal_moves(record, 0)[0]["move"]
    service.submit_move(record.id, 0, record.version, move, idempotency_key="k")
    service.store.claim_bot_turn(record.id, 1, record.version + 1, ttl=5)
    service.store.mark_turn_queued(record.id, 1, record.version + 1, ttl=5)
    service.store.claim_hint(record.id, 1, record.version + 1, ttl=5)
    service.store.keep_hint(record.id, 1, record.version + 1, {"move_id": "x"}, ttl=5)
    keys = list(store_client.scan_iter(match=match_key(record.id) + "*"))
    suffixes = {key[len(match_key(record.id)):].split(":")[1] for key in keys if ":" in
                key[len(match_key(record.id)):]}
    assert {"log", "tok", "idem", "lease", "queued", "hint", "hintq"} <= suffixes
    assert len({key_slot(key.encode()) for key in keys}) == 1


def test_the_sweep_drops_an_ended_match_an_older_writer_put_back(
        store_client: RedisClient) -> None:
    """The active index is written after the match's own commit: a writer that lost the race
    can re-add a match a newer writer ended; the sweep removes it instead of keeping it."""
    service = match_service(MatchStore(store_client), Recorder())
    record, tokens = service.create_match("savanna", {}, 4, HUMANS)
    play_out(service, record.id, tokens, random.Random(2))
    assert store_client.zscore("evo:active", record.id) is None
    store_client.zadd("evo:active", {record.id: time.time() - 60})  # the late writer
    store_client.zadd("evo:active", {"gone": time.time() - 60})  # a match whose keys expired
    turns.sweep(service, stale_after=1)
    assert store_client.zrange("evo:active", 0, -1) == []


def test_a_running_match_stays_active_through_the_sweep(store_client: RedisClient) -> None:
    service = match_service(MatchStore(store_client), Recorder())
    record, _ = service.create_match("savanna", {}, 4, HUMANS)
    store_client.zadd("evo:active", {record.id: time.time() - 60})
    turns.sweep(service, stale_after=1)
    assert store_client.zscore("evo:active", record.id) is not None


def _replica_of(cluster: LocalCluster, client: RedisClient, key: str) -> redis.Redis:
    master = client.get_node_from_key(key)
    nodes = redis.Redis(port=master.port, decode_responses=True).execute_command(
        "CLUSTER NODES")
    master_id = next(n["node_id"] for a, n in nodes.items() if "myself" in n["flags"])
    replica = next(a for a, n in nodes.items() if n["master_id"] == master_id)
    return redis.Redis(port=int(replica.split("@")[0].rsplit(":", 1)[1]),
                       decode_responses=True)


@pytest.mark.slow  # starts the Redis Cluster
@pytest.mark.xdist_group("redis-cluster")
def test_a_write_is_answered_once_its_replica_has_it(redis_cluster: LocalCluster) -> None:
    """With ``replica_acks`` the commit's WAIT runs on the connection that wrote (a WAIT on
    any other connection returns at once): held up while the replica is busy, and then the
    replica holds the move, so a failover right after the answer cannot lose it."""
    client = connect("", redis_cluster.nodes)
    client.flushall()
    service = match_service(MatchStore(client, replica_acks=1), Recorder())
    record, _ = service.create_match("savanna", {}, 6, HUMANS)
    replica = _replica_of(redis_cluster, client, match_key(record.id))
    busy = threading.Thread(target=lambda: replica.execute_command("DEBUG", "SLEEP", "0.4"))
    busy.start()
    time.sleep(0.05)
    started = time.monotonic()
    move = service.legal_moves(record, 0)[0]["move"]
    service.submit_move(record.id, 0, record.version, move)
    waited = time.monotonic() - started
    busy.join()
    assert waited >= 0.25
    replica.execute_command("READONLY")
    assert replica.hget(match_key(record.id), "version") == str(record.version + 1)
    assert replica.llen(match_key(record.id, ":log")) == 1
    client.close()


@pytest.mark.slow  # starts the Redis Cluster
@pytest.mark.xdist_group("redis-cluster")
def test_a_master_without_a_live_replica_is_written_without_waiting(
        redis_cluster: LocalCluster) -> None:
    """Degraded (its replica down, or just promoted by a failover), a master's writes would
    each wait the whole WAIT timeout: after one write that timed out, the next go at once."""
    client = connect("", redis_cluster.nodes)
    client.flushall()
    service = match_service(MatchStore(client, replica_acks=1), Recorder())
    record, _ = service.create_match("savanna", {}, 7, HUMANS)
    replica = _replica_of(redis_cluster, client, match_key(record.id))
    busy = threading.Thread(target=lambda: replica.execute_command("DEBUG", "SLEEP", "2"))
    busy.start()
    time.sleep(0.05)
    durations = []
    for seat in (0, 1):
        current = service.load(record.id)
        move = service.legal_moves(current, seat)[0]["move"]
        started = time.monotonic()
        service.submit_move(record.id, seat, current.version, move)
        durations.append(time.monotonic() - started)
    busy.join()
    assert durations[0] >= 0.4 and durations[1] < 0.4, durations
    client.close()


def test_rate_limits_and_the_bot_cap_work_on_either_store(store_client: RedisClient) -> None:
    limiter = RateLimiter(store_client)
    assert [limiter.hit("moves", "192.0.2.9", 2) == 0 for _ in range(3)] == [True, True, False]
    service = match_service(MatchStore(store_client), Recorder())
    record, _ = service.create_match("savanna", {}, 5, [{"kind": "bot", "bot": {
        "kind": "random"}}] * 2)
    cap = BotWorkCap(MatchStore(store_client))
    assert cap.reserve("192.0.2.9", record.id, 2, cap=4) is None
    assert cap.reserve("192.0.2.9", "next", 3, cap=4) == 2  # 2 live + 3 would pass 4


def test_a_hints_answer_wakes_its_waiter_on_either_store(store_client: RedisClient) -> None:
    store = MatchStore(store_client)
    assert store.claim_hint("m-h", 0, 4, ttl=30) and not store.claim_hint("m-h", 0, 4, ttl=30)
    assert store.wait_for_hint("m-h", 0, 4, timeout=0.1) is None
    timer = threading.Timer(0.3, store.keep_hint, ("m-h", 0, 4, {"move_id": "pick:x"}, 30))
    timer.start()
    started = time.monotonic()
    try:
        assert store.wait_for_hint("m-h", 0, 4, timeout=10) == {"move_id": "pick:x"}
    finally:
        timer.join()
    assert time.monotonic() - started < 5  # woken by the announcement, not the timeout
    assert store.kept_hint("m-h", 0, 4) == {"move_id": "pick:x"}
    assert store.kept_hint("m-h", 0, 5) is None and store.kept_hint("m-h", 1, 4) is None


def test_a_write_is_answered_truthfully_when_only_a_global_index_fails(
        redis_client: redis.Redis, redis_url: str) -> None:
    """A real failure of the global indexes alone: a Redis user allowed the match's own keys
    only (ACL). A write that leaves the match live adds it to ``evo:active`` first, so it
    fails before anything is written; a write that ends the match lands, says so, and the
    index entry it could not remove is dropped by the sweep."""
    from tests.shared.test_store import record

    redis_client.execute_command("ACL", "SETUSER", "matchonly", "on", ">pw", "~evo:m:*",
                                 "+@all")
    limited = redis.Redis.from_url(redis_url.replace("redis://", "redis://matchonly:pw@"),
                                   decode_responses=True)
    try:
        full, store = MatchStore(redis_client), MatchStore(limited)
        full.create(record(), {})
        with pytest.raises(redis.exceptions.NoPermissionError):
            store.commit(record(version=2), 1, [{"version": 2, "events": []}])
        assert full.version("m1") == 1 and full.log("m1") == []  # nothing was written
        done = record(version=2)
        done.status = "finished"
        assert store.commit(done, 1, [{"version": 2, "events": []}])
        assert full.load("m1").status == "finished"
        redis_client.zadd("evo:active", {"m1": time.time() - 60})
        turns.sweep(match_service(full, Recorder()), stale_after=1)
        assert redis_client.zscore("evo:active", "m1") is None
    finally:
        limited.close()
        redis_client.execute_command("ACL", "DELUSER", "matchonly")


