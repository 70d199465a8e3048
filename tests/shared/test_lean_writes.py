"""What a match's read and write cost no more than they need (issue 38): the record's fields
read and written as the text ``json`` wrote before (orjson now), and a write that leaves the
match live sending only the fields it changes."""

from __future__ import annotations

import dataclasses
import json
import time
from typing import Any

import pytest

from shared.infra import jsontext
from shared.infra.redis_client import RedisClient
from shared.matches.record import MatchRecord
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
    """A field's text is the record's JSON writer's, and reads back as what it or ``json``
    wrote (a stored text written before orjson, or since, reads the same)."""
    written = dataclasses.replace(record(), options={"value": value})
    assert written.to_fields()["options"] == jsontext.dumps({"value": value})
    for text in (json.dumps({"value": value}), jsontext.dumps({"value": value})):
        back = MatchRecord.from_fields({**written.to_fields(), "options": text}).options
        assert back == {"value": value} and type(back["value"]) is type(value)


def test_empty_containers_read_are_fresh() -> None:
    """Each read gets its own empty list or dict: a record's seats are never shared."""
    fields = record().to_fields()
    first, second = MatchRecord.from_fields(fields), MatchRecord.from_fields(fields)
    first.seats.append({"kind": "human"})
    first.options["x"] = 1
    assert second.seats == [] and second.options == {}


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
