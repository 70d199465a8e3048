"""A person's turn budget: its arithmetic (injected clocks), where its start is stored, and
the budgets a bot turn passes to the search (real Redis, no Celery: ``shared.bots.turns``)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
import redis

from shared.bots import turns
from shared.bots.catalogue import LEVELS
from shared.bots.turn_budget import FLOOR_SECONDS, FLOOR_SIMULATIONS, TurnBudget, bot_budget
from shared.games import get_game
from shared.kernel.budget import SearchBudget
from shared.matches.service import MatchService
from shared.matches.store import MatchStore, match_key
from shared.search import SearchConfig, search_move
from shared.services import match_service
from tests.shared.test_service import Recorder
from tests.worker.test_search import SteppingClock

HARD, EASY = LEVELS["hard"], LEVELS["easy"]
T0 = 1_000_000.0  # epoch seconds at which the turn left the person
SEED = 1  # an Evolution deal where seat 1 opens


def test_no_waiting_person_or_no_budget_keeps_the_level() -> None:
    assert TurnBudget(5.0).decision(HARD, None, T0 + 100) is HARD
    assert TurnBudget(0.0).decision(HARD, T0, T0 + 100) is HARD


def test_a_decision_takes_at_most_half_of_what_is_left() -> None:
    turn = TurnBudget(5.0)
    assert turn.decision(HARD, T0, T0) is HARD  # half of 5 s is hard's whole cap
    assert turn.decision(HARD, T0, T0 - 3.0) is HARD  # a clock behind the API's: no credit
    later = turn.decision(HARD, T0, T0 + 2.6)
    assert later.time_cap == pytest.approx(1.2)
    assert later.simulations == HARD.simulations and later.min_simulations == FLOOR_SIMULATIONS
    easy = turn.decision(EASY, T0, T0 + 4.2)  # 0.8 s left: 0.4 s, under easy's 0.5 s cap
    assert easy.time_cap == pytest.approx(0.4) and easy.min_simulations == FLOOR_SIMULATIONS
    assert turn.decision(EASY, T0, T0 + 3.5) is EASY  # 1.5 s left: easy keeps its own cap


@pytest.mark.parametrize("elapsed", [4.95, 5.0, 60.0])
def test_past_the_budget_every_decision_gets_the_floor(elapsed: float) -> None:
    floor = TurnBudget(5.0).decision(HARD, T0, T0 + elapsed)
    assert floor == SearchBudget(HARD.simulations, FLOOR_SECONDS, FLOOR_SIMULATIONS)
    few = SearchBudget(simulations=10, time_cap=2.0)  # never more floor than simulations
    assert TurnBudget(5.0).decision(few, T0, T0 + elapsed).min_simulations == 10


@pytest.mark.parametrize("overhead", [0.0, 0.05, 0.4])
def test_a_long_chain_returns_the_turn_near_the_budget(overhead: float) -> None:
    # Twelve `hard` decisions in a row, each using its whole cap plus ``overhead`` (queue,
    # commit): the wait is the budget (overrun by at most one overhead: a decision is given
    # half of what is left, the overhead is paid after it) plus one floor and overhead per
    # decision beyond it.
    turn, now, caps = TurnBudget(5.0), T0, []
    for _ in range(12):
        cap = turn.decision(HARD, T0, now).time_cap
        caps.append(cap)
        now += cap + overhead
    assert caps == sorted(caps, reverse=True) and caps[0] == HARD.time_cap
    past = sum(1 for cap in caps if cap == FLOOR_SECONDS)
    assert now - T0 <= 5.0 + overhead + past * (FLOOR_SECONDS + overhead) + 1e-9
    # Without a turn budget the same chain would take 12 whole caps and overheads.
    assert now - T0 < 12 * (HARD.time_cap + overhead) / 2.5


def test_only_named_levels_share_the_turn() -> None:
    late = T0 + 4.9
    turn = TurnBudget(5.0)
    assert bot_budget({"kind": "ismcts", "level": "hard"}, T0, turn, late).time_cap \
        == FLOOR_SECONDS
    assert bot_budget({"kind": "ismcts"}, T0, turn, late).time_cap == FLOOR_SECONDS  # medium
    # A custom or a time budget is a person's choice to wait: left whole.
    custom = {"kind": "ismcts", "level": "custom", "simulations": 3000}
    assert bot_budget(custom, T0, turn, late).time_cap == 18.0
    timed = {"kind": "ismcts", "level": "timed", "seconds": 4.0}
    assert bot_budget(timed, T0, turn, late).time_cap == 4.0
    assert bot_budget({"kind": "ismcts", "level": "hard"}, T0, None, late) == HARD


def test_the_floor_of_simulations_outlasts_the_clock() -> None:
    # A clock that jumps 10 s at every reading: the cap cuts the search at once (an
    # Evolution playout, longer than the playout's clock interval, is abandoned at its first
    # reading), except for the floor's simulations, whose playouts are not abandoned either.
    game = get_game("evolution")
    state = game.new_state(2, game.resolve_options({}), random.Random(8))
    seat = state.to_move()[0]
    for floor in (0, FLOOR_SIMULATIONS):
        stats: dict[str, Any] = {}
        budget = SearchBudget(HARD.simulations, FLOOR_SECONDS, floor)
        move = search_move(game, state.view(seat), seat, budget, random.Random(0), stats=stats,
                           config=SearchConfig(clock=SteppingClock([10.0])))
        assert move in state.legal_moves(seat) and stats["stopped"] == "time"
        assert stats["iterations"] == floor


# -- where the turn's start is kept ----------------------------------------------------------

@pytest.fixture
def service(redis_client: redis.Redis) -> MatchService:
    return match_service(MatchStore(redis_client), Recorder())


def _first_legal(service: MatchService, match_id: str, seat: int) -> Any:
    return service.legal_moves(service.load(match_id), seat)[0]["move"]


def test_the_turn_starts_when_the_last_waiting_seat_moves(service: MatchService) -> None:
    # Evolution: seat 1 opens (SEED). Seat 1 the bot: the person waits from the start.
    record, _ = service.create_match("evolution", {}, SEED, [
        {"kind": "human"}, {"kind": "bot", "bot": {"kind": "random"}}])
    assert record.to_move == [1] and record.bots_since == record.created_at
    turns.play_bot_turn(service, record.id, 1, record.version, 5)
    record = service.load(record.id)
    assert record.to_move == [0] and record.bots_since is None  # the person owes a move
    service.submit_move(record.id, 0, record.version, _first_legal(service, record.id, 0))
    after = service.load(record.id)
    assert after.to_move == [1]
    assert after.bots_since == service.store.log(record.id)[-1]["at"] == after.updated_at
    # Another bot move that leaves the turn with the bots keeps the start.
    service.submit_move(after.id, 1, after.version, _first_legal(service, after.id, 1))
    again = service.load(after.id)
    assert again.bots_since in (None, after.bots_since)


@pytest.mark.parametrize("seats,tournament", [
    ([{"kind": "bot", "bot": {"kind": "random"}}] * 2, None),  # nobody waits
    ([{"kind": "human"}, {"kind": "bot", "bot": {"kind": "random"}}], "t-1"),
])
def test_no_turn_budget_without_a_waiting_person_or_in_a_tournament(
        service: MatchService, seats: list[dict[str, Any]], tournament: str | None) -> None:
    record, _ = service.create_match("evolution", {}, SEED, seats, tournament=tournament)
    for _ in range(6):
        assert record.bots_since is None
        seat = record.to_move[0]
        service.submit_move(record.id, seat, record.version,
                            _first_legal(service, record.id, seat))
        record = service.load(record.id)


def test_a_match_stored_before_the_turn_budget_reads_without_one(
        service: MatchService) -> None:
    record, _ = service.create_match("evolution", {}, SEED, [
        {"kind": "human"}, {"kind": "bot", "bot": {"kind": "random"}}])
    service.store.redis.hdel(match_key(record.id), "bots_since")
    assert service.load(record.id).bots_since is None


# -- the budgets a bot turn passes to the search ---------------------------------------------

def _bot_turn(service: MatchService, bot: dict[str, Any], since: float) -> dict[str, Any]:
    """Play the opening bot turn of an Evolution match (seat 1 opens: SEED) against a person
    whose turn left them ``since`` seconds ago (written in the match hash); the bot's log
    note."""
    record, _ = service.create_match("evolution", {}, SEED, [{"kind": "human"},
                                                              {"kind": "bot", "bot": bot}])
    assert record.to_move == [1]
    assert record.bots_since is not None
    service.store.redis.hset(match_key(record.id), "bots_since",
                             json.dumps(record.bots_since - since))
    assert turns.play_bot_turn(service, record.id, 1, record.version, 5,
                               turn=TurnBudget(5.0)) == "played"
    return service.store.log(record.id)[-1]["bot"]


def test_a_late_decision_in_a_persons_turn_searches_the_floor(service: MatchService) -> None:
    note = _bot_turn(service, {"kind": "ismcts", "level": "hard"}, since=30.0)
    assert note["budget_seconds"] == FLOOR_SECONDS
    assert "fallback" not in note
    assert note.get("forced") or note["simulations"] >= FLOOR_SIMULATIONS


def test_the_first_decision_of_a_turn_keeps_its_level(service: MatchService) -> None:
    note = _bot_turn(service, {"kind": "ismcts", "level": "easy"}, since=0.0)
    assert note["budget_seconds"] == EASY.time_cap


def test_an_all_bot_match_keeps_its_levels_budgets(service: MatchService) -> None:
    record, _ = service.create_match("evolution", {}, SEED, [{"kind": "bot", "bot": {
        "kind": "ismcts", "level": "easy"}}] * 2)
    assert record.bots_since is None
    # Even a turn budget of a millisecond leaves an all-bot match's decisions whole.
    for _ in range(3):
        seat = record.to_move[0]
        assert turns.play_bot_turn(service, record.id, seat, record.version, 5,
                                   turn=TurnBudget(0.001)) == "played"
        record = service.load(record.id)
        assert service.store.log(record.id)[-1]["bot"]["budget_seconds"] == EASY.time_cap
