"""Evolution (North Star Games, 2014) — the engine for Evo Arena (game id ``evolution-ns``).

Rules: docs/rules/evolution-ns.md (rule ids N-x.y). Modules: ``cards`` (the deck data),
``model`` (a species board), ``state`` (match and round flow), ``play`` (food card and
play-cards phase), ``feeding`` (effects, feeding, attacks, traits), ``views`` (N-6, wording),
``cutoff`` (the search's playout cut-off, registered for two seats and the budgets
it won at).
"""

from __future__ import annotations

import random
from types import MappingProxyType
from typing import Any

from shared.games import register
from shared.kernel.protocol import Cutoff, CutoffBudgets, Game, Option, State, View

from .cards import QUICK_FORCED_PLAYERS
from .state import NSState

__all__ = ["EvolutionNSGame", "NSState"]


class EvolutionNSGame(Game):
    id = "evolution-ns"
    name = "Evolution (North Star)"
    # evolution-ns-2: Cooperation passes plant food from the bank to no carnivore (N-5.5); a
    # seat that passed must still make a compulsory feeding, and an Intelligence card is never
    # forced (N-3.9); a lost-trait draw that empties the deck makes the round the last (N-3.7)
    version = "evolution-ns-2"
    min_players = 2
    max_players = 6
    options = (Option("quick", "bool", False,
                      "Quick variant: every seat plays its cards at once, in secret "
                      "(always on with 6 players)"),)
    description = ("Adapt your species with traits, share a watering hole and fend off "
                   "carnivores (North Star Games, 2014). 2-6 players.")

    def components(self, lang: str = "en") -> dict[str, Any]:
        from .catalogue import build

        return build(self.id, self.data_dir(), lang)

    def new_state(self, players: int, options: dict[str, Any], rng: random.Random) -> State:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"evolution-ns is for 2-6 players, not {players}")
        # N-3.10: the simultaneous play-cards phase is the six-player rule.
        quick = bool(options.get("quick", False)) or players >= QUICK_FORCED_PLAYERS
        return NSState.new(players, quick, rng)

    def state_from_json(self, data: dict[str, Any]) -> State:
        return NSState.from_json(data)

    def sample_from_view(self, view: View, seat: int, rng: random.Random) -> State:
        from .views import sample_from_view

        return sample_from_view(view, seat, rng)

    #: Measured with two seats (README, "Search changes tried"): it beat full playouts over
    #: 200 seeded matches each at 0.25 s a move (equal time) and at 300 and 1,000 simulations
    #: a move (equal simulations), but at ``hard``'s 10,000 it scored 0.390 [0.325, 0.459]
    #: against full playouts, so it is registered up to ``medium``'s 1,000. Its evaluation
    #: was fitted to two-seat matches and its rewards match the search's terminal scale only
    #: there, so with more seats the search plays its playouts out.
    cutoff_budgets = MappingProxyType({2: CutoffBudgets(simulations=1_000, seconds=0.25)})

    def playout_cutoff(self, horizon: int | None = None) -> Cutoff | None:
        """Stop a playout ``horizon`` round ends ahead (default 1: the end of the round it
        began in) and score the projected final standing (``cutoff.RoundCutoff``)."""
        from .cutoff import DEFAULT_ROUNDS, RoundCutoff

        return RoundCutoff(DEFAULT_ROUNDS if horizon is None else horizon)

    def greedy_value(self, state: State, seat: int) -> float:
        """Points so far (N-4.1) with hungry species discounted, cards in hand as a little
        material, minus the opponents' mean."""
        assert isinstance(state, NSState)
        if state.is_over():
            return super().greedy_value(state, seat)

        def material(s: int) -> float:
            total = state.bags[s] + 0.25 * len(state.hands[s])
            for sp in state.species[s]:
                fed = min(sp.food, sp.pop)
                total += 0.5 * sp.pop + 0.5 * fed + len(sp.traits) + 0.3 * sp.fat
                total += 0.15 * sp.body
                if state.phase == "feed" and sp.food < sp.pop:
                    total -= 0.25 * (sp.pop - sp.food)
            return total

        others = [material(s) for s in range(state.num_players) if s != seat]
        return material(seat) - sum(others) / len(others)


register(EvolutionNSGame())
