"""The development phase (E-3.1): play cards as animals or traits, or pass.

A card may become a new animal, one trait of its (for good) on one of your animals, Parasite
on another player's animal, or a paired trait on two of your animals. No animal carries a
trait twice except Fat Tissue; the same pair never gets the same paired trait twice;
Scavenger and Carnivorous never share an animal. Passing ends your development this phase.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from shared.protocol import Event, Move

from .cards import PAIRED, faces
from .model import Animal

if TYPE_CHECKING:
    from .state import EvolutionState


def trait_allowed(animal: Animal, trait: str) -> bool:
    """E-3.1 restrictions for a single trait on ``animal`` (ownership checked by the caller)."""
    if trait == "fat_tissue":
        return True  # several Fat Tissue cards per animal are allowed
    if trait == "carnivorous" and animal.has("scavenger"):
        return False
    if trait == "scavenger" and animal.has("carnivorous"):
        return False
    return not animal.has(trait)


def pair_exists(st: EvolutionState, trait: str, a: int, b: int) -> bool:
    """Does the pair ``a``-``b`` already carry ``trait`` (either orientation)?"""
    for card in st.animals[a].pairs:
        t, x, y = st.pairs[card]
        if t == trait and {x, y} == {a, b}:
            return True
    return False


def moves(st: EvolutionState, seat: int) -> list[Move]:
    """Legal development moves of ``seat`` (it is on turn)."""
    result: list[Move] = []
    own = st.own(seat)
    others = [a for s in range(st.num_players) if s != seat for a in st.own(s)]
    for card in st.hands[seat]:
        result.append({"type": "play_animal", "card": card})
        for trait in faces(card):
            if trait in PAIRED:
                for i, a in enumerate(own):
                    for b in own[i + 1:]:
                        if pair_exists(st, trait, a.id, b.id):
                            continue
                        if trait == "symbiosis":  # the first animal is the symbiont
                            result.append({"type": "play_pair", "card": card, "trait": trait,
                                           "animals": [a.id, b.id]})
                            result.append({"type": "play_pair", "card": card, "trait": trait,
                                           "animals": [b.id, a.id]})
                        else:
                            result.append({"type": "play_pair", "card": card, "trait": trait,
                                           "animals": sorted((a.id, b.id))})
            elif trait == "parasite":  # only on another player's animal
                for a in others:
                    if trait_allowed(a, trait):
                        result.append({"type": "play_trait", "card": card, "trait": trait,
                                       "animal": a.id})
            else:
                for a in own:
                    if trait_allowed(a, trait):
                        result.append({"type": "play_trait", "card": card, "trait": trait,
                                       "animal": a.id})
    result.append({"type": "pass"})
    return result


def apply(st: EvolutionState, seat: int, move: Move, rng: random.Random,
          events: list[Event]) -> None:
    """Play a validated development move, then pass the turn on."""
    kind = move["type"]
    if kind == "pass":
        st.passed[seat] = True
        events.append({"type": "passed", "seat": seat, "phase": "development"})
    else:
        card = move["card"]
        st.hands[seat].remove(card)
        if kind == "play_animal":
            animal = Animal(st.next_animal, seat, card)
            st.next_animal += 1
            st.animals[animal.id] = animal
            st.table[seat].append(animal.id)
            events.append({"type": "animal_played", "seat": seat, "animal": animal.id,
                           "exclude": [seat]})
            events.append({"type": "animal_played", "seat": seat, "animal": animal.id,
                           "card": card, "audience": [seat]})
        elif kind == "play_trait":
            st.animals[move["animal"]].traits.append((card, move["trait"]))
            events.append({"type": "trait_played", "seat": seat, "card": card,
                           "trait": move["trait"], "animal": move["animal"]})
        else:
            a, b = move["animals"]
            st.pairs[card] = (move["trait"], a, b)
            st.animals[a].pairs.append(card)
            st.animals[b].pairs.append(card)
            events.append({"type": "pair_played", "seat": seat, "card": card,
                           "trait": move["trait"], "animals": [a, b]})
        if not st.hands[seat]:
            st.passed[seat] = True  # no cards = pass (E-3.1)
    next_player(st, seat, events, include_start=False, rng=rng)


def next_player(st: EvolutionState, start: int, events: list[Event], include_start: bool,
                rng: random.Random) -> None:
    """Give the turn to the next seat clockwise that has not passed; else end the phase."""
    n = st.num_players
    for k in range(0 if include_start else 1, n + 1):
        seat = (start + k) % n
        if not st.passed[seat]:
            st.turn = seat
            return
    st.start_feeding(rng, events)
