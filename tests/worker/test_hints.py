"""Hints against a real Redis: the worker's legal move from the seat's view, kept in the
match store, and the API side's one search per question."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
import redis

from shared.bots import hint_search, hints
from shared.bots.catalogue import HINT_RETRY
from shared.bots.hint_search import answer, suggest
from shared.domain.errors import Conflict, Forbidden, TooManyRequests, Unavailable
from shared.kernel.budget import SearchBudget
from shared.matches.service import MatchService
from shared.matches.store import MatchStore
from shared.services import match_service
from tests.shared.test_service import Recorder


@pytest.fixture
def service(redis_client: redis.Redis) -> MatchService:
    return match_service(MatchStore(redis_client), Recorder())


@pytest.fixture(autouse=True)
def quick_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """What is tested here is the questions, answers and waits around a hint, not the
    search's strength: 50 simulations instead of the production 1,000 (seconds an Evolution
    search) keep these tests in test-fast's loop."""
    monkeypatch.setattr(hint_search, "HINT_BUDGET", SearchBudget(simulations=50, time_cap=3.0))


def _humans(service: MatchService, game: str) -> Any:
    record, _ = service.create_match(game, {}, 4, [{"kind": "human"}, {"kind": "human"}])
    return record


class Worker:
    """A worker answering in this process: counts the searches it is sent."""

    def __init__(self, service: MatchService, answers: bool = True) -> None:
        self.service, self.answers, self.sent = service, answers, []

    def __call__(self, match_id: str, seat: int, version: int) -> None:
        self.sent.append((match_id, seat, version))
        if self.answers:
            answer(self.service, match_id, seat, version)


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


def test_asking_again_returns_the_kept_answer_without_another_search(
        service: MatchService) -> None:
    record = _humans(service, "evolution")
    seat = record.to_move[0]
    worker = Worker(service)
    first = hints.hint(service, record.id, seat, worker)
    assert first["seat"] == seat and len(worker.sent) == 1
    # A dropped connection, a second device: the same question, the same answer, no search
    # and no rate limit (it costs nothing).
    assert hints.hint(service, record.id, seat, worker) == first
    assert len(worker.sent) == 1
    with pytest.raises(Conflict):
        hints.hint(service, record.id, 1 - seat, worker)


def _first_move(service: MatchService, match_id: str, seat: int) -> str:
    return service.legal_moves(service.load(match_id), seat)[0]["id"]


def test_another_seats_hidden_choice_leaves_the_question_and_its_answer(
        service: MatchService) -> None:
    # Savanna: both seats pick at once, face down; seat 1's pick bumps the version only.
    record = _humans(service, "savanna")
    worker = Worker(service)
    first = hints.hint(service, record.id, 0, worker)
    service.submit_move(record.id, 1, record.version, _first_move(service, record.id, 1))
    assert service.load(record.id).version == record.version + 1
    assert hints.hint(service, record.id, 0, worker) == first  # no search, no 429
    assert len(worker.sent) == 1
    # The hint quotes the version it was searched at: its move is accepted now all the same.
    played = service.submit_move(record.id, 0, first["version"], first["move_id"])
    assert played["applied_at"] == record.version + 1


def test_a_new_question_is_a_new_search_rate_limited_per_seat(service: MatchService) -> None:
    record = _humans(service, "savanna")
    worker = Worker(service)
    hints.hint(service, record.id, 0, worker)
    assert hints.hint(service, record.id, 1, worker)["seat"] == 1  # the limit is per seat
    # Both pick: the cards are revealed, and each seat owes a placement (a new question).
    service.submit_move(record.id, 0, record.version, _first_move(service, record.id, 0))
    service.submit_move(record.id, 1, record.version + 1, _first_move(service, record.id, 1))
    with pytest.raises(TooManyRequests) as limited:
        hints.hint(service, record.id, 0, worker)
    assert 0 < limited.value.extra["retry_after"] <= hints.HINT_INTERVAL
    assert len(worker.sent) == 2


