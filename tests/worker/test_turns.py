"""Bot turns against a real Redis: stale tasks dropped, leases, fallback, the sweep, views."""

from __future__ import annotations

import json
import logging
import time
from typing import Any

import pytest

from shared.bots import turns
from shared.games import get_game
from shared.infra.redis_client import RedisClient
from shared.matches import carryover
from shared.matches.service import MatchService
from shared.matches.store import MatchStore
from shared.services import match_service
from tests.shared.test_service import Recorder


@pytest.fixture
def service(store_client: RedisClient) -> MatchService:
    """On a single Redis and on a cluster (the turn's reads, claim and commit differ)."""
    return match_service(MatchStore(store_client), Recorder())


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
    with caplog.at_level(logging.ERROR, logger="shared.bots.turns"):
        assert turns.play_bot_turn(service, record.id, seat, record.version, 5) == "played"
    assert "search exploded" in caplog.text
    assert service.load(record.id).version == record.version + 1
    assert service.store.log(record.id)[-1]["bot"]["fallback"] is True


def test_bot_receives_only_its_seats_view(service: MatchService,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Any] = []
    real = turns.choose_move

    def spy(game: Any, view: Any, seat: int, bot: dict, rng: Any, *more: Any) -> Any:
        seen.append((view, seat))
        return real(game, view, seat, bot, rng, *more)

    monkeypatch.setattr(turns, "choose_move", spy)
    record = bot_match(service)
    seat = due_bot(service, record)
    state = get_game(record.game).state_from_json(json.loads(record.state))
    turns.play_bot_turn(service, record.id, seat, record.version, 5)
    view, got_seat = seen[0]
    assert got_seat == seat and type(view) is dict
    assert view == state.view(seat)
    assert view != state.to_json()


def test_sweep_reenqueues_only_lost_bot_turns(service: MatchService,
                                              caplog: pytest.LogCaptureFixture) -> None:
    record = bot_match(service, game="savanna")
    seat = due_bot(service, record)
    service.enqueue.calls.clear()
    time.sleep(0.05)
    with caplog.at_level(logging.INFO, logger="shared.matches.bot_turns"):
        # Its task is still in the queue (however long it has waited): left alone.
        assert service.store.turn_queued(record.id, seat, record.version)
        assert turns.sweep(service, stale_after=0.01) == 0
        assert caplog.records == []  # a sweep that did nothing says nothing
        service.store.unmark_turn_queued(record.id, seat, record.version)  # the task is lost
        assert turns.sweep(service, stale_after=3600) == 0  # the match is not idle yet
        time.sleep(0.05)
        assert turns.sweep(service, stale_after=0.01) == 1
    assert [r.getMessage() for r in caplog.records] == ["sweep: re-enqueued 1 lost bot turn(s)"]
    assert service.enqueue.calls == [(record.id, seat, record.version)]
    assert service.store.turn_queued(record.id, seat, record.version)  # marked again
    time.sleep(0.05)
    assert turns.sweep(service, stale_after=0.01) == 0
    # A started task clears the mark; its lease then says the turn is running.
    service.store.unmark_turn_queued(record.id, seat, record.version)
    service.store.claim_bot_turn(record.id, seat, record.version, 5)
    time.sleep(0.05)
    assert turns.sweep(service, stale_after=0.01) == 0  # a live task holds the turn


def test_a_started_task_clears_its_queued_mark(service: MatchService) -> None:
    record = bot_match(service, game="savanna")
    seat = due_bot(service, record)
    assert service.store.turn_queued(record.id, seat, record.version)
    assert turns.play_bot_turn(service, record.id, seat, record.version, 5) == "played"
    assert not service.store.turn_queued(record.id, seat, record.version)


def _first_legal(service: MatchService, match_id: str, seat: int) -> dict[str, Any]:
    record = service.load(match_id)
    return get_game(record.game).state_from_json(json.loads(record.state)).legal_moves(seat)[0]


