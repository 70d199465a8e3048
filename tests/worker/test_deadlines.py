"""Move deadlines, timeouts, forfeits and expiry against a real Redis (the sweep called
directly after a short deadline passed; the Celery beat that runs it is in the integration
tests)."""

from __future__ import annotations

import time
from typing import Any

import pytest
import redis

from shared.bots import deadlines
from shared.domain.errors import Conflict
from shared.matches.service import MatchService
from shared.matches.store import MatchStore
from shared.services import match_service
from tests.shared.test_service import Recorder

LATER = 3600.0  # waiting matches expire after an hour
DEADLINE = 0.1  # seconds: short, so the tests wait for it to pass


def overdue_sweep(service: MatchService) -> int:
    time.sleep(DEADLINE * 1.5)
    return deadlines.sweep(service, LATER)


@pytest.fixture
def service(redis_client: redis.Redis) -> MatchService:
    return match_service(MatchStore(redis_client), Recorder())


def seats(*kinds: str) -> list[dict[str, Any]]:
    return [{"kind": k} if k != "bot" else {"kind": "bot", "bot": {"kind": "random"}}
            for k in kinds]


def test_only_seats_the_server_does_not_play_are_clocked(service: MatchService) -> None:
    record, _ = service.create_match("savanna", {}, 1, seats("human", "bot"), move_deadline=5)
    assert record.to_move == [0, 1]
    assert list(record.owed_since) == [0]
    assert record.deadline_at() == pytest.approx(record.owed_since[0] + 5)
    casual, _ = service.create_match("savanna", {}, 1, seats("human", "bot"))
    assert casual.owed_since == {} and casual.deadline_at() is None
    assert service.store.due_deadlines(time.time() + LATER) == [record.id]


def test_an_overdue_seat_gets_the_fallback_move_logged_as_a_timeout(
        service: MatchService) -> None:
    record, _ = service.create_match("savanna", {}, 2, seats("human", "human"),
                                     move_deadline=DEADLINE)
    # Not due yet: swept at a moment before the deadline (the wall clock may already be past
    # it on a loaded machine, 0.1 s after the creation).
    before_due = record.deadline_at() - DEADLINE / 2
    assert deadlines.sweep(service, LATER, now=before_due) == 0
    assert overdue_sweep(service) == 2  # both draft seats owed a pick
    after = service.load(record.id)
    log = service.store.log(record.id)
    assert [e["timeout"] for e in log] == [{"reason": "deadline"}] * 2
    assert all(e["bot"] == {"kind": "random", "think_seconds": 0.0, "fallback": True}
               for e in log)
    assert after.timeouts == {0: 1, 1: 1} and after.forfeited == []
    # A seat that moves itself resets its count; the clock restarts for the seats that owe.
    moves = service.legal_moves(after, 0)
    service.submit_move(record.id, 0, after.version, moves[0]["move"])
    assert service.load(record.id).timeouts == {1: 1}


def test_consecutive_timeouts_forfeit_the_seat_and_the_fallback_plays_on(
        service: MatchService) -> None:
    record, _ = service.create_match("savanna", {}, 3, seats("human", "bot"),
                                     move_deadline=DEADLINE, forfeit_after=2)
    for expected in (1, 2):
        current = service.load(record.id)
        if 0 not in current.to_move:  # the bot owes the pick: play it as the worker would
            move = service.legal_moves(current, 1)[0]["move"]
            service.submit_move(record.id, 1, current.version, move)
        assert overdue_sweep(service) == 1
        assert service.load(record.id).timeouts[0] == expected
    final = service.load(record.id)
    assert final.forfeited == [0]
    forfeits = [ev for e in service.store.log(record.id) for ev in e["events"]
                if ev["type"] == "forfeit"]
    assert forfeits == [{"type": "forfeit", "seat": 0, "timeouts": 2}]
    # Seat 0 is now the server's: enqueued like a bot, and never clocked again.
    if 0 in final.to_move:
        assert 0 in service.bot_seats_due(final)
    assert 0 not in final.owed_since
    assert overdue_sweep(service) == 0


def test_a_match_left_waiting_expires(service: MatchService) -> None:
    record, _ = service.create_match("savanna", {}, 4, seats("human", "open"))
    assert deadlines.sweep(service, LATER) == 0 and service.load(record.id).status == "waiting"
    deadlines.sweep(service, 0.0, now=time.time() + 1)
    expired = service.load(record.id)
    assert expired.status == "expired"
    assert service.store.log(record.id)[-1]["events"] == [{"type": "expired",
                                                           "open_seats": [1]}]
    with pytest.raises(Conflict, match="expired"):
        service.join(record.id, None, None)
    with pytest.raises(Conflict, match="expired"):
        service.submit_move(record.id, 0, expired.version, "x")
