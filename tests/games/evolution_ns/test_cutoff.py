"""The candidate playout cut-off of Evolution (North Star) (``cutoff.py``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from shared.bots.catalogue import HINT_BUDGET, LEVELS, budget_for
from shared.games import get_game
from shared.games.evolution_ns.cutoff import (
    RoundCutoff,
    projected_rewards,
    projected_score,
    rounds_left,
)
from shared.games.evolution_ns.state import NSState
from shared.kernel.protocol import Cutoff, State
from shared.search import SearchBudget, SearchConfig, search_move
from shared.search.ismcts import rewards
from tests.games.evolution_ns.helpers import Builder

GAME = get_game("evolution-ns")


def _two_seats(deck: int = 40, bags: tuple[int, int] = (0, 0)) -> NSState:
    b = Builder(2)
    b.species(0, "horns", body=2, pop=3)
    b.species(1, body=1, pop=1)
    b.hand(0, "fertile")
    b.hand(1, "fertile")
    return b.done(phase="food", deck=deck, bags=list(bags))


def test_registered_for_the_search_with_two_seats_at_the_budgets_it_won_at() -> None:
    # Fitted to and measured in two-seat matches (the module docstring, docs/benchmarks.md): it won
    # at 0.25 s, 300 and 1,000 simulations a move, and lost to full playouts at 10,000.
    easy, medium, hard = LEVELS["easy"], LEVELS["medium"], LEVELS["hard"]
    for budget in (easy, medium, HINT_BUDGET, budget_for(None, None, 0.25)):
        assert isinstance(GAME.search_cutoff(2, budget), RoundCutoff)
    for budget in (hard, budget_for(None, 1_001, None), budget_for(None, None, 0.3)):
        assert GAME.search_cutoff(2, budget) is None
    assert all(GAME.search_cutoff(n, easy) is None for n in range(3, 7))
    assert isinstance(GAME.playout_cutoff(), RoundCutoff)
    assert GAME.playout_cutoff(3).rounds == 3  # type: ignore[union-attr]
    with pytest.raises(ValueError):
        RoundCutoff(0)


@pytest.mark.rule("N-4.1")
def test_projection_starts_from_the_points_now_not_fat_tissue_food() -> None:
    b = Builder(2)
    b.species(0, "fat_tissue", "horns", body=4, pop=3, fat=4)
    b.species(1, body=1, pop=1)
    st = b.done(phase="food", deck=0, bags=[5, 0])
    st.last_round = True
    assert rounds_left(st) == 1
    # N-4.1: bag 5 + population 3 + 2 traits; the 4 Fat Tissue food score nothing.
    assert projected_score(st, 0, 1) == pytest.approx(10 + 0.28)
    assert projected_score(st, 1, 1) == pytest.approx(1 + 0.28)


def test_rounds_left_count_the_deals_the_deck_still_holds() -> None:
    # A deal draws 3 + 1 per species a seat (N-3.1): 4 + 4 = 8 cards here.
    assert rounds_left(_two_seats(deck=16)) == 3
    assert rounds_left(_two_seats(deck=17)) == 4  # the partial deal is a last round
    last = _two_seats(deck=16)
    last.last_round = True
    assert rounds_left(last) == 1


def test_a_better_position_gets_the_higher_reward_on_the_terminal_scale() -> None:
    st = _two_seats()
    ahead = projected_rewards(st)
    assert ahead[0] > 0.5 > ahead[1]  # 3 population and a trait against 1 population
    assert sum(ahead) == pytest.approx(1.0)  # two seats: win 1 + loss 0, as a finished match
    richer = _two_seats(bags=(6, 0))
    assert projected_rewards(richer)[0] > ahead[0]  # more food in the bag: more likely to win
    behind = _two_seats(bags=(0, 12))
    assert projected_rewards(behind)[0] < 0.5
    # The same lead is surer with fewer rounds left to overturn it.
    late = _two_seats(deck=0)
    late.last_round = True
    assert projected_rewards(late)[0] > ahead[0]
    # A lead far beyond the spread is worth what a win is worth at the end of the match.
    over = _two_seats(deck=0, bags=(60, 0))
    over.last_round = True
    finished = rewards(_finished(over).result())
    assert projected_rewards(over) == pytest.approx(finished, abs=1e-6)


def _finished(st: NSState) -> NSState:
    st.phase = "over"
    return st


def test_equal_seats_share_the_reward_and_more_seats_stay_in_range() -> None:
    b = Builder(4)
    for seat in range(4):
        b.species(seat, body=1, pop=2 if seat == 2 else 1)
    st = b.done(phase="food", deck=30, bags=[3, 3, 3, 0])
    values = projected_rewards(st)
    assert values[0] == values[1] and 0.0 < values[3] < values[0] < values[2] < 1.0
    assert sum(values) == pytest.approx(2.0)  # pairwise chances: each pair's sum to 1


class Recording(Cutoff):
    """Wraps ``RoundCutoff`` and records the rounds where each playout began and was cut."""

    def __init__(self, rounds: int) -> None:
        self.inner = RoundCutoff(rounds)
        self.rounds = rounds
        self.began: list[int] = []
        self.cut: list[tuple[int, int, str]] = []  # (mark, round, phase) of each cut

    def mark(self, state: State) -> int:
        assert isinstance(state, NSState)
        self.began.append(state.round)
        return self.inner.mark(state)

    def evaluate(self, state: State, mark: int) -> list[float] | None:
        assert isinstance(state, NSState)
        scored = self.inner.evaluate(state, mark)
        if scored is not None:
            self.cut.append((mark, state.round, state.phase))
            assert scored == projected_rewards(state)
        return scored


@pytest.mark.parametrize("rounds", [1, 2])
def test_search_playouts_stop_at_the_start_of_the_round_past_the_horizon(rounds: int) -> None:
    rng = random.Random(11)
    st = GAME.new_state(2, {}, rng)
    seat = st.to_move()[0]
    cut = Recording(rounds)
    stats: dict[str, Any] = {}
    move = search_move(GAME, st.view(seat), seat, SearchBudget(60, 60.0), random.Random(2),
                       stats=stats, config=SearchConfig(cutoff=cut, stop_when_decided=False))
    assert move in st.legal_moves(seat)
    # Round 1 of about nine: every playout is cut, right where the horizon's next round
    # begins (its cards dealt, N-3.1), never later.
    assert len(cut.cut) == len(cut.began) == stats["iterations"] == 60
    assert all(began == 1 for began in cut.began)
    assert all(now == mark + 1 == rounds + 1 for mark, now, _ in cut.cut)
    assert {phase for _, _, phase in cut.cut} <= {"food", "play"}
