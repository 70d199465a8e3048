"""Matches stored under rules this server no longer plays (issue 18): Savanna matches stored
as ``savanna-1`` before pick-then-place. Their state does not load in today's engine; the
service answers 410 for them, and the worker and the sweeps skip them without an error."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
import redis

from shared.bots import deadlines, turns
from shared.domain.errors import Gone
from shared.games import get_game
from shared.matches.service import MatchService
from shared.matches.store import MatchStore, match_key
from shared.services import match_service
from tests.shared.test_service import Recorder

#: The shape of a ``savanna-1`` state: one combined pick-and-place step, no reveal phase.
OLD_STATE = {"players": 2, "phase": 1, "step": 0, "hands": [["zebra"], ["lion"]],
             "savannas": [[], []], "deck": [], "removed": []}


def store_as_savanna_1(client: redis.Redis, match_id: str) -> None:
    """Rewrite a stored match as the previous release stored it."""
    client.hset(match_key(match_id), mapping={"rules_version": "savanna-1",
                                              "state": json.dumps(OLD_STATE)})


@pytest.fixture
def service(redis_client: redis.Redis) -> MatchService:
    return match_service(MatchStore(redis_client, ended_ttl=60, result_ttl=600), Recorder())


def old_match(service: MatchService, redis_client: redis.Redis, **kwargs: Any) -> Any:
    record, _ = service.create_match("savanna", {}, 4, [
        {"kind": "bot", "bot": {"kind": "random"}}, {"kind": "human"}], **kwargs)
    store_as_savanna_1(redis_client, record.id)
    return record


def test_the_old_state_does_not_load_in_todays_engine(service: MatchService,
                                                       redis_client: redis.Redis) -> None:
    record = old_match(service, redis_client)
    assert get_game("savanna").version != "savanna-1"
    with pytest.raises(Exception):  # noqa: B017 - whatever the engine raises: not servable
        get_game("savanna").state_from_json(OLD_STATE)
    with pytest.raises(Gone) as gone:
        service.load(record.id)
    assert "savanna-1" in gone.value.detail and gone.value.extra["rules_version"] == "savanna-1"
    with pytest.raises(Gone):
        service.read(record.id)


def test_the_worker_skips_a_bot_turn_in_it(service: MatchService,
                                           redis_client: redis.Redis) -> None:
    record = old_match(service, redis_client)
    seat = service.bot_seats_due(service.store.load(record.id))[0]
    assert turns.play_bot_turn(service, record.id, seat, record.version, 5) == "retired"
    assert not service.store.bot_turn_claimed(record.id, seat, record.version)


def test_the_sweep_skips_it_and_expires_it_once_stalled(service: MatchService,
                                                        redis_client: redis.Redis) -> None:
    record = old_match(service, redis_client)
    sent = service.enqueue.calls  # type: ignore[attr-defined]
    sent.clear()
    time.sleep(0.05)
    assert turns.sweep(service, stale_after=0, stalled_after=3600) == 0
    assert sent == []  # no bot turn sent for a match no engine can play
    assert turns.sweep(service, stale_after=0, stalled_after=0.01) == 0
    ended = service.store.load(record.id)
    assert ended.status == "expired" and ended.rules_version == "savanna-1"
    assert redis_client.zscore("evo:active", record.id) is None
    assert 0 < redis_client.ttl(match_key(record.id)) <= 60
    assert service.store.kept_result(record.id) is None  # nothing shown of it: no view


def test_the_deadline_sweep_skips_it(service: MatchService, redis_client: redis.Redis
                                     ) -> None:
    record, _ = service.create_match("savanna", {}, 5, [{"kind": "human"}] * 2,
                                     move_deadline=0.05)
    store_as_savanna_1(redis_client, record.id)
    time.sleep(0.1)
    assert deadlines.sweep(service, 3600) == 0
    assert redis_client.zscore("evo:deadlines", record.id) is None
    assert service.store.load(record.id).version == record.version
