"""The match state of Evolution and the flow of a round (docs/rules/evolution.md, E-2-E-4).

``EvolutionState`` holds the cards (deck, hands, discard piles), the animals on the table,
the paired-trait cards, the phase and the per-turn flags. The rules of each phase live in
``development.py``, ``feeding.py``, ``chain.py`` and ``attack.py``; views and labels in
``views.py``.
"""

from __future__ import annotations

import random
from typing import Any

from shared.kernel.protocol import (
    Event,
    EventsOptionalState,
    IllegalMove,
    Move,
    NotYourTurn,
    Result,
    View,
)
from shared.kernel.rng import randbelow

from . import attack, chain, development, feeding, views
from .cards import FOOD_BANK, FOOD_EXTRA, HAND_SIZE, SCORE_ANIMAL, SCORE_TRAIT, card_count
from .model import Animal

Pair = tuple[str, int, int]  # (trait, animal a, animal b); Symbiosis: (symbiosis, symbiont, host)


class EvolutionState(EventsOptionalState):
    """A match of Evolution in progress (see the module docstring)."""

    def __init__(self, players: int) -> None:
        self.num_players = players
        self.deck: list[int] = []  # top of the deck is the end of the list
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.discards: list[list[int]] = [[] for _ in range(players)]
        self.animals: dict[int, Animal] = {}
        self.table: list[list[Animal]] = [[] for _ in range(players)]  # per seat, play order
        self.pairs: dict[int, Pair] = {}  # paired-trait card -> (trait, a, b)
        self.next_animal = 1
        self.phase = "development"  # development | feeding | over
        self.round = 1
        self.first = 0
        self.turn = 0
        self.last_round = False
        self.passed: list[bool] = [False] * players
        self.main_done = False  # feeding: the turn's food action (rule E-3.5) is made
        self.trait_used = False  # feeding: the turn's feeding-trait use (rule E-3.5) is made
        self.acted = False  # feeding: the seat did something this turn (may end it)
        self.attacked_phase: list[bool] = [False] * players  # rule E-5.1: one per phase
        self.bank = 0
        self.dice: list[int] = []  # the last food-bank roll (E-3.2)
        self.last_die: int | None = None  # the last Running roll
        self.pending: dict[str, Any] | None = None  # an attack awaiting the defender
        self.chain: dict[str, Any] | None = None  # food awaiting its owner's choice (chain.py)
        self._version = 0
        self._legal_key: tuple[int, int] | None = None
        self._legal: list[Move] = []

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def new(cls, players: int, rng: random.Random) -> EvolutionState:
        """E-2.1: shuffle, deal 6 each, random first player; start round 1."""
        st = cls(players)
        st.deck = list(range(card_count(players)))
        rng.shuffle(st.deck)
        for seat in range(players):
            st.hands[seat] = [st.deck.pop() for _ in range(HAND_SIZE)]
        # DECISION (rule E-2.1): the first player is drawn from the seeded rng, not die rolls.
        st.first = rng.randrange(players)
        events: list[Event] = [{"type": "setup", "players": players, "first": st.first,
                                "deck_size": len(st.deck)}]
        st.start_round(events, rng)
        return st

    def clone(self) -> EvolutionState:
        # The constructor, not ``__new__``: the engine must stay compilable by mypyc
        # (``bench/accel.py``), whose native classes cannot skip ``__init__``.
        new = EvolutionState(self.num_players)
        new.deck = list(self.deck)
        new.hands = [list(h) for h in self.hands]
        new.discards = [list(d) for d in self.discards]
        new.animals = animals = {k: a.copy() for k, a in self.animals.items()}
        new.table = [[animals[a.id] for a in t] for t in self.table]
        new.pairs = dict(self.pairs)
        new.next_animal = self.next_animal
        new.phase, new.round, new.first, new.turn = self.phase, self.round, self.first, self.turn
        new.last_round = self.last_round
        new.passed = list(self.passed)
        new.main_done, new.acted, new.trait_used = self.main_done, self.acted, self.trait_used
        new.attacked_phase = list(self.attacked_phase)
        new.bank = self.bank
        new.dice = list(self.dice)
        new.last_die = self.last_die
        new.pending = None if self.pending is None else {
            **self.pending, "ran": list(self.pending["ran"])}
        new.chain = chain.copy_chain(self.chain)
        new._version = 0
        new._legal_key = None
        new._legal = []
        return new

    # -- codec ----------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "evolution", "players": self.num_players, "deck": list(self.deck),
            "hands": [list(h) for h in self.hands], "discards": [list(d) for d in self.discards],
            "animals": [a.to_json() for seat in self.table for a in seat],
            "pairs": [[card, *pair] for card, pair in sorted(self.pairs.items())],
            **self.public_flags(),
        }

    def public_flags(self) -> dict[str, Any]:
        """The scalar public parts shared by ``to_json`` and ``view``."""
        return {
            "next_animal": self.next_animal, "phase": self.phase, "round": self.round,
            "first": self.first, "turn": self.turn, "last_round": self.last_round,
            "passed": list(self.passed), "main_done": self.main_done, "acted": self.acted,
            "trait_used": self.trait_used, "chain": chain.copy_chain(self.chain),
            "attacked_phase": list(self.attacked_phase), "bank": self.bank,
            "dice": list(self.dice), "last_die": self.last_die,
            "pending": None if self.pending is None else {
                **self.pending, "ran": list(self.pending["ran"])},
        }

    def load_flags(self, data: dict[str, Any]) -> None:
        self.next_animal = data["next_animal"]
        self.phase, self.round, self.first = data["phase"], data["round"], data["first"]
        self.turn, self.last_round = data["turn"], data["last_round"]
        self.passed = list(data["passed"])
        self.main_done, self.acted = data["main_done"], data["acted"]
        self.trait_used = data["trait_used"]
        self.chain = chain.copy_chain(data["chain"])
        self.attacked_phase = list(data["attacked_phase"])
        self.bank = data["bank"]
        self.dice = list(data["dice"])
        self.last_die = data["last_die"]
        pending = data["pending"]
        self.pending = None if pending is None else {**pending, "ran": list(pending["ran"])}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> EvolutionState:
        st = cls(data["players"])
        st.deck = list(data["deck"])
        st.hands = [list(h) for h in data["hands"]]
        st.discards = [list(d) for d in data["discards"]]
        for entry in data["animals"]:
            animal = Animal.from_json(entry)
            st.animals[animal.id] = animal
            st.table[animal.owner].append(animal)
        st.pairs = {card: (trait, a, b) for card, trait, a, b in data["pairs"]}
        st.load_flags(data)
        return st

    # -- protocol -------------------------------------------------------------------------------

    def to_move(self) -> list[int]:
        if self.phase == "over":
            return []
        if self.chain is not None:
            return [self.chain["seat"]]
        if self.pending is not None:
            return [self.animals[self.pending["target"]].owner]
        return [self.turn]

    def legal_moves(self, seat: int) -> list[Move]:
        key = (self._version, seat)
        if self._legal_key == key:
            return self._legal
        if seat not in self.to_move():
            moves: list[Move] = []
        elif self.chain is not None:
            moves = chain.moves(self)
        elif self.pending is not None:
            moves = attack.defence_moves(self)
        elif self.phase == "development":
            moves = development.moves(self, seat)
        else:
            moves = feeding.moves(self, seat)
        self._legal_key, self._legal = key, moves
        return moves

    def apply(self, seat: int, move: Move, rng: random.Random) -> list[Event]:
        if seat not in self.to_move():
            raise NotYourTurn(f"seat {seat} owes no decision now")
        if move not in self.legal_moves(seat):
            raise IllegalMove(self.explain_illegal(seat, move))
        return self.apply_legal(seat, move, rng)

    def _apply(self, seat: int, move: Move, rng: random.Random,
               events: list[Event] | None) -> None:
        self._version += 1
        self._legal_key = None
        if self.chain is not None:
            chain.apply(self, move, rng, events)
        elif self.pending is not None:
            attack.apply_defence(self, move, rng, events)
        elif self.phase == "development":
            development.apply(self, seat, move, rng, events)
        else:
            feeding.apply(self, seat, move, rng, events)

    def random_move(self, seat: int, rng: random.Random) -> Move:
        """``legal_moves(seat)[rng.randrange(len(...))]``, the same move for the same ``rng``;
        in development without listing every move (playouts do this at every step)."""
        if (self.phase == "development" and self.pending is None and seat == self.turn
                and self._legal_key != (self._version, seat)):
            return development.random_move(self, seat, rng)
        moves = self.legal_moves(seat)
        return moves[randbelow(rng, len(moves))]

    def observe_move(self, seat: int, move: Move, observer: int) -> str:
        """A card played as an animal lies face down (E-3.1): others see no card id."""
        if move.get("type") == "play_animal" and observer != seat:
            return "play_animal:hidden"
        return self.move_id(move)

    def is_over(self) -> bool:
        return self.phase == "over"

    def result(self) -> Result:
        scores, details = self.scores()
        keys = [(scores[s], len(self.discards[s])) for s in range(self.num_players)]
        # E-4.2: most points, then most cards in the discard pile; still tied: shared place.
        return Result.from_keys(keys, scores, details)

    def view(self, seat: int | None) -> View:
        return views.view(self, seat)

    def move_label(self, move: Move, lang: str = "en") -> str:
        return views.move_label(self, move, lang)

    def move_group(self, move: Move, lang: str = "en") -> str | None:
        return views.move_group(move, lang)

    def explain_illegal(self, seat: int, move: Move) -> str:
        return views.explain_illegal(self, seat, move)

    # -- helpers shared by the phases -----------------------------------------------------------

    def own(self, seat: int) -> list[Animal]:
        """``seat``'s animals in play order (the table's own list: read it, never change it)."""
        return self.table[seat]

    def partner(self, card: int, animal_id: int) -> Animal:
        _, a, b = self.pairs[card]
        return self.animals[b if a == animal_id else a]

    def can_take(self, animal: Animal) -> bool:
        """May ``animal`` receive a food token now (rule E-3.3; rule E-5.5 for a host)."""
        if not animal.hungry_or_fat_space():
            return False
        for card in animal.pairs:
            trait, symbiont, host = self.pairs[card]
            if trait == "symbiosis" and host == animal.id and self.animals[symbiont].needs() > 0:
                return False
        return True

    def remove_animal(self, animal: Animal, events: list[Event] | None, cause: str) -> None:
        """The animal dies: its card, traits and paired traits go to its owner's discard
        pile (rules E-3.4, E-5.1); the partners lose the paired-trait cards."""
        pile = self.discards[animal.owner]
        pile.append(animal.card)
        pile.extend(card for card, _ in animal.traits)
        for card in animal.pairs:
            self.partner(card, animal.id).pairs.remove(card)
            del self.pairs[card]
            pile.append(card)
        del self.animals[animal.id]
        self.table[animal.owner].remove(animal)
        if events is not None:
            events.append({"type": "animal_died", "cause": cause, "seat": animal.owner,
                           "animal": animal.id, "cards_discarded": 1 + len(animal.traits)
                           + len(animal.pairs)})

    def discard_trait(self, animal: Animal, card: int) -> str:
        """Remove one trait card (single or paired) from ``animal`` to its owner's pile
        (rule E-5.13)."""
        single = [t for c, t in animal.traits if c == card]
        if single:
            trait = single[0]
            animal.traits = tuple((c, t) for c, t in animal.traits if c != card)
        else:
            trait = self.pairs[card][0]
            self.partner(card, animal.id).pairs.remove(card)
            animal.pairs.remove(card)
            del self.pairs[card]
        self.discards[animal.owner].append(card)
        animal.clamp()
        return trait

    # -- round flow (E-3) -----------------------------------------------------------------------

    def start_round(self, events: list[Event] | None, rng: random.Random) -> None:
        """Begin development (E-3.1); E-4.1: an empty deck now makes this the last round."""
        self.phase = "development"
        self.last_round = not self.deck
        self.passed = [not hand for hand in self.hands]  # no cards = pass
        self.pending = None
        self.chain = None
        if events is not None:
            events.append({"type": "round_started", "round": self.round, "first": self.first,
                           "last_round": self.last_round, "deck_size": len(self.deck)})
        development.next_player(self, self.first, events, include_start=True, rng=rng)

    def start_feeding(self, rng: random.Random, events: list[Event] | None) -> None:
        """E-3.2: roll the food bank (a public event), then feeding from the first player."""
        dice, plus = FOOD_BANK[self.num_players]
        self.dice = [rng.randint(1, 6) for _ in range(dice)]
        self.bank = sum(self.dice) + plus
        if events is not None:
            events.append({"type": "food_bank", "dice": list(self.dice), "plus": plus,
                           "bank": self.bank})
        self.phase = "feeding"
        self.passed = [False] * self.num_players
        self.attacked_phase = [False] * self.num_players
        feeding.next_player(self, self.first, rng, events, include_start=True)

    def end_feeding(self, rng: random.Random, events: list[Event] | None) -> None:
        """E-3.4 extinction and drawing, then the next round or the end (E-4.1)."""
        if self.bank and events is not None:
            events.append({"type": "bank_returned", "tokens": self.bank})
        self.bank = 0
        self.main_done = self.acted = self.trait_used = False
        order = [(self.first + k) % self.num_players for k in range(self.num_players)]
        dying = [a for seat in order for a in self.own(seat) if not a.is_fed() or a.poisoned]
        for animal in dying:
            self.remove_animal(animal, events, "poisoned" if animal.poisoned else "starved")
        if self.last_round:
            self.phase = "over"
            result = self.result()
            if events is not None:
                events.append({"type": "game_over", **result.to_json()})
            return
        self._draw_cards(order, events)
        for animal in self.animals.values():  # all tokens but fat are removed (E-3.4)
            animal.food = 0
            animal.attacked = animal.pirated = animal.hibernating = False
            animal.poisoned = animal.gained = False
        self.first = (self.first + 1) % self.num_players
        self.round += 1
        self.start_round(events, rng)

    def _draw_cards(self, order: list[int], events: list[Event] | None) -> None:
        """E-3.4 drawing: each seat's quota, one card at a time from the first player."""
        quota = [HAND_SIZE if not self.table[s] and not self.hands[s] else 1 + len(self.table[s])
                 for s in range(self.num_players)]
        drawn: list[list[int]] = [[] for _ in range(self.num_players)]
        while self.deck and any(len(drawn[s]) < quota[s] for s in order):
            for seat in order:  # one card at a time from the first player (E-3.4)
                if self.deck and len(drawn[seat]) < quota[seat]:
                    drawn[seat].append(self.deck.pop())
        for seat in order:
            self.hands[seat].extend(drawn[seat])
            if events is not None:
                events.append({"type": "cards_drawn", "seat": seat, "count": len(drawn[seat]),
                               "exclude": [seat]})
                events.append({"type": "cards_drawn", "seat": seat, "cards": drawn[seat],
                               "audience": [seat]})

    # -- scoring (E-4.1) ------------------------------------------------------------------------

    def scores(self) -> tuple[list[float], dict[str, Any]]:
        scores: list[float] = []
        breakdown = []
        for seat in range(self.num_players):
            animals = self.own(seat)
            traits = sum(len(a.traits) + len(a.pairs) for a in animals)
            extra = sum(FOOD_EXTRA.get(t, 0) for a in animals for _, t in a.traits)
            total = SCORE_ANIMAL * len(animals) + SCORE_TRAIT * traits + extra
            scores.append(float(total))
            breakdown.append({"seat": seat, "animals": len(animals), "traits": traits,
                              "food_bonus": extra, "score": total,
                              "discard_pile": len(self.discards[seat])})
        return scores, {"breakdown": breakdown}
