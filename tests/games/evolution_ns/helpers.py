"""Building Evolution (North Star) positions directly for rule tests."""

from __future__ import annotations

import random

from shared.games.evolution_ns.cards import DECK_SIZE, TRAIT_OF
from shared.games.evolution_ns.model import Species
from shared.games.evolution_ns.state import NSState


class Builder:
    """Hands out card ids of a wanted trait so every card stays accounted for."""

    def __init__(self, players: int, quick: bool = False) -> None:
        self.st = NSState(players, quick)
        self.free = list(range(DECK_SIZE))
        if players == 2:
            self.st.removed = random.Random(0).sample(self.free, 40)
            self.free = [c for c in self.free if c not in self.st.removed]

    def card(self, trait: str | None = None, food: int | None = None) -> int:
        from shared.games.evolution_ns.cards import FOOD_OF

        for cid in self.free:
            if (trait is None or TRAIT_OF[cid] == trait) and (food is None
                                                              or FOOD_OF[cid] == food):
                self.free.remove(cid)
                return cid
        raise ValueError(f"no free card {trait} {food}")

    def species(self, seat: int, *traits: str, body: int = 1, pop: int = 1, food: int = 0,
                fat: int = 0) -> Species:
        sp = Species(body, pop)
        sp.traits = [self.card(t) for t in traits]
        sp.food, sp.fat = food, fat
        self.st.species[seat].append(sp)
        return sp

    def hand(self, seat: int, *traits: str) -> list[int]:
        cards = [self.card(t) for t in traits]
        self.st.hands[seat].extend(cards)
        return cards

    def done(self, phase: str = "feed", turn: int = 0, first: int = 0, hole: int = 0,
             deck: int | None = None, bags: list[int] | None = None,
             sentinel: bool = False) -> NSState:
        """The rest of the cards form the deck (``deck`` of them; the others are discarded);
        ``bank_out`` is set so that food is conserved. ``sentinel``: the last seat gets a
        hungry body-6 species with Intelligence and cards, so feeding goes on after the move
        under test (it can always feed from the bank, an optional feeding it may pass, and no
        carnivore here can reach it)."""
        st = self.st
        if sentinel:
            self.species(st.num_players - 1, "intelligence", body=6, pop=6)
            self.hand(st.num_players - 1, *["fertile"] * 6)
        keep = len(self.free) if deck is None else deck
        st.deck = self.free[:keep]
        st.discard.extend(self.free[keep:])
        self.free = []
        st.phase, st.turn, st.first, st.hole = phase, turn, first, hole
        st.bags = bags or [0] * st.num_players
        st.bank_out = hole + sum(st.bags) + sum(sp.food + sp.fat for row in st.species
                                                for sp in row)
        st.done = [False] * st.num_players
        st.passed = [False] * st.num_players
        return st


def all_cards(st: NSState) -> list[int]:
    """Every card id somewhere in the state (for the accounting invariant)."""
    cards = list(st.deck) + list(st.removed) + list(st.discard)
    for hand in st.hands:
        cards += hand
    cards += [c for c in st.food_cards if c is not None]
    for row in st.species:
        for sp in row:
            cards += sp.traits
    for staged in st.staged:
        cards += staged
    return cards


def hidden_cards(st: NSState, seat: int | None) -> set[int]:
    """Cards ``seat`` must not see: the deck, removed cards, others' hands, food cards,
    face-down traits and (quick variant) staged discards."""
    secret = set(st.deck) | set(st.removed)
    for k in range(st.num_players):
        if k == seat:
            continue
        secret |= set(st.hands[k]) | set(st.staged[k])
        if st.food_cards[k] is not None:
            secret.add(st.food_cards[k])  # type: ignore[arg-type]
        for sp in st.species[k]:
            secret |= set(sp.traits[len(sp.traits) - sp.down:])
    if st.qbase is not None:  # quick variant: the rows as the phase began stay public
        secret -= {c for base in st.qbase for sp in base["species"]
                   for c in sp["traits"][:len(sp["traits"]) - sp["down"]]}
    return secret


def feed_all(st: NSState, rng: random.Random | None = None) -> None:
    """Play random moves until the match is over (for end-of-game tests)."""
    rng = rng or random.Random(0)
    while not st.is_over():
        seat = st.to_move()[0]
        st.apply(seat, st.random_move(seat, rng), rng)
