"""Expiry (issue 18): ended matches' keys expire on schedule, stalled matches expire, the
short-lived keys carry TTLs, and memory stays flat over many created and finished matches."""

from __future__ import annotations

import hashlib
import random
import time

import pytest
import redis

from shared.bots import turns
from shared.domain.errors import Gone, NotFound
from shared.matches.service import MatchService
from shared.matches.store import MatchStore, match_key
from shared.services import match_service
from tests.shared.test_seeds import play_out

HUMANS = [{"kind": "human"}, {"kind": "human"}]


def service_with_ttl(client: redis.Redis, ttl: int, result_ttl: int = 0, log_ttl: int = 0
                     ) -> MatchService:
    store = MatchStore(client, ended_ttl=ttl, result_ttl=result_ttl, log_ttl=log_ttl)
    return match_service(store, lambda *_: None, idempotency_ttl=60)


def match_keys(client: redis.Redis, match_id: str) -> list[str]:
    return sorted(client.scan_iter(match_key(match_id) + "*"))


def wait_gone(client: redis.Redis, match_id: str, timeout: float = 6.0,
              suffixes: tuple[str, ...] | None = None) -> bool:
    """Whether the match's own keys (state, log, tokens, kept result; or those ending in
    ``suffixes``) go within ``timeout`` seconds (an Idempotency-Key's answer keeps its own
    TTL)."""
    deadline = time.monotonic() + timeout
    prefix = match_key(match_id)
    while [k for k in match_keys(client, match_id) if ":idem:" not in k
           and (suffixes is None or k[len(prefix):] in suffixes)]:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


@pytest.mark.slow  # waits out real TTLs or deadlines (in `make test`, not test-fast)
def test_a_finished_match_expires_after_its_ttl(redis_client: redis.Redis) -> None:
    service = service_with_ttl(redis_client, 2)
    record, tokens = service.create_match("savanna", {}, None, HUMANS)
    first = service.legal_moves(record, 0)[0]["id"]
    service.submit_move(record.id, 0, record.version, first, idempotency_key="k1")
    idem = [k for k in match_keys(redis_client, record.id) if ":idem:" in k]
    assert idem and 0 < redis_client.ttl(idem[0]) <= 60
    for key in (match_key(record.id), match_key(record.id, ":tok"), match_key(record.id, ":log")):
        assert redis_client.ttl(key) == -1  # a running match is kept
    play_out(service, record.id, tokens, random.Random(5))
    assert service.load(record.id).status == "finished"
    # The log list is compacted into one string at the end; every key expires with the
    # match when no longer time is configured for its result and log.
    assert redis_client.exists(match_key(record.id, ":log")) == 0
    for suffix in ("", ":tok", ":logz", ":result"):
        assert 0 < redis_client.ttl(match_key(record.id, suffix)) <= 2
    assert wait_gone(redis_client, record.id)
    assert redis_client.zscore("evo:active", record.id) is None


def test_bot_leases_carry_a_ttl(redis_client: redis.Redis) -> None:
    store = MatchStore(redis_client)
    assert store.claim_bot_turn("0123456789abcdef", 0, 3, ttl=5)
    ttl = redis_client.pttl(match_key("0123456789abcdef", ":lease:0:3"))
    assert 0 < ttl <= 5000


@pytest.mark.slow  # waits out real TTLs or deadlines (in `make test`, not test-fast)
def test_a_stalled_match_is_expired_by_the_sweep(redis_client: redis.Redis) -> None:
    service = service_with_ttl(redis_client, 2)
    stalled, _ = service.create_match("savanna", {}, None, HUMANS)
    turns.sweep(service, stale_after=0, stalled_after=3600)
    assert service.load(stalled.id).status == "running"  # an hour has not passed
    time.sleep(0.05)
    turns.sweep(service, stale_after=0, stalled_after=0.01)
    ended = service.load(stalled.id)
    assert ended.status == "expired"
    assert service.events(ended, None)[-1]["events"][0]["type"] == "expired"
    assert wait_gone(redis_client, stalled.id)


def test_an_abandoned_waiting_match_expires_and_goes(redis_client: redis.Redis) -> None:
    service = service_with_ttl(redis_client, 1)
    record, _ = service.create_match("savanna", {}, None, [{"kind": "human"},
                                                           {"kind": "open"}])
    assert service.expire(record.id, time.time() + 1)
    assert wait_gone(redis_client, record.id)


