"""The worker's hint against a real Redis: a legal move from the seat's view."""

from __future__ import annotations

from typing import Any

import pytest
import redis

from shared import hints
from shared.errors import Conflict, Forbidden, TooManyRequests
from shared.service import MatchService
from shared.store import MatchStore
from tests.shared.test_service import Recorder
from worker.hints import suggest


@pytest.fixture
def service(redis_client: redis.Redis) -> MatchService:
    return MatchService(MatchStore(redis_client), Recorder())


def _humans(service: MatchService, game: str) -> Any:
    record, _ = service.create_match(game, {}, 4, [{"kind": "human"}, {"kind": "human"}])
    return record


@pytest.mark.parametrize("game", ["savanna", "evolution"])
def test_suggests_a_legal_move(service: MatchService,
                                                            game: str) -> None:
    record = _humans(service, game)
    seat = record.to_move[0]
    first = suggest(service, record.id, seat, record.version)
    legal = {move["id"] for move in service.legal_moves(record, seat)}
    assert first["move_id"] in legal and first["seat"] == seat
    assert first["version"] == record.version
    assert first["win_estimate"] is None or 0.0 <= first["win_estimate"] <= 1.0


def test_a_stale_question_gets_no_search(service: MatchService) -> None:
    record = _humans(service, "evolution")
    seat = record.to_move[0]
    assert suggest(service, record.id, seat, record.version + 1) == {"error": "stale"}
    assert suggest(service, "no-such-match", seat, 1) == {"error": "stale"}
    assert suggest(service, record.id, 1 - seat, record.version) == {"error": "stale"}


def test_hints_are_rate_limited_per_seat_and_refused_when_nothing_is_owed(
        service: MatchService) -> None:
    record = _humans(service, "evolution")
    seat = record.to_move[0]

    def ask(match_id: str, seat: int, version: int, wait: float) -> dict[str, Any]:
        return suggest(service, match_id, seat, version)  # the worker's code, in process

    assert hints.hint(service, record.id, seat, ask)["seat"] == seat
    with pytest.raises(TooManyRequests) as limited:
        hints.hint(service, record.id, seat, ask)
    assert 0 < limited.value.extra["retry_after"] <= hints.HINT_INTERVAL
    with pytest.raises(Conflict):
        hints.hint(service, record.id, 1 - seat, ask)


@pytest.mark.parametrize("where", [{"tournament": "t-1"}])
def test_hints_are_off_in_tournament_matches(service: MatchService,
                                                       where: dict[str, Any]) -> None:
    record, _ = service.create_match("evolution", {}, 4, [{"kind": "human"}, {"kind": "human"}],
                                     **where)

    def ask(match_id: str, seat: int, version: int, wait: float) -> dict[str, Any]:
        raise AssertionError("no search may be asked for")

    with pytest.raises(Forbidden, match="off in tournament and rated"):
        hints.hint(service, record.id, record.to_move[0], ask)
