"""A species board (docs/rules/darwinning.md D-1.1, D-6, D-9.2) and food-chain movement (D-8).

Ability slots hold ``None`` (empty), ``-n`` (printed ability ``n``, not a card) or a card id
(ability = the card's value). Slot ``ZERO_SLOT`` is the zero-point box. ``stolen`` is the card
on the Mutation card (D-10 #8). Cards used for other upgrades stay on the board: ``chain``
(above it), ``eggs`` (to its right), ``adapted`` (to its left, environment cards).
"""

from __future__ import annotations

from typing import Any

from .cards import (
    ENV_ICON,
    MUTATION,
    PRINTED_SLOTS,
    SCORE_HIGH,
    SCORE_HIGH_FROM,
    SCORE_LOW,
    SLOTS,
    SMALL_ANIMAL_UP_TO,
    SPECIES,
    SPECIES_ENVS,
    VALUE,
    ZERO_SLOT,
)


class Board:
    """One player's species."""

    __slots__ = (
        "adapted",
        "bites",
        "chain",
        "eggs",
        "population",
        "position",
        "slots",
        "species",
        "stolen",
    )

    def __init__(self, species: int) -> None:
        self.species = species
        data = SPECIES[species]
        self.position: int = data["food_chain"]
        self.population: int = data["population"]
        self.slots: list[int | None] = [None] * SLOTS
        for slot, ability in zip(PRINTED_SLOTS, data["abilities"], strict=True):
            self.slots[slot] = -ability
        self.adapted: list[int] = []  # environment cards (their icon is the environment)
        self.chain: list[int] = []
        self.eggs: list[int] = []
        self.stolen: int | None = None
        self.bites = 0

    def copy(self) -> Board:
        # The constructor, not ``__new__``: the engine must stay compilable by mypyc
        # (shared/infra/accel.py), whose native classes cannot skip ``__init__``.
        new = Board(self.species)
        new.position, new.population = self.position, self.population
        new.slots = list(self.slots)
        new.adapted, new.chain, new.eggs = list(self.adapted), list(self.chain), list(self.eggs)
        new.stolen, new.bites = self.stolen, self.bites
        return new

    @property
    def start_population(self) -> int:
        population: int = SPECIES[self.species]["population"]
        return population

    @property
    def printed_envs(self) -> dict[int, int]:
        """Printed environment -> its food value (1-3)."""
        return SPECIES_ENVS[self.species]

    def environments(self) -> set[int]:
        envs = set(SPECIES_ENVS[self.species])
        for card in self.adapted:
            envs.add(ENV_ICON[card])
        return envs

    @staticmethod
    def slot_ability(entry: int | None) -> int:
        if entry is None:
            return 0
        return -entry if entry < 0 else VALUE[entry]

    def abilities(self) -> set[int]:
        """Every ability this species has now (slots, and the stolen card if Mutation is held)."""
        held: set[int] = set()
        for entry in self.slots:  # slot_ability inlined: playouts ask this very often
            if entry is not None:
                held.add(-entry if entry < 0 else VALUE[entry])
        stolen = self.stolen
        if stolen is not None and MUTATION in held:
            held.add(VALUE[stolen])
        return held

    def has(self, ability: int) -> bool:
        return ability in self.abilities()

    def cards(self) -> list[int]:
        """Every card on this board (for accounting)."""
        out = [e for e in self.slots if e is not None and e >= 0]
        out += self.adapted + self.chain + self.eggs
        if self.stolen is not None:
            out.append(self.stolen)
        return out

    def score(self) -> dict[str, int]:
        """D-9.2: food chain + population + environments + abilities."""
        start = self.start_population
        pop = min(self.population, start) + 2 * max(0, self.population - start)
        envs = len(self.printed_envs) + 2 * len(self.adapted)
        abilities = 0
        for slot, entry in enumerate(self.slots):
            # Printed abilities, the zero-point box and the stolen card score nothing.
            if entry is None or entry < 0 or slot == ZERO_SLOT:
                continue
            abilities += SCORE_HIGH if VALUE[entry] >= SCORE_HIGH_FROM else SCORE_LOW
        return {"food_chain": self.position, "population": pop, "environments": envs,
                "abilities": abilities,
                "total": self.position + pop + envs + abilities}

    def to_json(self) -> dict[str, Any]:
        return {"species": SPECIES[self.species]["id"], "position": self.position,
                "population": self.population, "slots": list(self.slots),
                "adapted": list(self.adapted), "chain": list(self.chain),
                "eggs": list(self.eggs), "stolen": self.stolen, "bites": self.bites}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Board:
        index = next(i for i, s in enumerate(SPECIES) if s["id"] == data["species"])
        new = cls(index)
        new.position, new.population = data["position"], data["population"]
        new.slots = list(data["slots"])
        new.adapted, new.chain = list(data["adapted"]), list(data["chain"])
        new.eggs, new.stolen, new.bites = list(data["eggs"]), data["stolen"], data["bites"]
        return new


def move_on_chain(start: int, points: int, occupied: set[int], up: bool = True) -> int:
    """D-8: the position reached from ``start`` with ``points`` movement points.

    Up: +1 point when starting on 1-5 (D-8.1); each point moves to the next free position,
    jumping every occupied one (D-8.2). Down (v1.7, D-8.3): the mirror, no bonus, a point
    with no free position below is lost.
    """
    pos = start
    if up:
        if start <= SMALL_ANIMAL_UP_TO:
            points += 1
        for _ in range(points):
            pos += 1
            while pos in occupied:
                pos += 1
        return pos
    for _ in range(points):
        nxt = pos - 1
        while nxt in occupied:
            nxt -= 1
        if nxt < 1:
            break
        pos = nxt
    return pos


def dummy_start(a: int, b: int) -> int:
    """D-11.1: the dummy's marker between the two players, halfway or nearer the lower one;
    one position above the upper player when they are next to each other."""
    low, high = sorted((a, b))
    return high + 1 if high - low == 1 else low + (high - low) // 2
