"""Playout policies: the uniformly random default, or the policy a game provides.

A policy picks a legal move for ``seat`` in a full (determinized) state using only ``rng``
(``shared.kernel.protocol.Policy``). Games own their heuristics (``Game.playout_heuristic``) and say
whether the search should use them (``Game.playout_policy``): this module names no game.
A playout may also stop early at a game's cut-off (``Game.playout_cutoff``, ``playout_cut``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from shared.kernel.protocol import Cutoff, Game, Move, Policy, State

__all__ = ["Policy", "heuristic_for", "playout", "playout_cut", "playout_until", "policy_for",
           "random_policy"]

CLOCK_EVERY: Final = 32  # playout moves between two readings of the clock in ``playout_until``


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
    uniform = policy is random_policy  # as in ``playout_until``
    while True:
        seats = state.to_move()
        if not seats:
            return
        seat = seats[0]
        move = state.random_move(seat, rng) if uniform else policy(state, seat, rng)
        state.advance(seat, move, rng)


def playout_until(state: State, policy: Policy, rng: random.Random, deadline: float,
                  clock: Callable[[], float]) -> bool:
    """``playout``, abandoned (returning false, ``state`` left mid-match) once ``clock()``
    passes ``deadline``: a search's time cap then holds even when one playout takes far
    longer than the others (a long match, or a loaded machine that stops the process)."""
    # The uniform policy is the engine's own method, called as such: the same move, without
    # a call through a Python function object at every step (compiled build).
    uniform = policy is random_policy
    moves = 0
    while True:
        seats = state.to_move()
        if not seats:
            return True
        moves += 1
        if moves % CLOCK_EVERY == 0 and clock() > deadline:
            return False
        seat = seats[0]
        move = state.random_move(seat, rng) if uniform else policy(state, seat, rng)
        state.advance(seat, move, rng)


def playout_cut(state: State, policy: Policy, rng: random.Random, deadline: float,
                clock: Callable[[], float], cutoff: Cutoff) -> tuple[bool, list[float] | None]:
    """``playout_until`` that stops at ``cutoff``'s horizon: ``(False, None)`` if abandoned at
    ``deadline``, ``(True, None)`` if the match ended, ``(True, rewards)`` if the cut-off
    scored the position first (``Cutoff.evaluate``, asked before every move)."""
    uniform = policy is random_policy
    mark = cutoff.mark(state)
    moves = 0
    while True:
        seats = state.to_move()
        if not seats:
            return True, None
        scored = cutoff.evaluate(state, mark)
        if scored is not None:
            return True, scored
        moves += 1
        if moves % CLOCK_EVERY == 0 and clock() > deadline:
            return False, None
        seat = seats[0]
        move = state.random_move(seat, rng) if uniform else policy(state, seat, rng)
        state.advance(seat, move, rng)
