"""The development phase (docs/rules/evolution.md, rule E-3.1): animals, traits or pass.

A card may become a new animal, one trait of its (for good) on one of your animals, Parasite
on another player's animal, or a paired trait on two of your animals. No animal carries a
trait twice except Fat Tissue; the same pair never gets the same paired trait twice;
Scavenger and Carnivorous never share an animal. Passing ends your development this phase.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from shared.kernel.protocol import Event, Move
from shared.kernel.rng import randbelow

from .cards import PAIRED, faces
from .model import Animal

if TYPE_CHECKING:
    from .state import EvolutionState


def trait_allowed(names: set[str], trait: str) -> bool:
    """E-3.1 restrictions for a single trait on an animal whose trait names are ``names``
    (ownership is checked by the caller)."""
    if trait == "fat_tissue":
        return True  # several Fat Tissue cards per animal are allowed
    if trait in names:
        return False
    if trait == "carnivorous":
        return "scavenger" not in names
    if trait == "scavenger":
        return "carnivorous" not in names
    return True


def pair_exists(st: EvolutionState, trait: str, a: int, b: int) -> bool:
    """Does the pair ``a``-``b`` already carry ``trait`` (either orientation)?"""
    for card in st.animals[a].pairs:
        t, x, y = st.pairs[card]
        if t == trait and {x, y} == {a, b}:
            return True
    return False


def moves(st: EvolutionState, seat: int) -> list[Move]:
    """Legal development moves of ``seat`` (it is on turn), card by card in hand order."""
    own = [(a.id, {t for _, t in a.traits}) for a in st.own(seat)]
    # Where each trait may go depends only on the animals, not on the card: worked out once
    # per trait (playouts list these moves at every development step).
    targets: dict[str, list[Any]] = {}
    result: list[Move] = []
    for card in st.hands[seat]:
        result.append({"type": "play_animal", "card": card})
        for trait in faces(card):
            places = targets.get(trait)
            if places is None:
                places = targets[trait] = _places(st, seat, own, trait)
            if trait in PAIRED:
                for pair in places:
                    result.append({"type": "play_pair", "card": card, "trait": trait,
                                   "animals": list(pair)})
            else:
                for animal in places:
                    result.append({"type": "play_trait", "card": card, "trait": trait,
                                   "animal": animal})
    result.append({"type": "pass"})
    return result


def random_move(st: EvolutionState, seat: int, rng: random.Random) -> Move:
    """``moves(st, seat)[rng.randrange(len(...))]`` without building the other moves.

    It mirrors ``moves`` on purpose: a shared generator of both measured ~12% slower playouts
    (``bench.bench_evolution``), and random-play tests check that the two agree."""
    own = [(a.id, {t for _, t in a.traits}) for a in st.own(seat)]
    targets: dict[str, list[Any]] = {}
    total = 1  # pass
    for card in st.hands[seat]:
        total += 1
        for trait in faces(card):
            places = targets.get(trait)
            if places is None:
                places = targets[trait] = _places(st, seat, own, trait)
            total += len(places)
    index = randbelow(rng, total)
    for card in st.hands[seat]:  # walk the list ``moves`` would build, in its order
        if index == 0:
            return {"type": "play_animal", "card": card}
        index -= 1
        for trait in faces(card):
            places = targets[trait]
            if index < len(places):
                if trait in PAIRED:
                    return {"type": "play_pair", "card": card, "trait": trait,
                            "animals": list(places[index])}
                return {"type": "play_trait", "card": card, "trait": trait,
                        "animal": places[index]}
            index -= len(places)
    return {"type": "pass"}


def _places(st: EvolutionState, seat: int, own: list[tuple[int, set[str]]],
            trait: str) -> list[Any]:
    """The animals (or pairs of animals) of ``seat``'s move that may take ``trait`` now."""
    if trait in PAIRED:
        pairs: list[list[int]] = []
        for i, (a, _) in enumerate(own):
            for b, _ in own[i + 1:]:
                if pair_exists(st, trait, a, b):
                    continue
                if trait == "symbiosis":  # the first animal is the symbiont
                    pairs += [[a, b], [b, a]]
                else:
                    pairs.append(sorted((a, b)))
        return pairs
    if trait == "parasite":  # only on another player's animal
        return [a.id for s in range(st.num_players) if s != seat for a in st.own(s)
                if trait_allowed({t for _, t in a.traits}, trait)]
    return [a for a, names in own if trait_allowed(names, trait)]


def apply(st: EvolutionState, seat: int, move: Move, rng: random.Random,
          events: list[Event] | None) -> None:
    """Play a validated development move, then pass the turn on."""
    kind = move["type"]
    if kind == "pass":
        st.passed[seat] = True
        if events is not None:
            events.append({"type": "passed", "seat": seat, "phase": "development"})
    else:
        card = move["card"]
        st.hands[seat].remove(card)
        if kind == "play_animal":
            animal = Animal(st.next_animal, seat, card)
            st.next_animal += 1
            st.animals[animal.id] = animal
            st.table[seat].append(animal)
            if events is not None:
                events.append({"type": "animal_played", "seat": seat, "animal": animal.id,
                               "exclude": [seat]})
                events.append({"type": "animal_played", "seat": seat, "animal": animal.id,
                               "card": card, "audience": [seat]})
        elif kind == "play_trait":
            animal = st.animals[move["animal"]]
            animal.traits = (*animal.traits, (card, move["trait"]))
            if events is not None:
                events.append({"type": "trait_played", "seat": seat, "card": card,
                               "trait": move["trait"], "animal": move["animal"]})
        else:
            a, b = move["animals"]
            st.pairs[card] = (move["trait"], a, b)
            st.animals[a].pairs.append(card)
            st.animals[b].pairs.append(card)
            if events is not None:
                events.append({"type": "pair_played", "seat": seat, "card": card,
                               "trait": move["trait"], "animals": [a, b]})
        if not st.hands[seat]:
            st.passed[seat] = True  # no cards = pass (E-3.1)
    next_player(st, seat, events, include_start=False, rng=rng)


def next_player(st: EvolutionState, start: int, events: list[Event] | None, include_start: bool,
                rng: random.Random) -> None:
    """Give the turn to the next seat clockwise that has not passed; else end the phase."""
    n = st.num_players
    for k in range(0 if include_start else 1, n + 1):
        seat = (start + k) % n
        if not st.passed[seat]:
            st.turn = seat
            return
    st.start_feeding(rng, events)
