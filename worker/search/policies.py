"""Playout policies: the default uniformly random one and optional per-game heuristics.

A policy picks a legal move for ``seat`` in ``state`` using only ``rng`` for randomness; the
search plays it with ``State.apply_legal`` (no re-validation), so a policy must only return
moves the state itself offers (its ``legal_moves`` or ``random_move``) or build exactly such
a move. The
search plays every playout with the policy registered for the game's id, else the default.
A heuristic is registered only where it measurably improves strength at equal wall time
(``bench/strength.py --policy``); see the module docstrings of the games' sections below.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from shared.protocol import Move, State
from shared.rng import randbelow

Policy = Callable[[State, int, random.Random], Move]


def random_policy(state: State, seat: int, rng: random.Random) -> Move:
    """Uniformly random legal move (via the engine's own, possibly faster, ``random_move``)."""
    return state.random_move(seat, rng)


_POLICIES: dict[str, Policy] = {}


def register_policy(game_id: str, policy: Policy) -> Policy:
    """Make ``policy`` the playout policy of game ``game_id``."""
    _POLICIES[game_id] = policy
    return policy


def policy_for(game_id: str) -> Policy:
    """The playout policy of ``game_id``: its registered heuristic, else uniformly random."""
    return _POLICIES.get(game_id, random_policy)


def playout(state: State, policy: Policy, rng: random.Random) -> None:
    """Play ``state`` to the end in place, the first listed seat acting at each step."""
    while True:
        seats = state.to_move()
        if not seats:
            return
        seat = seats[0]
        state.apply_legal(seat, policy(state, seat, rng), rng)


# -- per-game heuristics ------------------------------------------------------------------------
# They read engine internals (playouts run on full determinized states, never on views), and
# fall back to the uniform policy wherever their idea does not apply.

SAVANNA_SAMPLES = 3  # candidate picks scored per playout step


def savanna_policy(state: State, seat: int, rng: random.Random) -> Move:
    """Savanna: of a few uniformly drawn (card, cell) picks, the one whose savanna scores
    highest right after placing it (S-3 scoring of the partial grid, gazelle bonus aside)."""
    from shared.games.savanna_scoring import score_savanna

    hand = state.hands[state.hand_index(seat)]  # type: ignore[attr-defined]
    cells = state.legal_cells(seat)  # type: ignore[attr-defined]
    grid = state.savannas[seat]  # type: ignore[attr-defined]
    best: tuple[str, tuple[int, int]] | None = None
    best_value = -1
    for _ in range(SAVANNA_SAMPLES):
        card = hand[rng.randrange(len(hand))]
        cell = cells[rng.randrange(len(cells))]
        value = score_savanna({**grid, cell: card}).total
        if value > best_value:
            best, best_value = (card, cell), value
    assert best is not None
    card, (row, col) = best
    return {"type": "pick", "card": card, "row": row, "col": col}


_FEEDING = frozenset(("take_food", "attack", "burn_fat"))


def evolution_policy(state: State, seat: int, rng: random.Random) -> Move:
    """Evolution: in feeding, get food (take a token, attack, burn fat) rather than pass or end
    the turn while any way to get food exists; elsewhere uniformly random."""
    if state.phase == "feeding" and state.pending is None:  # type: ignore[attr-defined]
        moves = state.legal_moves(seat)
        feeding = [m for m in moves if m["type"] in _FEEDING]
        if feeding:
            return feeding[randbelow(rng, len(feeding))]
        return moves[randbelow(rng, len(moves))]
    return state.random_move(seat, rng)  # the engine's: same draw, faster in development


#: Candidate heuristics by game id (``bench.strength`` compares them with ``/h``); only those
#: that measurably helped at equal wall time are registered below.
HEURISTICS: dict[str, Policy] = {"savanna": savanna_policy, "evolution": evolution_policy}

# Measured at equal wall time (0.05 s a move, 2 seats, ``bench.strength``): the Evolution
# heuristic won 32 of 40 matches against the same search with uniform playouts (Wilson 95%
# 0.65-0.90), so it is registered; the Savanna one won 23 of 60 (0.27-0.51): its scoring
# costs more playouts than it is worth, so Savanna keeps uniform playouts.
register_policy("evolution", evolution_policy)