def test_a_late_search_of_a_question_still_open_answers_it(service: MatchService) -> None:
    # The task starts after seat 1 has picked: it searches the view now, for the question.
    record = _humans(service, "savanna")
    busy = Worker(service, answers=False)
    with pytest.raises(Unavailable):
        hints.hint(service, record.id, 0, busy, wait=0.1)
    service.submit_move(record.id, 1, record.version, _first_move(service, record.id, 1))
    late = answer(service, record.id, 0, record.version)
    assert late["version"] == record.version and late["move_id"]
    assert hints.hint(service, record.id, 0, busy) == late and len(busy.sent) == 1
    # Seat 0's own pick closes the question: a search begun after it is stale.
    service.submit_move(record.id, 0, record.version + 1, late["move_id"])
    assert suggest(service, record.id, 0, record.version)["error"] == "stale"


def test_asking_while_the_search_runs_waits_for_it_and_sends_no_other(
        service: MatchService) -> None:
    record = _humans(service, "evolution")
    seat = record.to_move[0]
    busy = Worker(service, answers=False)  # queued behind other searches
    for _ in range(3):  # the first ask sends it; the next ones wait for it, never 429
        with pytest.raises(Unavailable) as waited:
            hints.hint(service, record.id, seat, busy, wait=0.2)
        assert waited.value.extra["retry_after"] == HINT_RETRY
    assert busy.sent == [(record.id, seat, record.version)]
    found = answer(service, record.id, seat, record.version)  # the late answer
    assert hints.hint(service, record.id, seat, busy, wait=0.2) == found
    assert len(busy.sent) == 1


def test_asks_at_once_send_one_search(service: MatchService) -> None:
    record = _humans(service, "evolution")
    seat = record.to_move[0]
    busy = Worker(service, answers=False)
    outcomes: list[str] = []

    def ask() -> None:
        try:
            hints.hint(service, record.id, seat, busy, wait=0.5)
        except Exception as error:  # the outcome is what is checked
            outcomes.append(type(error).__name__)

    threads = [threading.Thread(target=ask) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes == ["Unavailable"] * 6  # all wait for the one search, none is a 429
    assert len(busy.sent) == 1


def test_a_late_answer_wakes_the_waiting_ask(service: MatchService) -> None:
    record = _humans(service, "evolution")
    seat = record.to_move[0]
    busy = Worker(service, answers=False)
    with pytest.raises(Unavailable):
        hints.hint(service, record.id, seat, busy, wait=0.1)
    timer = threading.Timer(0.3, answer, (service, record.id, seat, record.version))
    timer.start()
    started = time.monotonic()
    try:
        got = hints.hint(service, record.id, seat, busy, wait=10.0)
    finally:
        timer.join()
    assert got["version"] == record.version and len(busy.sent) == 1
    # Woken by the answer's announcement: without it the ask still finds the answer, but
    # only on its last look at the end of the 10 s wait.
    assert time.monotonic() - started < 5


def test_a_search_that_fails_or_is_never_sent_is_asked_again(
        service: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    record = _humans(service, "evolution")
    seat = record.to_move[0]

    def broker_away(match_id: str, seat: int, version: int) -> None:
        raise ConnectionError("broker away")

    with pytest.raises(ConnectionError):
        hints.hint(service, record.id, seat, broker_away)
    assert service.store.claim_hint(record.id, seat, record.version, 60)  # released

    def crash(*args: Any) -> Any:
        raise RuntimeError("search failed")

    monkeypatch.setattr("shared.bots.hint_search.suggest", crash)
    with pytest.raises(RuntimeError):
        answer(service, record.id, seat, record.version)
    assert service.store.claim_hint(record.id, seat, record.version, 60)  # released
    assert service.store.kept_hint(record.id, seat, record.version) is None


def test_a_question_the_match_moved_past_is_a_conflict(service: MatchService) -> None:
    record = _humans(service, "evolution")
    seat = record.to_move[0]

    def moved_on(match_id: str, seat: int, version: int) -> None:
        service.store.keep_hint(match_id, seat, version, {"error": "stale"}, 60)

    with pytest.raises(Conflict, match="moved on"):
        hints.hint(service, record.id, seat, moved_on)


@pytest.mark.parametrize("where", [{"tournament": "t-1"}])
def test_hints_are_off_in_tournament_matches(service: MatchService,
                                                       where: dict[str, Any]) -> None:
    record, _ = service.create_match("evolution", {}, 4, [{"kind": "human"}, {"kind": "human"}],
                                     **where)

    def send(match_id: str, seat: int, version: int) -> None:
        raise AssertionError("no search may be asked for")

    with pytest.raises(Forbidden, match="off in tournament and rated"):
        hints.hint(service, record.id, record.to_move[0], send)