def test_secret_picks_made_during_a_search_do_not_waste_it(
        service: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    record, _ = service.create_match("savanna", {}, 8, [
        {"kind": "bot", "bot": {"kind": "random"}}, {"kind": "bot", "bot": {"kind": "random"}},
        {"kind": "human"}])
    start = record.version
    assert service.bot_seats_due(record) == [0, 1]
    real, inside = turns.choose_move, []

    def slow_search(game: Any, view: Any, seat: int, bot: dict, rng: Any, *more: Any) -> Any:
        if seat == 0 and not inside:  # the other two pick, face down, while seat 0 thinks
            inside.append(turns.play_bot_turn(service, record.id, 1, start, 5))
            service.submit_move(record.id, 2, start + 1, _first_legal(service, record.id, 2))
            inside.append(turns.play_bot_turn(service, record.id, 0, start + 2, 5))
            inside.append(turns.sweep(service, stale_after=0.0))
        return real(game, view, seat, bot, rng, *more)

    monkeypatch.setattr(turns, "choose_move", slow_search)
    assert turns.play_bot_turn(service, record.id, 0, start, 5) == "played"
    # The newer task and the sweep left the turn to the running search instead of a new one.
    assert inside == ["played", "deferred", 0]
    entry = service.store.log(record.id)[-1]
    assert (entry["seat"], entry["version"]) == (0, start + 3)
    assert entry["bot"]["searched_at_version"] == start
    assert service.load(record.id).to_move == [0, 1, 2]  # the step resolved: a new pick is due


def test_a_search_overtaken_by_its_own_seat_hands_the_turn_on(
        service: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    record = bot_match(service, game="savanna")
    start = record.version
    real = turns.choose_move

    def overtaken(game: Any, view: Any, seat: int, bot: dict, rng: Any, *more: Any) -> Any:
        # Seat 0's pick is made elsewhere, then seat 1's: the step resolves and seat 0 owes
        # a new pick, which this search never saw.
        if service.load(record.id).version == start:
            service.submit_move(record.id, 0, start, _first_legal(service, record.id, 0))
            service.submit_move(record.id, 1, start + 1, _first_legal(service, record.id, 1))
        return real(game, view, seat, bot, rng, *more)

    monkeypatch.setattr(turns, "choose_move", overtaken)
    service.enqueue.calls.clear()
    assert turns.play_bot_turn(service, record.id, 0, start, 5) == "conflict"
    assert service.load(record.id).version == start + 2
    assert not service.store.bot_turn_claimed(record.id, 0, start)  # the lease is given back
    # Seat 1's accepted pick queued seat 0's new turn; the dropped search queues it again in
    # case a task for it deferred to the search meanwhile (a duplicate task is harmless).
    assert service.enqueue.calls == [(record.id, 0, start + 2)] * 2


def test_a_record_read_before_newer_moves_is_judged_on_its_own_version(
        service: MatchService) -> None:
    record, _ = service.create_match("savanna", {}, 8, [
        {"kind": "bot", "bot": {"kind": "random"}}, {"kind": "human"}, {"kind": "human"}])
    start = record.version
    state = get_game("savanna").state_from_json(json.loads(record.state))
    question = carryover.ask(state, 0, start)
    service.submit_move(record.id, 1, start, _first_legal(service, record.id, 1))
    seen = service.load(record.id)
    service.submit_move(record.id, 2, start + 1, _first_legal(service, record.id, 2))
    # The log has moved past ``seen``; only the entries up to its version count.
    assert service.question_holds(seen, 0, question)
    assert service.question_holds(service.load(record.id), 0, question)


def test_a_task_overtaken_before_its_claim_gives_the_turn_to_the_newer_task(
        service: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    record, _ = service.create_match("savanna", {}, 8, [
        {"kind": "bot", "bot": {"kind": "random"}}, {"kind": "human"}])
    start = record.version
    real_claim, searched = service.store.claim_newest_bot_turn, []

    def late_claim(match_id: str, seat: int, version: int, ttl: float, note: str,
                   newer: Any) -> str:
        if version == start:  # between this task's read and its claim: a pick, a newer task
            service.submit_move(record.id, 1, start, _first_legal(service, record.id, 1))
            assert service.store.claim_bot_turn(match_id, seat, start + 1, ttl, note)
        return real_claim(match_id, seat, version, ttl, note, newer)

    monkeypatch.setattr(service.store, "claim_newest_bot_turn", late_claim)
    monkeypatch.setattr(turns, "choose_move", lambda *args: searched.append(args))
    assert turns.play_bot_turn(service, record.id, 0, start, 5) == "stale"
    assert searched == [] and not service.store.bot_turn_claimed(record.id, 0, start)
    assert service.store.bot_turn_claimed(record.id, 0, start + 1)
