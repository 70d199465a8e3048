"""An animal on the table and its food arithmetic (docs/rules/evolution.md, rule E-3.3)."""

from __future__ import annotations

from typing import Any

from .cards import FOOD_EXTRA


class Animal:
    """One animal: its face-down card, trait cards, paired-trait cards and tokens.

    ``id`` is a sequential animal id that never changes (other animals dying leave it alone).
    ``traits`` holds ``(card, trait)`` of single traits; ``pairs`` the ids of the paired-trait
    cards linking it to another animal (their data lives in ``EvolutionState.pairs``).
    Round flags: ``attacked`` (Carnivorous used), ``pirated``, ``hibernating``, ``poisoned``
    (ate a Poisonous animal), ``gained`` (got a red or blue token this round: a Piracy
    target, rule E-5.17; burning fat is no gain); ``hib_round`` is the last round it
    hibernated (rule E-5.15: not two rounds in a row).
    """

    __slots__ = ("_fat_capacity", "_requirement", "_traits", "attacked", "card", "fat", "food",
                 "gained", "hib_round", "hibernating", "id", "owner", "pairs", "pirated",
                 "poisoned")

    def __init__(self, id: int, owner: int, card: int) -> None:
        self.id = id
        self.owner = owner
        self.card = card
        self._traits: tuple[tuple[int, str], ...] = ()
        self._requirement = 1
        self._fat_capacity = 0
        self.pairs: list[int] = []
        self.food = 0
        self.fat = 0
        self.attacked = False
        self.pirated = False
        self.hibernating = False
        self.poisoned = False
        self.gained = False
        self.hib_round = -99

    def copy(self) -> Animal:
        new = Animal(self.id, self.owner, self.card)  # not ``__new__``: see EvolutionState.clone
        new._traits, new._requirement = self._traits, self._requirement
        new._fat_capacity = self._fat_capacity
        new.pairs = list(self.pairs)
        new.food, new.fat = self.food, self.fat
        new.attacked, new.pirated = self.attacked, self.pirated
        new.hibernating, new.poisoned = self.hibernating, self.poisoned
        new.gained, new.hib_round = self.gained, self.hib_round
        return new

    # -- traits -------------------------------------------------------------------------------

    @property
    def traits(self) -> tuple[tuple[int, str], ...]:
        """``(card, trait)`` of its single traits, in play order (immutable: assign anew)."""
        return self._traits

    @traits.setter
    def traits(self, value: tuple[tuple[int, str], ...]) -> None:
        self._traits = value
        # E-3.3: 1 food plus the traits' numbers (Carnivorous +1, HBW +1, Parasite +2); kept
        # up to date here because playouts ask for it millions of times.
        self._requirement = 1 + sum(FOOD_EXTRA.get(t, 0) for _, t in self._traits)
        self._fat_capacity = sum(1 for _, t in self._traits if t == "fat_tissue")

    def has(self, trait: str) -> bool:
        for _, t in self._traits:  # noqa: SIM110 - a plain loop is faster in playouts
            if t == trait:
                return True
        return False

    def count(self, trait: str) -> int:
        return sum(1 for _, t in self.traits if t == trait)

    def requirement(self) -> int:
        """E-3.3: 1 food plus the traits' numbers (Carnivorous +1, HBW +1, Parasite +2)."""
        return self._requirement

    def needs(self) -> int:
        """Food still needed to be fed; 0 when fed or hibernating (E-5 Hibernation)."""
        if self.hibernating:
            return 0
        need = self._requirement - self.food
        return need if need > 0 else 0

    def is_fed(self) -> bool:
        return self.hibernating or self.food >= self._requirement

    def fat_capacity(self) -> int:
        """Yellow tokens it can hold: one per Fat Tissue card (rule E-5.2)."""
        return self._fat_capacity

    def fat_space(self) -> int:
        return self.fat_capacity() - self.fat

    def hungry_or_fat_space(self) -> bool:
        """Could hold one more token (not fed, or an empty Fat Tissue) — symbiosis aside."""
        return self.needs() > 0 or self.fat < self.fat_capacity()

    def give(self) -> str:
        """Place one gained food token: as food if hungry, else into an empty Fat Tissue
        (rule E-5.2); returns where it went. The caller checked that there is room."""
        self.gained = True
        if self.needs() > 0:
            self.food += 1
            return "food"
        self.fat += 1
        return "fat"

    def clamp(self) -> None:
        """After losing a trait (Tail Loss): drop food beyond the requirement and extra fat."""
        self.food = min(self.food, self.requirement())
        self.fat = min(self.fat, self.fat_capacity())

    # -- codec --------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "owner": self.owner, "card": self.card,
                "traits": [[c, t] for c, t in self.traits], "pairs": list(self.pairs),
                "food": self.food, "fat": self.fat, "attacked": self.attacked,
                "pirated": self.pirated, "hibernating": self.hibernating,
                "poisoned": self.poisoned, "gained": self.gained, "hib_round": self.hib_round}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Animal:
        new = cls(data["id"], data["owner"], data["card"])
        new.traits = tuple((c, t) for c, t in data["traits"])
        new.pairs = list(data["pairs"])
        new.food, new.fat = data["food"], data["fat"]
        new.attacked, new.pirated = data["attacked"], data["pirated"]
        new.hibernating, new.poisoned = data["hibernating"], data["poisoned"]
        new.gained, new.hib_round = data["gained"], data["hib_round"]
        return new
