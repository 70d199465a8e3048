"""Building Evolution positions directly for rule tests, and a scripted dice source."""

from __future__ import annotations

import random
from collections.abc import Iterable

from shared.games.evolution.cards import card_count, faces
from shared.games.evolution.model import Animal
from shared.games.evolution.state import EvolutionState


class ScriptedRng(random.Random):
    """``randint`` returns the scripted dice in order (then falls back to the seed)."""

    def __init__(self, dice: Iterable[int] = (), seed: int = 0) -> None:
        super().__init__(seed)
        self.dice = list(dice)

    def randint(self, a: int, b: int) -> int:
        if self.dice:
            value = self.dice.pop(0)
            assert a <= value <= b
            return value
        return super().randint(a, b)


class Builder:
    """Hands out card ids with a wanted face so every card stays accounted for."""

    def __init__(self, players: int) -> None:
        self.st = EvolutionState(players)
        self.free = list(range(card_count(players)))

    def card(self, trait: str | None = None) -> int:
        for cid in self.free:
            if trait is None or trait in faces(cid):
                self.free.remove(cid)
                return cid
        raise ValueError(f"no free card with {trait}")

    def animal(self, seat: int, *traits: str, food: int = 0, fat: int = 0,
               gained: bool | None = None) -> Animal:
        """An animal of ``seat``; its ``food`` counts as gained this round unless
        ``gained=False`` (rule E-5.17: burnt fat is no gain)."""
        st = self.st
        a = Animal(st.next_animal, seat, self.card())
        st.next_animal += 1
        a.traits = tuple((self.card(t), t) for t in traits)
        a.food, a.fat = food, fat
        a.gained = food > 0 if gained is None else gained
        st.animals[a.id] = a
        st.table[seat].append(a)
        return a

    def pair(self, trait: str, a: Animal, b: Animal) -> int:
        card = self.card(trait)
        self.st.pairs[card] = (trait, a.id, b.id)
        a.pairs.append(card)
        b.pairs.append(card)
        return card

    def hand(self, seat: int, *traits: str) -> list[int]:
        cards = [self.card(t) for t in traits]
        self.st.hands[seat].extend(cards)
        return cards

    def done(self, phase: str = "feeding", turn: int = 0, first: int = 0, bank: int = 0,
             deck: int | None = None) -> EvolutionState:
        """Finish: the rest of the cards form the deck (``deck`` of them; others discarded
        to seat 0 so the composition stays complete)."""
        st = self.st
        keep = len(self.free) if deck is None else deck
        st.deck = self.free[:keep]
        st.discards[0].extend(self.free[keep:])
        self.free = []
        st.phase, st.turn, st.first, st.bank = phase, turn, first, bank
        st.last_round = not st.deck
        st.passed = [False] * st.num_players
        return st


def all_cards(st: EvolutionState) -> list[int]:
    """Every card id somewhere in the state (for the accounting invariant)."""
    cards = list(st.deck)
    for hand in st.hands:
        cards += hand
    for pile in st.discards:
        cards += pile
    for a in st.animals.values():
        cards.append(a.card)
        cards += [c for c, _ in a.traits]
    cards += list(st.pairs)
    return cards


def types(moves: list[dict]) -> set[str]:
    return {m["type"] for m in moves}
