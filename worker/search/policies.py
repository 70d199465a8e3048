"""Playout policies: the uniformly random default, or the policy a game provides.

A policy picks a legal move for ``seat`` in a full (determinized) state using only ``rng``
(``shared.protocol.Policy``). Games own their heuristics (``Game.playout_heuristic``) and say
whether the search should use them (``Game.playout_policy``): this module names no game.
"""

from __future__ import annotations

import random

from shared.protocol import Game, Move, Policy, State

__all__ = ["Policy", "heuristic_for", "playout", "policy_for", "random_policy"]


def random_policy(state: State, seat: int, rng: random.Random) -> Move:
    """Uniformly random legal move (via the engine's own, possibly faster, ``random_move``)."""
    return state.random_move(seat, rng)


def policy_for(game: Game) -> Policy:
    """The policy the search plays ``game``'s playouts with: the game's choice, else uniform."""
    return game.playout_policy() or random_policy


def heuristic_for(game: Game) -> Policy | None:
    """``game``'s candidate heuristic, used by the search or not (benches compare it)."""
    return game.playout_heuristic()


def playout(state: State, policy: Policy, rng: random.Random) -> None:
    """Play ``state`` to the end in place, the first listed seat acting at each step."""
    while True:
        seats = state.to_move()
        if not seats:
            return
        seat = seats[0]
        state.apply_legal(seat, policy(state, seat, rng), rng)
