"""A species board (N-1.2): body size, population, food, Fat Tissue store and trait cards."""

from __future__ import annotations

from typing import Any

from .cards import TRAIT_OF


class Species:
    """One species of one player.

    ``traits`` are card ids in play order; the last ``down`` of them are still face down
    (played this play-cards phase, N-3.3; a played card always goes to the end).
    ``food`` is eaten food on the board (bagged at the end of feeding, N-3.5); ``fat`` food
    stored on its Fat Tissue (N-5.7).
    """

    __slots__ = ("body", "down", "fat", "food", "pop", "traits")

    def __init__(self, body: int = 1, pop: int = 1) -> None:
        self.body = body
        self.pop = pop
        self.food = 0
        self.fat = 0
        self.traits: list[int] = []
        self.down = 0

    def copy(self) -> Species:
        new = Species(self.body, self.pop)
        new.food, new.fat = self.food, self.fat
        new.traits = list(self.traits)
        new.down = self.down
        return new

    def has(self, trait: str) -> bool:
        for card in self.traits:  # noqa: SIM110 - a plain loop is faster in playouts
            if TRAIT_OF[card] == trait:
                return True
        return False

    def trait_names(self) -> list[str]:
        return [TRAIT_OF[c] for c in self.traits]

    def hungry(self) -> bool:
        """N-3.4: hungry while its food is below its population."""
        return self.food < self.pop

    def fat_room(self) -> int:
        """N-5.7: room left on Fat Tissue (up to body size) once fed; 0 without the trait."""
        if self.food < self.pop or not self.has("fat_tissue"):
            return 0
        return self.body - self.fat

    def can_eat(self, plant: bool) -> bool:
        """Could take one food token now (N-5.1: never plant food for a carnivore)."""
        if plant and self.has("carnivore"):
            return False
        return self.food < self.pop or self.fat_room() > 0

    def give(self) -> bool:
        """Place one token: as food while hungry, else onto Fat Tissue (N-5.7)."""
        if self.food < self.pop:
            self.food += 1
            return True
        if self.fat_room() > 0:
            self.fat += 1
            return True
        return False

    def to_json(self) -> dict[str, Any]:
        return {"body": self.body, "pop": self.pop, "food": self.food, "fat": self.fat,
                "traits": list(self.traits), "down": self.down}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Species:
        new = cls(data["body"], data["pop"])
        new.food, new.fat = data["food"], data["fat"]
        new.traits = list(data["traits"])
        new.down = data["down"]
        return new
