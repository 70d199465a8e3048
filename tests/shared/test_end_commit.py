"""The write that ends a match keeps it in the same atomic step (issue 18, retention): its
log compacted, its result, and a time to live on every key. A process that dies right after
that write (before anything else it would do) leaves no key kept for ever, on a single Redis
and on Redis Cluster; a match an older release ended half-way is finished by the sweep."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

import pytest

from shared.bots import turns
from shared.infra.redis_client import RedisClient
from shared.matches.record import ENDED, MatchRecord
from shared.matches.service import MatchService
from shared.matches.store import MatchStore, match_key
from shared.services import match_service
from tests.shared.test_seeds import play_out
from tests.shared.test_service import Recorder
from tests.shared.test_store import record

HUMANS = [{"kind": "human"}, {"kind": "human"}]
ENDED_TTL, LOG_TTL, RESULT_TTL = 600, 1200, 1800


class ProcessDied(BaseException):
    """The process stops right here: nothing after this point runs (not even ``except
    Exception`` handlers)."""


class DiesAfterTheEnd(MatchStore):
    """A store whose process dies as soon as the script of a write that ends a match has
    run: whatever the store does after that script never happens."""

    def _index_after(self, written: MatchRecord, *args: Any, **kwargs: Any) -> None:
        if written.status in ENDED:
            raise ProcessDied
        super()._index_after(written, *args, **kwargs)


def store(client: RedisClient, cls: type[MatchStore] = MatchStore) -> MatchStore:
    return cls(client, ended_ttl=ENDED_TTL, result_ttl=RESULT_TTL, log_ttl=LOG_TTL)


def finish(service: MatchService, match_id: str, tokens: dict[int, str]) -> None:
    play_out(service, match_id, tokens, random.Random(4))


def abort(service: MatchService, match_id: str, _: dict[int, str]) -> None:
    service.abort(match_id, "tournament cancelled")


ENDINGS: dict[str, Callable[[MatchService, str, dict[int, str]], None]] = {
    "finished": finish, "aborted": abort}


def assert_kept_with_ttls(client: RedisClient, match_id: str, with_result: bool = True) -> None:
    """Every lasting key of the ended match has its time to live; the log is compacted."""
    ttls = {suffix: client.ttl(match_key(match_id, suffix))
            for suffix in ("", ":tok", ":log", ":logz", ":result")}
    assert 0 < ttls[""] <= ENDED_TTL and 0 < ttls[":tok"] <= ENDED_TTL, ttls
    assert ttls[":log"] == -2, ttls  # the list is gone: compacted into :logz
    assert ENDED_TTL < ttls[":logz"] <= LOG_TTL, ttls
    if with_result:
        assert LOG_TTL < ttls[":result"] <= RESULT_TTL, ttls


@pytest.mark.parametrize("ending", sorted(ENDINGS))
def test_a_process_dying_right_after_the_end_leaves_every_key_with_a_ttl(
        store_client: RedisClient, ending: str) -> None:
    dying = match_service(store(store_client, DiesAfterTheEnd), Recorder())
    created, tokens = dying.create_match("savanna", {}, 6, HUMANS)
    first = dying.legal_moves(created, 0)[0]["id"]
    dying.submit_move(created.id, 0, created.version, first)  # a log to keep either way
    with pytest.raises(ProcessDied):
        ENDINGS[ending](dying, created.id, tokens)

    # The process is gone; another one reads what the ending write left.
    service = match_service(store(store_client), Recorder())
    ended = service.load(created.id)
    assert ended.status == ending
    assert_kept_with_ttls(store_client, created.id)
    events = service.events(ended, None)
    assert events[0]["version"] == 2 and events[-1]["version"] == ended.version
    assert service.store.kept_log(created.id) == service.store.log(created.id)
    kept = service.store.kept_result(created.id)
    assert kept == service.describe(ended, None)


def test_a_waiting_match_expired_by_a_dying_sweep_keeps_its_ttls(
        store_client: RedisClient) -> None:
    dying = match_service(store(store_client, DiesAfterTheEnd), Recorder())
    created, _ = dying.create_match("savanna", {}, 6, [{"kind": "human"}, {"kind": "open"}])
    with pytest.raises(ProcessDied):
        dying.expire(created.id, time.time() + 1)
    assert match_service(store(store_client), Recorder()).load(created.id).status == "expired"
    assert_kept_with_ttls(store_client, created.id)


def test_without_an_ended_ttl_the_end_compacts_the_log_and_keeps_everything(
        store_client: RedisClient) -> None:
    service = match_service(MatchStore(store_client), Recorder())
    created, tokens = service.create_match("savanna", {}, 6, HUMANS)
    finish(service, created.id, tokens)
    for suffix in ("", ":tok", ":logz"):
        assert store_client.ttl(match_key(created.id, suffix)) == -1
    assert not store_client.exists(match_key(created.id, ":log"))
    assert not store_client.exists(match_key(created.id, ":result"))  # the match answers
    assert service.store.log(created.id)[-1]["version"] == service.load(created.id).version


def test_an_ending_write_is_refused_if_the_log_changed_since_it_was_read(
        store_client: RedisClient) -> None:
    """The log is packed before the script runs (Lua has no zlib): the script writes it only
    if the list still holds what was read, else nothing at all."""
    matches = store(store_client)
    matches.create(record(), {})
    assert matches.commit(record(version=2), 1, [{"version": 2, "events": []}])
    done = record(version=3)
    done.status = "finished"
    ending = matches._ending_args(done, ['{"version": 3, "events": []}'], None)
    store_client.rpush(match_key("m1", ":log"), '{"version": 99, "events": []}')
    script_args = [2, "{}", "[]", "", 0, "", "", matches.channel("m1"), *ending]
    keys = [match_key("m1", s) for s in ("", ":log", ":idem:-", ":tok", ":logz", ":result")]
    assert matches._commit(keys=keys, args=script_args) == 0
    assert matches.version("m1") == 2 and len(matches.log("m1")) == 2
    assert not store_client.exists(match_key("m1", ":logz"))
    assert store_client.ttl(match_key("m1")) == -1


def test_the_sweep_finishes_keeping_a_match_an_older_release_ended_half_way(
        store_client: RedisClient) -> None:
    """An older release wrote the end, then compacted the log and set the TTLs in a second
    step; its process died in between (the match still in ``evo:active``). The sweep
    compacts and sets them."""
    service = match_service(store(store_client), Recorder())
    created, tokens = service.create_match("savanna", {}, 6, HUMANS)
    finish(service, created.id, tokens)
    entries = service.store.log(created.id)
    # As the older release left it: the log a list, no kept result, no TTL.
    store_client.delete(match_key(created.id, ":logz"), match_key(created.id, ":result"))
    store_client.rpush(match_key(created.id, ":log"), *map(json.dumps, entries))
    for suffix in ("", ":tok"):
        store_client.persist(match_key(created.id, suffix))
    store_client.zadd("evo:active", {created.id: time.time() - 60})
    assert service.store.needs_keeping(created.id)

    turns.sweep(service, stale_after=1)
    assert_kept_with_ttls(store_client, created.id)
    assert service.store.log(created.id) == entries
    assert service.store.kept_result(created.id) == service.describe(
        service.load(created.id), None)
    assert not service.store.needs_keeping(created.id)
    assert store_client.zscore("evo:active", created.id) is None
