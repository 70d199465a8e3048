"""Identical keyed moves sent at once (a client's retries racing each other) against a real
Redis: every copy gets the first answer, never "stale" for the move that was applied."""

from __future__ import annotations

import json
import threading
from typing import Any

import redis

from shared.domain.errors import ServiceError
from shared.games import get_game
from shared.matches.service import MatchService
from shared.matches.store import MatchStore
from shared.services import match_service
from tests.shared.test_service import Recorder

COPIES = 6
BURSTS = 25


def burst(service: MatchService, match_id: str, seat: int, version: int,
          move: dict[str, Any], key: str) -> tuple[list[dict[str, Any]], list[str]]:
    """Send ``COPIES`` identical keyed moves at once; their answers and refusals."""
    barrier = threading.Barrier(COPIES)
    answers: list[dict[str, Any]] = []
    refusals: list[str] = []

    def send() -> None:
        barrier.wait()
        try:
            answers.append(service.submit_move(match_id, seat, version, move, key))
        except ServiceError as exc:
            refusals.append(f"{exc.status} {exc.detail}")

    threads = [threading.Thread(target=send) for _ in range(COPIES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers, refusals


def test_concurrent_identical_keyed_moves_all_get_the_first_answer(
        redis_client: redis.Redis) -> None:
    service = match_service(MatchStore(redis_client), Recorder())
    record, _ = service.create_match("savanna", {}, 5, [{"kind": "human"}, {"kind": "human"}])
    for number in range(BURSTS):
        record = service.load(record.id)
        seat = record.to_move[0]
        state = get_game(record.game).state_from_json(json.loads(record.state))
        move = state.legal_moves(seat)[0]
        answers, refusals = burst(service, record.id, seat, record.version, move,
                                  f"burst-{number}")
        assert refusals == []
        assert len(answers) == COPIES and all(a == answers[0] for a in answers)
        assert service.load(record.id).version == record.version + 1  # applied exactly once
    assert len(service.store.log(record.id)) == BURSTS
