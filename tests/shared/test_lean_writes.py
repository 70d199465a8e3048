"""What a match's read and write cost no more than they need (issue 38): the record's fields
read and written without a JSON call for the common texts, and a write that leaves the match
live sending only the fields it changes."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from shared.infra import jsontext
from shared.infra.redis_client import RedisClient
from shared.matches.record import MatchRecord, _dumps, _loads
from shared.matches.store import MatchStore, match_key

VALUES: list[Any] = [None, True, False, [], {}, 0, 0.0, 1.5, "", "null", "[]", [0], [[]],
                     {"1": 2.5}, {"a": None}, [False, None]]


def record(version: int = 1) -> MatchRecord:
    now = time.time()
    return MatchRecord(id="m1", game="savanna", rules_version="savanna-1", options={},
                       seed=1, seats=[], status="running", version=version, state="{}",
                       rng="[]", result=None, to_move=[0], created_at=now, updated_at=now)


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_field_texts_are_json_exactly(value: Any) -> None:
    """The shortcuts write exactly what the record's JSON writer does, and read what it or
    ``json`` wrote (a stored text written before them, or by them, reads the same)."""
    assert _dumps(value) == jsontext.dumps(value)
    for text in (json.dumps(value), _dumps(value)):
        back = _loads(text)
        assert back == value and type(back) is type(value)


def test_empty_containers_read_are_fresh() -> None:
    """Each read gets its own empty list or dict: a record's seats are never shared."""
    first, second = _loads("[]"), _loads("[]")
    first.append(1)
    assert second == [] and _loads("{}") is not _loads("{}")


def test_a_record_reads_back_as_written(store_client: RedisClient) -> None:
    store = MatchStore(store_client)
    written = record()
    written.owed_since, written.forfeited, written.result = {0: 12.5}, [1], {"ranking": [1]}
    store.create(written, {})
    read = store.load("m1")
    assert read == written and read.to_fields() == written.to_fields()


def test_a_live_write_sends_only_the_fields_it_changes(store_client: RedisClient) -> None:
    store = MatchStore(store_client)
    store.create(record(), {})
    read = store.load("m1")
    assert read is not None
    # A field this write does not change, altered behind the reader's back (no writer does
    # that at the same version): the write leaves it as it is, so it did not send it.
    store_client.hset(match_key("m1"), "options", '{"marked":true}')
    read.version, read.state, read.to_move = 2, '{"moved": 1}', [1]
    assert store.commit(read, 1, [{"version": 2, "events": []}])
    stored = store_client.hgetall(match_key("m1"))
    assert stored["options"] == '{"marked":true}'
    assert (stored["version"], stored["state"], stored["to_move"]) == ("2", '{"moved": 1}', "[1]")
    # The record knows what is stored now: its next write sends only what that one changes.
    read.version, read.to_move = 3, [0]
    assert read.changed_fields().keys() == {"version", "to_move"}
    assert store.commit(read, 2, [{"version": 3, "events": []}])
    again = store.load("m1")
    assert again is not None
    assert again.to_fields() == {**read.to_fields(), "options": '{"marked":true}'}


def test_a_record_not_read_and_an_ending_write_send_every_field(
        store_client: RedisClient) -> None:
    store = MatchStore(store_client)
    store.create(record(), {})
    store_client.hset(match_key("m1"), "options", '{"marked":true}')
    assert store.commit(record(version=2), 1)  # built, not read: all its fields
    assert store_client.hget(match_key("m1"), "options") == "{}"
    read = store.load("m1")
    assert read is not None
    store_client.hset(match_key("m1"), "options", '{"marked":true}')
    read.version, read.status = 3, "finished"
    assert store.commit(read, 2)
    assert store_client.hget(match_key("m1"), "options") == "{}"
