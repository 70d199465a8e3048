"""Bot turns against a real Redis: stale tasks dropped, leases, fallback, the sweep, views."""

from __future__ import annotations

import json
import logging
import time
from typing import Any

import pytest
import redis

from shared.games import get_game
from shared.service import MatchService
from shared.store import MatchStore
from tests.shared.test_service import Recorder
from worker import turns


@pytest.fixture
def service(redis_client: redis.Redis) -> MatchService:
    return MatchService(MatchStore(redis_client), Recorder())


def bot_match(service: MatchService, kind: str = "random", game: str = "evolution"
              ) -> Any:
    record, _ = service.create_match(game, {}, 8, [{"kind": "bot", "bot": {"kind": kind}},
                                                   {"kind": "human"}])
    return record


def due_bot(service: MatchService, record: Any) -> int:
    seats = service.bot_seats_due(record)
    assert seats, "the constructed match must owe a bot move"
    return seats[0]


def test_stale_task_is_dropped(service: MatchService) -> None:
    record = bot_match(service, game="savanna")
    seat = due_bot(service, record)
    assert turns.play_bot_turn(service, record.id, seat, record.version - 1, 5) == "stale"
    assert turns.play_bot_turn(service, "no-such-match", seat, 1, 5) == "stale"
    assert service.load(record.id).version == record.version


def test_bot_plays_once_and_a_second_copy_is_stale(service: MatchService) -> None:
    record = bot_match(service, game="savanna")
    seat = due_bot(service, record)
    assert turns.play_bot_turn(service, record.id, seat, record.version, 5) == "played"
    assert turns.play_bot_turn(service, record.id, seat, record.version, 5) == "stale"
    entry = service.store.log(record.id)[-1]
    assert entry["seat"] == seat and entry["bot"]["kind"] == "random"


def test_a_held_lease_blocks_a_duplicate_task(service: MatchService) -> None:
    record = bot_match(service, game="savanna")
    seat = due_bot(service, record)
    assert service.store.claim_bot_turn(record.id, seat, record.version, 5)
    assert turns.play_bot_turn(service, record.id, seat, record.version, 5) == "claimed"


def test_failing_search_falls_back_to_a_legal_move(service: MatchService,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    def broken(*_: Any) -> None:
        raise RuntimeError("search exploded")

    monkeypatch.setattr(turns, "choose_move", broken)
    record = bot_match(service)
    seat = due_bot(service, record)
    with caplog.at_level(logging.ERROR, logger="worker.turns"):
        assert turns.play_bot_turn(service, record.id, seat, record.version, 5) == "played"
    assert "search exploded" in caplog.text
    assert service.load(record.id).version == record.version + 1
    assert service.store.log(record.id)[-1]["bot"]["fallback"] is True


def test_bot_receives_only_its_seats_view(service: MatchService,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Any] = []
    real = turns.choose_move

    def spy(game: Any, view: Any, seat: int, bot: dict, rng: Any) -> Any:
        seen.append((view, seat))
        return real(game, view, seat, bot, rng)

    monkeypatch.setattr(turns, "choose_move", spy)
    record = bot_match(service)
    seat = due_bot(service, record)
    state = get_game(record.game).state_from_json(json.loads(record.state))
    turns.play_bot_turn(service, record.id, seat, record.version, 5)
    view, got_seat = seen[0]
    assert got_seat == seat and type(view) is dict
    assert view == state.view(seat)
    assert view != state.to_json()


def test_sweep_reenqueues_waiting_bot_turns(service: MatchService,
                                            caplog: pytest.LogCaptureFixture) -> None:
    record = bot_match(service, game="savanna")
    seat = due_bot(service, record)
    service.enqueue.calls.clear()
    with caplog.at_level(logging.INFO, logger="worker.turns"):
        assert turns.sweep(service, stale_after=3600) == 0  # not waiting long enough yet
        assert caplog.records == []  # a sweep that did nothing says nothing
        time.sleep(0.05)
        assert turns.sweep(service, stale_after=0.01) == 1
    assert [r.getMessage() for r in caplog.records] == [
        "sweep: re-enqueued 1 bot turn(s) waiting over 0.01s"]
    assert service.enqueue.calls == [(record.id, seat, record.version)]
    service.store.claim_bot_turn(record.id, seat, record.version, 5)
    time.sleep(0.05)
    assert turns.sweep(service, stale_after=0.01) == 0  # a live task holds the turn