def used_memory(client: redis.Redis) -> int:
    return int(client.info("memory")["used_memory"])


@pytest.mark.slow  # hundreds of matches created and finished
def test_memory_stays_flat_over_created_and_finished_matches(redis_client: redis.Redis
                                                             ) -> None:
    # The kept result and log outlive the match (2 s) and go too.
    service = service_with_ttl(redis_client, 1, result_ttl=2, log_ttl=2)
    rng = random.Random(9)
    after_round = []
    for _ in range(3):
        ids = []
        for index in range(30):
            record, tokens = service.create_match("savanna", {}, None, HUMANS)
            if index % 15 == 0:
                play_out(service, record.id, tokens, rng)  # finished with a full log
            else:
                service.abort(record.id, "test")
            ids.append(record.id)
        for match_id in ids:
            assert wait_gone(redis_client, match_id)
        after_round.append(used_memory(redis_client))
    # Once the first round's allocations are warm, memory does not grow with more rounds.
    assert max(after_round[1:]) <= after_round[0] + 256 * 1024, after_round


@pytest.mark.slow  # waits out real TTLs or deadlines (in `make test`, not test-fast)
def test_the_result_and_log_outlive_the_match_until_their_own_ttl(redis_client: redis.Redis
                                                                  ) -> None:
    """ENDED_TTL 1 s, LOG_TTL 2 s, RESULT_TTL 3 s: the state and tokens go first, then the
    log, then the result; until each goes the service answers from what is kept."""
    service = service_with_ttl(redis_client, 1, result_ttl=3, log_ttl=2)
    record, tokens = service.create_match("evolution", {}, None, HUMANS)
    play_out(service, record.id, tokens, random.Random(8))
    final = service.load(record.id)
    described, events = service.describe(final, None), service.events(final, None)
    assert final.status == "finished" and events[-1]["version"] == final.version
    key = match_key(record.id)
    assert 0 < redis_client.pttl(key) <= 1000 and 0 < redis_client.pttl(f"{key}:tok") <= 1000
    assert 1000 < redis_client.pttl(f"{key}:logz") <= 2000
    assert 2000 < redis_client.pttl(f"{key}:result") <= 3000
    assert service.store.log(record.id) == events  # read back from the compacted log
    assert service.store.log(record.id, 2, 4) == events[2:5]

    assert wait_gone(redis_client, record.id, suffixes=("", ":tok"))
    kept = service.read(record.id)
    assert kept == {**described, "archived": True}
    assert kept["result"]["scores"] == final.result["scores"] and kept["seed"] == final.seed
    assert [s["name"] for s in kept["seats"]] == [s["name"] for s in final.seats]
    assert kept["seed_commitment"] == hashlib.sha256(
        f"evo-arena:{record.id}:{kept['seed']}".encode()).hexdigest()
    assert service.kept_events(kept)["events"] == events
    assert service.kept_events(kept, since=final.version - 1)["events"] == events[-1:]
    with pytest.raises(Gone):  # no move, join or hint in an ended match's kept form
        service.load(record.id)

    assert wait_gone(redis_client, record.id, suffixes=(":logz",))
    assert redis_client.exists(f"{key}:result")  # the result is still kept
    with pytest.raises(Gone):
        service.kept_events(service.read(record.id))
    assert wait_gone(redis_client, record.id)
    with pytest.raises(NotFound):
        service.read(record.id)


def test_an_expired_match_keeps_its_log_redacted_for_everyone(redis_client: redis.Redis
                                                               ) -> None:
    """A match that ended without a result keeps its hidden moves hidden after its state
    has gone: the kept log is the spectator's."""
    service = service_with_ttl(redis_client, 1, result_ttl=5, log_ttl=5)
    record, _ = service.create_match("savanna", {}, None, HUMANS)
    first = service.legal_moves(record, 0)[0]["id"]
    service.submit_move(record.id, 0, record.version, first)
    assert service.abort(record.id, "test over")
    assert wait_gone(redis_client, record.id, suffixes=("", ":tok"))
    kept = service.read(record.id)
    assert kept["status"] == "aborted" and kept["result"] is None and kept["seed"] is not None
    log = service.kept_events(kept)
    assert log["redacted"] is True
    assert "move" not in log["events"][0] and log["events"][-1]["events"][0]["type"] == "aborted"
