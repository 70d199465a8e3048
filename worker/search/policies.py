"""Playout policies: the default uniformly random one and optional per-game heuristics.

A policy picks a legal move for ``seat`` in ``state`` using only ``rng`` for randomness. The
search plays every playout with the policy registered for the game's id, else the default.
A heuristic is registered only where it measurably improves strength at equal wall time
(``bench/strength.py --policy``); see the module docstrings of the games' sections below.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from shared.protocol import Move, State

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
        state.apply(seat, policy(state, seat, rng), rng)
