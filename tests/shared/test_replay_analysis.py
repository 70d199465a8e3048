"""The post-match analysis searches from the seat's view alone: two states the seat cannot
tell apart (the same view, different hidden cards) get the same analysis of a decision."""

from __future__ import annotations

import random

import pytest

from shared.games import all_games
from shared.kernel.budget import SearchBudget
from shared.kernel.protocol import Game, State
from shared.replays.analysis import _decision, analyse, replayed

BUDGET = SearchBudget(simulations=40, time_cap=30.0)  # the simulations end it: reproducible


def decision_point(game: Game, seed: int) -> State:
    """A state some random moves in where seat 0 has a choice to make."""
    rng = random.Random(seed)
    state = game.new_state(2, {}, rng)
    moved = 0
    while not state.is_over():
        seat = state.to_move()[0]
        if seat == 0 and moved > 6 and len(state.legal_moves(0)) > 1:
            return state
        state.apply(seat, rng.choice(state.legal_moves(seat)), rng)
        moved += 1
    raise AssertionError("no decision of seat 0 with a choice")


@pytest.mark.parametrize("game", list(all_games()), ids=lambda g: g.id)
def test_a_decision_is_analysed_from_the_seats_view_only(game: Game) -> None:
    state = decision_point(game, 3)
    other = game.sample_from_view(state.view(0), 0, random.Random(9))
    assert other.view(0) == state.view(0) and other.to_json() != state.to_json()
    entry = {"seat": 0, "version": 9, "move": state.legal_moves(0)[-1]}
    found = _decision(game, state, entry, 5, 0, 11, BUDGET)
    assert found == _decision(game, other, entry, 5, 0, 11, BUDGET)
    assert found["best_id"] in {state.move_id(m) for m in state.legal_moves(0)}
    assert found["loss"] is None or found["loss"] >= 0


def test_an_analysis_lists_each_choice_of_the_seat_and_marks_the_worst() -> None:
    game = next(g for g in all_games() if g.id == "savanna")
    rng = random.Random(5)
    shadow = random.Random(77)  # the match's own source, as the log was made with
    state = game.new_state(2, {}, shadow)
    log = []
    while not state.is_over():
        seat = state.to_move()[0]
        move = rng.choice(state.legal_moves(seat))
        state.apply(seat, move, shadow)
        log.append({"version": len(log) + 2, "seat": seat, "move": move})
    found = analyse(game, 2, {}, 77, log, 1, SearchBudget(simulations=20, time_cap=30.0))
    choices = [step for step, (before, entry) in enumerate(replayed(game, 2, {}, 77, log), 1)
               if entry["seat"] == 1 and len(before.legal_moves(1)) > 1]
    assert [d["step"] for d in found["decisions"]] == choices
    by_step = {d["step"]: d["loss"] for d in found["decisions"]}
    marked = [by_step[step] for step in found["marked"]]
    assert marked == sorted(marked, reverse=True) and len(marked) <= 5
    assert all(loss <= min(marked, default=1.0) for step, loss in by_step.items()
               if step not in found["marked"] and loss is not None)
