"""The built-in bots: each picks a move from its seat's view alone.

``choose_move`` is the one entry point; it receives the view a seat would get over the API,
never the full state, so a bot knows only what a player in its seat knows.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from shared.bots.catalogue import budget_of_bot
from shared.kernel.budget import SearchBudget
from shared.kernel.protocol import Game, Move, View


def bot_rng(seed: int | None, version: int, seat: int) -> random.Random:
    """A bot's random source: reproducible from the match seed, the version and the seat."""
    return random.Random(f"{seed}:{version}:{seat}")


def choose_move(game: Game, view: View, seat: int, bot: Mapping[str, Any],
                rng: random.Random, budget: SearchBudget | None = None,
                stats: dict[str, Any] | None = None) -> Move:
    """The move the bot described by ``bot`` (kind, level, simulations) plays from ``view``.

    A search bot searches ``budget`` (default: its own level's) and fills ``stats``
    (``shared.search.search_move``)."""
    kind = bot.get("kind", "random")
    if kind == "random":
        return random_move(game, view, seat, rng)
    if kind == "greedy":
        return greedy_move(game, view, seat, rng)
    if kind == "ismcts":
        from shared.search import search_move  # imported here: only search bots need it

        return search_move(game, view, seat, budget or budget_of_bot(bot), rng, stats=stats)
    raise ValueError(f"unknown bot kind {kind!r}")


def random_move(game: Game, view: View, seat: int, rng: random.Random) -> Move:
    # The seat's legal moves are the same in every state consistent with its view.
    state = game.sample_from_view(view, seat, rng)
    return rng.choice(state.legal_moves(seat))


def greedy_move(game: Game, view: View, seat: int, rng: random.Random) -> Move:
    """One ply: apply each legal move to a sampled state and keep the best evaluation."""
    state = game.sample_from_view(view, seat, rng)
    best: list[Move] = []
    best_value = float("-inf")
    for move in state.legal_moves(seat):
        trial = state.clone()
        trial.apply(seat, move, random.Random(rng.random()))
        value = game.greedy_value(trial, seat)
        if value > best_value:
            best, best_value = [move], value
        elif value == best_value:
            best.append(move)
    return rng.choice(best)
