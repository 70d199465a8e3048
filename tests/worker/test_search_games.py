"""The search on the registered games: legality, view-only play, decisive positions."""

from __future__ import annotations

import random
from typing import Any

import pytest

from shared.games import all_games, get_game
from shared.kernel.protocol import Cutoff, Game, State
from shared.search import SearchBudget, SearchConfig, search_move

GAMES = all_games()
TINY = SearchBudget(simulations=25, time_cap=60.0)


def _positions(game: Game, players: int, seed: int, count: int) -> list[tuple[State, int]]:
    """``count`` decision points (state, seat) spread over one seeded random match."""
    rng = random.Random(seed)
    state = game.new_state(players, game.resolve_options({}), rng)
    trace: list[tuple[State, int]] = []
    while not state.is_over():
        seat = rng.choice(state.to_move())
        trace.append((state.clone(), seat))
        state.apply(seat, state.random_move(seat, rng), rng)
    return [trace[i * len(trace) // count] for i in range(count)]


@pytest.mark.slow  # searches over seeded random play of every engine
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_search_plays_legal_moves_knowing_only_the_view(game: Game) -> None:
    for players in sorted({game.min_players, min(4, game.max_players)}):
        for state, seat in _positions(game, players, seed=players, count=4):
            view = state.view(seat)
            # A second true state with the same view but other hidden cards, hands, dice.
            twin = game.sample_from_view(view, seat, random.Random(99))
            assert twin.view(seat) == view
            stats_a: dict[str, Any] = {}
            stats_b: dict[str, Any] = {}
            move = search_move(game, view, seat, TINY, random.Random(5), stats=stats_a)
            again = search_move(game, twin.view(seat), seat, TINY, random.Random(5),
                                stats=stats_b)
            assert move in state.legal_moves(seat)
            assert again == move and stats_a["visits"] == stats_b["visits"]
            assert stats_a["iterations"] in (0, TINY.simulations)


# -- Savanna ------------------------------------------------------------------------------------

def _win_value(state: State) -> float:
    """Seat 0's chance to win alone with best play against a uniformly random seat 1."""
    if state.is_over():
        result = state.result()
        return 1.0 if result.ranking[0] == 1 and len(result.winners) == 1 else 0.0
    return max(_move_value(state, move) for move in state.legal_moves(0))


def _move_value(state: State, move: dict[str, Any]) -> float:
    replies = state.legal_moves(1)
    total = 0.0
    for reply in replies:
        trial = state.clone()
        trial.apply(0, move, random.Random(0))
        trial.apply(1, reply, random.Random(0))
        total += _win_value(trial)
    return total / len(replies)


@pytest.mark.slow  # exhaustive valuation, then searches
def test_savanna_search_finds_the_decisive_pick_near_the_end() -> None:
    # Two seats, two draft steps before the end: exhaustively valued positions (seat 0 best
    # play, seat 1 uniformly random, exactly what the search models) where one pick is
    # clearly better than all others, its placements and the last step included; the search
    # must find it.
    from shared.games.savanna import STEPS_PER_PHASE, SavannaState

    game = get_game("savanna")
    found = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = game.new_state(2, {}, rng)
        assert isinstance(state, SavannaState)
        while not (state.phase == 2 and state.step == STEPS_PER_PHASE - 2):
            seat = state.to_move()[0]
            state.apply(seat, state.random_move(seat, rng), rng)
        values = sorted(((_move_value(state, m), i) for i, m in enumerate(state.legal_moves(0))),
                        reverse=True)
        if len(values) < 3 or values[0][0] - values[1][0] < 0.25:
            continue
        best = state.legal_moves(0)[values[0][1]]
        move = search_move(game, state.view(0), 0, SearchBudget(2000, 60.0), random.Random(1))
        assert move == best, f"seed {seed}: {move} instead of {best} ({values[:3]})"
        found += 1
    assert found >= 2  # the scan must actually test something


# -- Evolution ----------------------------------------------------------------------------------

def _animal(ident: int, owner: int, card: int, traits: list[list[Any]], food: int,
            attacked: bool = False) -> dict[str, Any]:
    return {"id": ident, "owner": owner, "card": card, "traits": traits, "pairs": [],
            "food": food, "fat": 0, "attacked": attacked, "pirated": False,
            "hibernating": False, "poisoned": False, "gained": False, "hib_round": -99}


def _evolution_last_feeding(animals: list[dict[str, Any]], **flags: Any) -> State:
    """A two-seat match in its last round's feeding, empty bank and deck; seat 1 holds two
    hidden cards; every other card lies in the discard piles (seat 1's pile is the larger, so
    it wins ties, E-4.2)."""
    used = {0, 1} | {a["card"] for a in animals} | {c for a in animals for c, _ in a["traits"]}
    rest = [c for c in range(84) if c not in used]
    data: dict[str, Any] = {
        "game": "evolution", "players": 2, "deck": [], "hands": [[], [0, 1]],
        "discards": [rest[:30], rest[30:]], "animals": animals, "pairs": [],
        "next_animal": 9, "phase": "feeding", "round": 6, "first": 0, "turn": 0,
        "last_round": True, "passed": [False, False], "main_done": False, "acted": False,
        "trait_used": False, "chain": None,
        "attacked_phase": [False, False], "bank": 0, "dice": [2], "last_die": None,
        "pending": None}
    data.update(flags)
    return get_game("evolution").state_from_json(data)


def test_evolution_search_finds_the_one_attack_that_decides() -> None:
    # Seat 0's hungry carnivore must eat or starve (no food left). Eating the plain animal
    # ties 4-4 and loses the tie-break; eating the two-trait animal wins 4-2.
    state = _evolution_last_feeding([
        _animal(1, 0, 2, [[40, "carnivorous"]], 0),
        _animal(2, 1, 3, [], 1),
        _animal(3, 1, 5, [[60, "fat_tissue"], [61, "fat_tissue"]], 1)])
    assert len(state.legal_moves(0)) == 3
    for seed in range(3):
        move = search_move(get_game("evolution"), state.view(0), 0, SearchBudget(300, 60.0),
                           random.Random(seed))
        assert move == {"type": "attack", "carnivore": 1, "target": 3}


def test_evolution_defender_not_on_turn_drops_the_right_trait() -> None:
    # Seat 0 attacked seat 1's Tail Loss + Parasite animal; seat 1 decides off turn. Dropping
    # Tail Loss keeps 7 points to seat 0's 6; dropping Parasite (3 points) or being eaten
    # loses.
    state = _evolution_last_feeding([
        _animal(1, 0, 2, [[40, "carnivorous"]], 0, attacked=True),
        _animal(4, 0, 6, [[62, "fat_tissue"], [63, "fat_tissue"], [56, "fat_tissue"],
                          [57, "fat_tissue"]], 1),
        _animal(2, 1, 3, [], 1),
        _animal(3, 1, 5, [[28, "tail_loss"], [68, "parasite"]], 3)],
        main_done=True, acted=True, attacked_phase=[True, False],
        pending={"carnivore": 1, "target": 3, "mimicry_used": False, "ran": []})
    assert state.to_move() == [1] and len(state.legal_moves(1)) == 3
    for seed in range(3):
        move = search_move(get_game("evolution"), state.view(1), 1, SearchBudget(300, 60.0),
                           random.Random(seed))
        assert move == {"type": "defend", "trait": "tail_loss", "card": 28}


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_heuristic_playout_policies_play_legal_moves_to_the_end(game: Game) -> None:
    policy = game.playout_heuristic()
    if policy is None:
        pytest.skip(f"no heuristic for {game.id}")
    for players in sorted({game.min_players, min(4, game.max_players)}):
        rng = random.Random(players)
        state = game.new_state(players, game.resolve_options({}), rng)
        while not state.is_over():
            seat = state.to_move()[0]
            move = policy(state, seat, rng)
            assert move in state.legal_moves(seat)
            state.apply(seat, move, rng)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_a_playout_past_the_deadline_is_abandoned(game: Game) -> None:
    # A clock that jumps far past the cap after its first reading: the first playout (every
    # game's whole match is longer than the clock's check interval) is abandoned, nothing is
    # backed up, and the search still answers at once with a legal move of the seat. The
    # playouts run to the end here (a cut-off that never cuts): a registered cut-off may end
    # a playout before the first clock check (its own abandonment: test_search_cutoff.py).
    readings = iter([0.0])
    state = game.new_state(2, game.resolve_options({}), random.Random(3))
    seat = state.to_move()[0]
    stats: dict[str, Any] = {}
    move = search_move(game, state.view(seat), seat, SearchBudget(1_000, 2.5),
                       random.Random(0), stats=stats,
                       config=SearchConfig(clock=lambda: next(readings, 100.0),
                                           cutoff=Cutoff()))
    assert move in state.legal_moves(seat)
    assert stats["stopped"] == "time" and stats["iterations"] == 0 and not stats["visits"]
