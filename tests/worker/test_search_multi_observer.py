"""The multiple-observer variant of the search (``multi_observer=True``) on the toy game."""

from __future__ import annotations

import random
from typing import Any

import pytest

from shared.kernel.protocol import State
from shared.search import SearchBudget, search_move
from tests.worker.toygame import TOY, ToyState

SMALL = SearchBudget(simulations=300, time_cap=60.0)


def _state(**data: Any) -> ToyState:
    base: dict[str, Any] = {"picks": None, "revealed": [], "gambler": None, "prizes": []}
    base.update(data)
    if base["picks"] is None:
        base["picks"] = [None] * base["players"]
    return TOY.state_from_json(base)


def _search(state: State, seat: int, seed: int = 0, budget: SearchBudget = SMALL,
            stats: dict[str, Any] | None = None, stop_when_decided: bool = True) -> Any:
    return search_move(TOY, state.view(seat), seat, budget, random.Random(seed), stats,
                       stop_when_decided=stop_when_decided, multi_observer=True)


def test_finds_the_decisive_moves_the_single_observer_search_finds() -> None:
    # The positions of test_search.py: the one winning card, banking a sure win, and (with
    # a secret pick already made) the searcher acting second of three.
    decisive = _state(players=2, deck=6, hands=[[1, 6], [2, 5]], prize=4, prizes=[1],
                      revealed=[[3, 4]], scores=[0, 2])
    bank = _state(players=2, deck=6, hands=[[1], [5]], prize=4, prizes=[1],
                  revealed=[[3, 4], [6, 2]], scores=[0, 1], gambler=0)
    second = _state(players=3, deck=9, hands=[[2], [1, 6], [4, 5]], picks=[3, None, None],
                    prize=4, prizes=[1], revealed=[[7, 8, 9]], scores=[2, 0, 2])
    for seed in range(3):
        assert _search(decisive, 0, seed) == {"type": "pick", "card": 6}
        assert _search(second, 1, seed) == {"type": "pick", "card": 6}
    assert _search(bank, 0) == {"type": "bank"}


@pytest.mark.parametrize("players", [2, 3, 5])
def test_every_seat_plays_a_canonical_legal_move_to_the_end(players: int) -> None:
    rng = random.Random(players)
    state = TOY.new_state(players, {}, rng)
    while not state.is_over():
        seat = rng.choice(state.to_move())
        move = _search(state, seat, rng.randrange(1000), SearchBudget(30, 60.0))
        assert move in state.legal_moves(seat)
        state.apply(seat, move, rng)


def test_budget_counted_exactly_and_reproducible() -> None:
    state = TOY.new_state(3, {}, random.Random(1))
    first: dict[str, Any] = {}
    second: dict[str, Any] = {}
    budget = SearchBudget(123, 60.0)
    assert _search(state, 0, 4, budget, first, False) == _search(state, 0, 4, budget, second,
                                                                 False)
    assert first["iterations"] == 123 and sum(first["visits"].values()) == 123
    assert first["visits"] == second["visits"] and first["values"] == second["values"]


def test_hidden_cards_cannot_influence_the_search() -> None:
    # The opponents' trees are searched in determinizations drawn from the searcher's view:
    # two true states behind one view give the same move and statistics.
    one = _state(players=3, deck=12, hands=[[1, 9], [2, 10], [3, 11]], picks=[None, 5, None],
                 prize=2, prizes=[1], revealed=[[4, 6, 7]], scores=[1, 0, 0])
    two = _state(players=3, deck=12, hands=[[1, 9], [12, 3], [8, 2]], picks=[None, 10, None],
                 prize=2, prizes=[1], revealed=[[4, 6, 7]], scores=[1, 0, 0])
    assert one.view(0) == two.view(0) and one.to_json() != two.to_json()
    stats_one: dict[str, Any] = {}
    stats_two: dict[str, Any] = {}
    assert _search(one, 0, 3, stats=stats_one) == _search(two, 0, 3, stats=stats_two)
    assert stats_one == {**stats_two, "elapsed": stats_one["elapsed"]}


def test_opponents_secret_picks_are_searched_not_drawn() -> None:
    # The single-observer search draws an opponent's face-down pick from the playout policy;
    # the multiple-observer one selects it in the opponent's own tree. With a policy that
    # records the picks it is asked for, only playouts (after the tree) may call it.
    state = _state(players=2, deck=8, hands=[[1, 5, 8], [2, 6, 7]], prize=3, prizes=[1, 2],
                   revealed=[[3, 4]], scores=[0, 0])
    calls: list[int] = []

    def counting(state: State, seat: int, rng: random.Random) -> Any:
        calls.append(len(state.legal_moves(seat)))
        return state.random_move(seat, rng)

    budget = SearchBudget(200, 60.0)
    for multi in (False, True):
        calls.clear()
        search_move(TOY, state.view(0), 0, budget, random.Random(0), None, policy=counting,
                    stop_when_decided=False, multi_observer=multi)
        # Picks from a full 3-card hand happen only in the first round. Multiple observers:
        # only the 3 iterations that end by expanding one of the searcher's 3 root moves
        # reach the opponent's pick in their playout; every other one selects it in the tree.
        first_round = calls.count(3)
        if multi:
            assert first_round <= 3
        else:
            assert first_round >= budget.simulations // 2
