"""Evolution: The Origin of Species (Knorre & Machin, 2010) — the engine for Evo Arena.

Rules: docs/rules/evolution.md (rule ids E-x.y; its "Readings" and DECISIONs say where the
printed rulebook leaves a choice to us). Modules: ``cards`` (deck and tables), ``model`` (an
animal), ``state`` (match and round flow), ``development``, ``feeding``, ``chain`` (food
handed on, with the owner's choices), ``attack`` (phases and traits), ``views`` (E-7,
wording), ``policy`` (the search's playout heuristic).

Engine DECISIONs (each in docs/rules/evolution.md): animal ids are sequential and separate
from card ids; the card under an animal is private to its owner, trait cards are public;
every defence is optional (``decline`` always offered), Running once per animal per attack;
Tail Loss may drop any trait card of the animal (food beyond the new requirement is lost);
Hibernation only on an unfed animal; a paired trait scores +1 on each of its two animals;
animals hold a food count (red and blue are not told apart once placed).
"""

from __future__ import annotations

import random
from typing import Any

from shared.games import register
from shared.kernel.protocol import Game, Policy, State, View

from .cards import FOOD_EXTRA
from .policy import evolution_policy
from .state import EvolutionState

__all__ = ["EvolutionGame", "EvolutionState"]


class EvolutionGame(Game):
    id = "evolution"
    name = "Evolution: The Origin of Species"
    version = "evolution-2"  # 2: the feeding turn of rules E-3.5-E-3.8
    min_players = 2
    max_players = 8
    description = ("Breed animals, give them traits and fight over a scarce food bank "
                   "(Knorre & Machin, 2010). 2-4 players with one deck, 5-8 with two.")
    heuristic_playouts = True  # see .policy: it won at equal wall time

    def components(self, lang: str = "en") -> dict[str, Any]:
        from .catalogue import build

        return build(self.id, self.data_dir(), lang)

    def playout_heuristic(self) -> Policy | None:
        return evolution_policy  # type: ignore[return-value]

    def new_state(self, players: int, options: dict[str, Any], rng: random.Random) -> State:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"evolution is for 2-8 players, not {players}")
        return EvolutionState.new(players, rng)

    def state_from_json(self, data: dict[str, Any]) -> State:
        return EvolutionState.from_json(data)

    def sample_from_view(self, view: View, seat: int, rng: random.Random) -> State:
        from .views import sample_from_view

        return sample_from_view(view, seat, rng)

    def greedy_value(self, state: State, seat: int) -> float:
        """Score-like material (rule E-4.1) discounted when unfed, minus the opponents' mean."""
        assert isinstance(state, EvolutionState)
        if state.is_over():
            return super().greedy_value(state, seat)

        def material(s: int) -> float:
            total = 0.3 * len(state.hands[s])
            for a in state.own(s):
                points = 2 + len(a.traits) + len(a.pairs) + sum(
                    FOOD_EXTRA.get(t, 0) for _, t in a.traits)
                fed = 1.0 if a.is_fed() and not a.poisoned else (
                    0.8 if state.phase == "development" else 0.4)
                total += points * fed + 0.3 * a.fat
            return total

        others = [material(s) for s in range(state.num_players) if s != seat]
        return material(seat) - sum(others) / len(others)


register(EvolutionGame())
