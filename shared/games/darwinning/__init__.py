"""Darwinning! (the Multamäki family) — the engine for Evo Arena.

Rules: docs/rules/darwinning.md (rule ids D-x.y); authority: the printed rulebooks v1.7.2.2
(Czech) and v2.2 (Finnish). v2.2 is the default; ``edition: "1.7"`` switches every v1.7
difference at once (the table in the rules reference, D-13). Modules: ``cards`` (components),
``combos`` (trick combinations; ``codes``, the same packed in ints for the hot path),
``model`` (a species board, food-chain movement), ``state`` (the match and the era flow),
``plays`` (the trick plays a seat may make), ``tricks``, ``upgrades``, ``survival`` (the
rules of each part), ``views`` (D-12, sampling, wording).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from shared.games import register
from shared.kernel.protocol import Game, Option, State, View

from .cards import HERD
from .state import DarwinningState
from .survival import food

__all__ = ["DarwinningGame", "DarwinningState"]


class DarwinningGame(Game):
    id = "darwinning"
    name = "Darwinning!"
    # darwinning-2: the dummy's new cards come before the reshuffle (D-11.6); a Metamorphosis
    # card may replace an ability though a place is free (D-14.14). darwinning-3: the v2.2
    # two-player pick from the discard pile may be declined (D-11.7, ``no_pick``)
    version = "darwinning-3"
    min_players = 2
    max_players = 6
    options = (
        Option("edition", "str", "2.2", "Rulebook edition: 2.2 (default) or 1.7 (secret "
               "discard, food chain down, the 1.7 two-player rules)", choices=("2.2", "1.7")),
        Option("eras", "int", 3, "Number of eras: 3 (5, 4, 3 environments) or 4 (5, 5, 4, 3)",
               choices=(3, 4)),
    )
    description = ("Evolve a species over three eras: win tricks with card combinations to "
                   "upgrade it, then survive on the era's environments and on other species "
                   "(the Multamäki family). 2-6 players; two play with a virtual third.")

    def components(self, lang: str = "en") -> dict[str, Any]:
        from .catalogue import build

        return build(self.id, self.data_dir(), lang)

    def new_state(self, players: int, options: dict[str, Any], rng: random.Random) -> State:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"darwinning is for 2-6 players, not {players}")
        options = self.resolve_options(options)
        return DarwinningState.new(players, options["edition"], options["eras"], rng)

    def state_from_json(self, data: dict[str, Any]) -> State:
        return DarwinningState.from_json(data)

    def sample_from_view(self, view: View, seat: int, rng: random.Random) -> State:
        from .views import sample_from_view

        return sample_from_view(view, seat, rng)

    def sampler(self, view: View, seat: int) -> Callable[[random.Random], State]:
        # The view's known part is worked out once; each sample copies it and deals.
        from .views import sample_with_plan, sampling_plan

        plan = sampling_plan(view, seat)
        return lambda rng: sample_with_plan(plan, rng)

    def greedy_value(self, state: State, seat: int) -> float:
        """Score now (D-9.2), plus the population change the era's food and bites promise
        (D-7.4, D-7.5), plus leading the current trick and cards in hand, minus the opponents'
        mean of the same."""
        assert isinstance(state, DarwinningState)
        if state.is_over():
            return super().greedy_value(state, seat)
        leading = -1
        if state.phase in ("trick", "announce") and state.best >= 0:
            leading = state.trick[state.best]["seat"]

        def value(s: int) -> float:
            board = state.boards[s]
            got = food(state, s)["total"]
            eaters = sum(1 for _, t in state.eats if t == s)
            change = -1 if got < board.population else (
                1 if got > board.population and eaters <= 1 else 0)
            if board.bites >= (3 if HERD in board.abilities() else 2):
                change -= 1
            total = board.score()["total"] + 1.5 * change + 0.2 * len(state.hands[s])
            return total + (1.5 if s == leading else 0.0)

        others = [value(s) for s in range(state.num_players) if s != seat]
        return value(seat) - sum(others) / len(others)


register(DarwinningGame())
