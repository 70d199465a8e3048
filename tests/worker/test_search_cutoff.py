"""Playout cut-offs (``Game.playout_cutoff``, ``search_move(cutoff=...)``) on the toy game."""

from __future__ import annotations

import random
from typing import Any

from shared.bots.catalogue import budget_for
from shared.kernel.protocol import Cutoff, CutoffBudgets, State
from shared.search import SearchBudget, SearchConfig, search_move
from shared.search.policies import playout_cut, random_policy
from tests.worker.toygame import TOY, ToyGame, ToyState

BUDGET = SearchBudget(simulations=200, time_cap=60.0)


class RoundCut(Cutoff):
    """Cuts at the end of the toy round a playout begins in (a revealed round more than at
    ``mark``), scoring every seat ``value``; records every call."""

    def __init__(self, value: float = 0.3) -> None:
        self.value = value
        self.marks = 0
        self.asked: list[tuple[int, int]] = []  # (rounds revealed, mark) at every evaluate
        self.cuts = 0

    def mark(self, state: State) -> int:
        assert isinstance(state, ToyState)
        self.marks += 1
        return len(state.revealed)

    def evaluate(self, state: State, mark: int) -> list[float] | None:
        assert isinstance(state, ToyState)
        self.asked.append((len(state.revealed), mark))
        if len(state.revealed) <= mark:
            return None
        self.cuts += 1
        return [self.value] * state.num_players


#: A registration covering ``BUDGET`` (200 simulations) and time budgets up to 1 s.
COVERING = CutoffBudgets(simulations=200, seconds=1.0)


class CutToy(ToyGame):
    """The toy game offering ``RoundCut`` as its candidate cut-off, registered at the player
    counts and budgets ``registered``."""

    def __init__(self, registered: dict[int, CutoffBudgets] | None = None) -> None:
        super().__init__(hand=6)
        self.cutoff_budgets = registered or {}
        self.offered: list[RoundCut] = []

    def playout_cutoff(self, horizon: int | None = None) -> Cutoff | None:
        cut = RoundCut()
        self.offered.append(cut)
        return cut


def _search(game: ToyGame, state: State, seat: int, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
    stats: dict[str, Any] = {}
    move = search_move(game, state.view(seat), seat, BUDGET, random.Random(7), stats=stats,
                       config=SearchConfig(stop_when_decided=False, **kwargs))
    del stats["elapsed"]  # wall time: the one figure two identical searches do not share
    return move, stats


def test_the_hook_is_off_by_default_and_an_unregistered_cutoff_changes_nothing() -> None:
    assert TOY.playout_cutoff() is None and TOY.search_cutoff(2, BUDGET) is None
    assert not TOY.cutoff_budgets and TOY.playouts(2, BUDGET) == "full"
    state = CutToy().new_state(2, {}, random.Random(3))
    plain = _search(ToyGame(hand=6), state, 0)
    offered = CutToy()
    assert _search(offered, state, 0) == plain  # same move, same statistics
    assert offered.offered == []  # the candidate was never even asked for


def test_a_cutoff_that_never_cuts_plays_exactly_the_full_playouts() -> None:
    # The cut-off loop draws the same moves with the same rng: only a cut changes anything.
    state = TOY.new_state(3, {}, random.Random(4))
    assert _search(TOY, state, 1, cutoff=Cutoff()) == _search(TOY, state, 1)


def test_playouts_stop_at_the_horizon_and_back_up_the_evaluation() -> None:
    # Six rounds to go: every playout reaches the end of its round long before the match
    # ends, so every iteration backs up the cut-off's 0.3 for every seat, never a result.
    state = ToyGame(hand=6).new_state(2, {}, random.Random(5))
    cut = RoundCut(0.3)
    move, stats = _search(TOY, state, 0, cutoff=cut)
    assert move in state.legal_moves(0)
    assert stats["iterations"] == BUDGET.simulations
    assert cut.marks == cut.cuts == BUDGET.simulations  # every playout was cut, once
    assert all(revealed <= mark + 1 for revealed, mark in cut.asked)  # never past it
    assert stats["values"] and all(abs(v - 0.3) < 1e-12 for v in stats["values"].values())
    full = _search(TOY, state, 0)[1]["values"]
    assert any(abs(v - 0.3) > 0.05 for v in full.values())  # full playouts back up results


def test_a_registered_cutoff_is_used_without_being_asked() -> None:
    game = CutToy({2: COVERING})
    assert game.playouts(2, BUDGET) == "cut" and game.playouts(3, BUDGET) == "full"
    state = game.new_state(2, {}, random.Random(6))
    _, stats = _search(game, state, 0)
    [cut] = game.offered
    assert cut.cuts == stats["iterations"] == BUDGET.simulations
    # An explicit cut-off wins over the registered one.
    explicit = RoundCut(0.6)
    _search(game, state, 0, cutoff=explicit)
    assert explicit.cuts == BUDGET.simulations and len(game.offered) == 1


def test_a_cutoff_registered_for_two_seats_leaves_three_seats_uncut() -> None:
    game = CutToy({2: COVERING})
    state = game.new_state(3, {}, random.Random(6))
    assert _search(game, state, 1) == _search(ToyGame(hand=6), state, 1)  # full playouts
    assert game.offered == [] and game.search_cutoff(3, BUDGET) is None


def test_a_cutoff_registered_up_to_a_budget_leaves_bigger_budgets_uncut() -> None:
    # A cut-off can win with few simulations and lose with many (docs/benchmarks.md's North Star
    # measurements): a registration names the budgets it won at, and only those cut.
    small = CutoffBudgets(simulations=199, seconds=0.5)
    game = CutToy({2: small})
    state = game.new_state(2, {}, random.Random(6))
    assert _search(game, state, 0) == _search(ToyGame(hand=6), state, 0)  # 200: full
    assert game.offered == [] and game.playouts(2, BUDGET) == "full"
    assert small.cover(SearchBudget(simulations=199, time_cap=60.0))
    assert not small.cover(SearchBudget(simulations=200, time_cap=0.1))  # not by its cap
    # A time budget (``SearchBudget.timed``) is covered by its deadline, not its ceiling.
    assert small.cover(budget_for(None, None, 0.5))
    assert not small.cover(budget_for(None, None, 0.6))
    assert game.search_cutoff(2, budget_for(None, None, 0.5)) is game.offered[-1]


def test_playout_cut_reports_a_cut_an_end_and_an_abandoned_playout() -> None:
    rng = random.Random(1)
    state = ToyGame(hand=3).new_state(2, {}, rng)
    done, scored = playout_cut(state, random_policy, rng, 1e9, lambda: 0.0, RoundCut(0.2))
    assert (done, scored) == (True, [0.2, 0.2])
    assert len(state.revealed) == 1 and not state.is_over()  # stopped at its round's end
    done, scored = playout_cut(state, random_policy, rng, 1e9, lambda: 0.0, Cutoff())
    assert (done, scored) == (True, None) and state.is_over()  # no cut: to the end
    fresh = ToyGame(hand=40).new_state(2, {}, rng)
    done, scored = playout_cut(fresh, random_policy, rng, 0.0, lambda: 1.0, Cutoff())
    assert (done, scored) == (False, None)  # past its deadline: abandoned
