"""The match state of Evolution (North Star) and the flow of a round (N-2, N-3, N-4).

``NSState`` holds the cards (deck, the cards removed in a two-player game, hands, the public
discard pile, the secret food cards), the species rows, the watering hole, the bags and the
phase. The phases' rules live in ``play.py`` (food card, play cards) and ``feeding.py``
(start-of-feeding effects, feeding, attacks); views and wording in ``views.py``.
Rule ids refer to docs/rules/evolution-ns.md.
"""

from __future__ import annotations

import random
from typing import Any, Final

from shared.kernel.protocol import (
    Event,
    EventsOptionalState,
    IllegalMove,
    Move,
    NotYourTurn,
    Result,
    View,
)
from shared.kernel.rng import randbelow, shuffle

from . import feeding, play, views
from .cards import DECK_SIZE, HAND_BASE, MAX_TRAITS, MAX_TRAITS_2P, TWO_PLAYER_REMOVED
from .model import Species

#: ``order_from`` per table size: every seat's clockwise order, worked out once.
_ORDERS: Final[dict[int, tuple[tuple[int, ...], ...]]] = {}


class NSState(EventsOptionalState):
    """A match of Evolution (North Star) in progress (see the module docstring)."""

    def __init__(self, players: int, quick: bool = False) -> None:
        self.num_players = players
        self.quick = quick
        self.max_traits = MAX_TRAITS_2P if players == 2 else MAX_TRAITS  # N-2.1
        self.deck: list[int] = []  # the top of the deck is the end of the list
        self.removed: list[int] = []  # N-2.1: set aside unseen in a two-player game
        self.discard: list[int] = []  # public, face up (N-6)
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.food_cards: list[int | None] = [None] * players  # N-3.2, secret until feeding
        self.species: list[list[Species]] = [[] for _ in range(players)]  # rows, left to right
        self.bags = [0] * players
        self.hole = 0  # plant food on the watering hole
        self.bank_out = 0  # food tokens out of the (unlimited) bank, for conservation checks
        self.phase = "food"  # food | play | effects | feed | over
        self.round = 1
        self.first = 0
        self.turn = 0
        self.last_round = False
        self.done = [False] * players  # food / play-cards phase: the seat has finished
        self.passed = [False] * players  # feeding: the seat stopped (N-3.9)
        self.effects: list[list[list[Any]]] = [[] for _ in range(players)]  # [species, trait]
        self.pending: dict[str, Any] | None = None  # an attack awaiting Intelligence choices
        # Quick variant (N-3.10): each row and hand size as the phase began, shown to others,
        # and the cards each seat discarded meanwhile, put on the pile at the reveal.
        self.qbase: list[dict[str, Any]] | None = None
        self.staged: list[list[int]] = [[] for _ in range(players)]
        # ... the growths each seat gave other seats' species ([seat, index as the phase
        # began, "body"|"pop"], N-3.3), and how many species each seat added at its left end.
        self.foreign: list[list[list[Any]]] = [[] for _ in range(players)]
        self.lefts = [0] * players
        self._version = 0
        self._legal_key: tuple[int, int] | None = None
        self._legal: list[Move] = []

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def new(cls, players: int, quick: bool, rng: random.Random) -> NSState:
        """N-2: shuffle, remove 40 cards with two players, one species each, random first."""
        st = cls(players, quick)
        st.deck = list(range(DECK_SIZE))
        shuffle(rng, st.deck)  # shared.kernel.rng: the same order as rng.shuffle, sooner
        if players == 2:
            st.removed = [st.deck.pop() for _ in range(TWO_PLAYER_REMOVED)]
        st.species = [[Species()] for _ in range(players)]
        st.first = randbelow(rng, players)  # exactly rng.randrange(players)
        events: list[Event] = [{"type": "setup", "players": players, "first": st.first,
                                "quick": quick}]
        st.start_round(events, rng)
        return st

    def clone(self) -> NSState:
        new = NSState(self.num_players, self.quick)
        new.deck = list(self.deck)
        new.removed = list(self.removed)
        new.discard = list(self.discard)
        new.hands = [list(h) for h in self.hands]
        new.food_cards = list(self.food_cards)
        new.species = [[sp.copy() for sp in row] for row in self.species]
        new.bags = list(self.bags)
        new.hole, new.bank_out = self.hole, self.bank_out
        new.phase, new.round, new.first, new.turn = self.phase, self.round, self.first, self.turn
        new.last_round = self.last_round
        new.done = list(self.done)
        new.passed = list(self.passed)
        new.effects = [[list(e) for e in seat] for seat in self.effects]
        new.pending = None if self.pending is None else {
            **self.pending, "negated": list(self.pending["negated"])}
        new.qbase = None if self.qbase is None else [
            {"species": [dict(s) for s in b["species"]], "hand": b["hand"]} for b in self.qbase]
        new.staged = [list(s) for s in self.staged]
        new.foreign = [[list(g) for g in f] for f in self.foreign]
        new.lefts = list(self.lefts)
        return new

    # -- codec ----------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "evolution-ns", "players": self.num_players, "quick": self.quick,
            "deck": list(self.deck), "removed": list(self.removed),
            "hands": [list(h) for h in self.hands], "food_cards": list(self.food_cards),
            "rows": [[sp.to_json() for sp in row] for row in self.species],
            "staged": [list(s) for s in self.staged],
            "foreign": [[list(g) for g in f] for f in self.foreign], "lefts": list(self.lefts),
            "qbase": None if self.qbase is None else [
                {"species": [dict(s) for s in b["species"]], "hand": b["hand"]}
                for b in self.qbase],
            **self.public_flags(),
        }

    def public_flags(self) -> dict[str, Any]:
        """The public scalars shared by ``to_json`` and ``view``."""
        return {
            "phase": self.phase, "round": self.round, "first": self.first, "turn": self.turn,
            "last_round": self.last_round, "hole": self.hole, "bank_out": self.bank_out,
            "bags": list(self.bags), "discard": list(self.discard), "done": list(self.done),
            "passed": list(self.passed),
            "effects": [[list(e) for e in seat] for seat in self.effects],
            "pending": None if self.pending is None else {
                **self.pending, "negated": list(self.pending["negated"])},
        }

    def load_flags(self, data: dict[str, Any]) -> None:
        self.phase, self.round, self.first = data["phase"], data["round"], data["first"]
        self.turn, self.last_round = data["turn"], data["last_round"]
        self.hole, self.bank_out = data["hole"], data["bank_out"]
        self.bags = list(data["bags"])
        self.discard = list(data["discard"])
        self.done = list(data["done"])
        self.passed = list(data["passed"])
        self.effects = [[list(e) for e in seat] for seat in data["effects"]]
        pending = data["pending"]
        self.pending = None if pending is None else {**pending,
                                                      "negated": list(pending["negated"])}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> NSState:
        st = cls(data["players"], data["quick"])
        st.deck = list(data["deck"])
        st.removed = list(data["removed"])
        st.hands = [list(h) for h in data["hands"]]
        st.food_cards = list(data["food_cards"])
        st.species = [[Species.from_json(s) for s in row] for row in data["rows"]]
        st.staged = [list(s) for s in data["staged"]]
        st.foreign = [[list(g) for g in f] for f in data["foreign"]]
        st.lefts = list(data["lefts"])
        st.qbase = None if data["qbase"] is None else [
            {"species": [dict(s) for s in b["species"]], "hand": b["hand"]}
            for b in data["qbase"]]
        st.load_flags(data)
        return st

    # -- protocol -------------------------------------------------------------------------------

    def to_move(self) -> list[int]:
        phase = self.phase
        if phase == "food" or (phase == "play" and self.quick):
            return [s for s in range(self.num_players) if not self.done[s]]
        if phase == "over":
            return []
        return [self.turn]

    def legal_moves(self, seat: int) -> list[Move]:
        key = (self._version, seat)
        if self._legal_key == key:
            return self._legal
        if seat not in self.to_move():
            moves: list[Move] = []
        elif self.phase == "food":
            moves = play.food_moves(self, seat)
        elif self.phase == "play":
            moves = play.play_moves(self, seat)
        elif self.phase == "effects":
            moves = feeding.effect_moves(self, seat)
        else:
            moves = feeding.feed_moves(self, seat)
        self._legal_key, self._legal = key, moves
        return moves

    def remember_legal(self, seat: int, moves: list[Move]) -> None:
        """Store ``moves`` as ``legal_moves(seat)`` of the state as it is now (a phase that
        has just worked them out saves the next call the work)."""
        self._legal_key, self._legal = (self._version, seat), moves

    def apply(self, seat: int, move: Move, rng: random.Random) -> list[Event]:
        if seat not in self.to_move():
            raise NotYourTurn(f"seat {seat} owes no decision now")
        if not isinstance(move, dict) or move not in self.legal_moves(seat):
            raise IllegalMove(self.explain_illegal(seat, move))
        return self.apply_legal(seat, move, rng)

    def _apply(self, seat: int, move: Move, rng: random.Random,
               events: list[Event] | None) -> None:
        self._version += 1
        self._legal_key = None
        phase = self.phase
        if phase == "food":
            play.apply_food(self, seat, move, rng, events)
        elif phase == "play":
            play.apply_play(self, seat, move, rng, events)
        elif phase == "effects":
            feeding.apply_effect(self, seat, move, rng, events)
        else:
            feeding.apply_feed(self, seat, move, rng, events)

    def random_move(self, seat: int, rng: random.Random) -> Move:
        """``legal_moves(seat)[randbelow(rng, len(...))]``: the same move for the same rng,
        in the food-card and play-cards phases without listing every move."""
        phase = self.phase
        if (phase in ("play", "food") and self._legal_key != (self._version, seat)
                and seat in self.to_move()):
            if phase == "play":
                return play.random_play_move(self, seat, rng)
            return play.random_food_move(self, seat, rng)
        moves = self.legal_moves(seat)
        return moves[randbelow(rng, len(moves))]

    def observe_move(self, seat: int, move: Move, observer: int) -> str:
        """Secret choices (N-6): the food card, a face-down trait's card and, in the quick
        variant, every play of the phase look the same to the other seats."""
        if observer == seat:
            return self.move_id(move)
        kind = move.get("type")
        if kind == "food":
            return "food:hidden"
        if self.phase == "play":
            if self.quick:
                return "play:hidden"
            if kind == "trait":
                # the target species is public; which card lies face down is not
                replaced = move.get("replace")
                return f"trait:species={move['species']}" + (
                    "" if replaced is None else f":replace={replaced}")
        return self.move_id(move)

    def is_over(self) -> bool:
        return self.phase == "over"

    def result(self) -> Result:
        scores, details = self.scores()
        parts = details["breakdown"]
        # N-4.2: most points, then most trait-card points, then most population; still tied:
        # a shared place.
        keys = [(scores[s], parts[s]["traits"], parts[s]["population"])
                for s in range(self.num_players)]
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

    def order_from(self, seat: int) -> tuple[int, ...]:
        """Seats clockwise starting with ``seat``."""
        n = self.num_players
        orders = _ORDERS.get(n)
        if orders is None:
            orders = _ORDERS[n] = tuple(tuple((start + k) % n for k in range(n))
                                        for start in range(n))
        return orders[seat % n]

    def discard_card(self, seat: int, card: int) -> None:
        """A card discarded face up: to the pile, or staged until the quick reveal (N-3.10)."""
        if self.phase == "play" and self.quick:
            self.staged[seat].append(card)
        else:
            self.discard.append(card)

    def draw(self, seat: int, count: int, rng: random.Random) -> list[int]:
        """Draw ``count`` cards; an empty deck is reshuffled from the discard pile. A draw
        that needs the reshuffle or leaves the deck empty makes this round the last: the deck
        has run out (N-3.1, N-3.7, N-4.1)."""
        drawn: list[int] = []
        hand = self.hands[seat]
        for _ in range(count):
            if not self.deck:
                if not self.discard:
                    break
                self.deck = self.discard
                self.discard = []
                shuffle(rng, self.deck)
                self.last_round = True
            card = self.deck.pop()
            hand.append(card)
            drawn.append(card)
        if count and not self.deck:
            self.last_round = True
        return drawn

    def trim(self, seat: int, sp: Species) -> None:
        """N-3.8: food above a (reduced) population goes to the owner's bag."""
        if sp.food > sp.pop:
            self.bags[seat] += sp.food - sp.pop
            sp.food = sp.pop

    def go_extinct(self, seat: int, sp: Species, rng: random.Random, events: list[Event] | None,
                   cause: str) -> None:
        """N-3.7: eaten food to the bag, Fat Tissue food to the bank, board and traits
        discarded; the owner draws a card per trait; the row closes up."""
        row = self.species[seat]
        index = row.index(sp)
        del row[index]
        self.bags[seat] += sp.food
        self.bank_out -= sp.fat
        self.discard.extend(sp.traits)
        drawn = self.draw(seat, len(sp.traits), rng)
        if events is not None:
            events.append({"type": "extinct", "seat": seat, "species": index, "cause": cause,
                           "traits": list(sp.traits), "drawn": len(drawn)})
        if drawn and events is not None:
            events.append({"type": "cards_drawn", "seat": seat, "cards": drawn,
                           "audience": [seat]})

    # -- round flow (N-3) -----------------------------------------------------------------------

    def start_round(self, events: list[Event] | None, rng: random.Random) -> None:
        """N-3.1 deal (3 + 1 per species), then the secret food card step (N-3.2)."""
        for seat in self.order_from(self.first):
            drawn = self.draw(seat, HAND_BASE + len(self.species[seat]), rng)
            if events is not None:
                events.append({"type": "cards_drawn", "seat": seat, "count": len(drawn),
                               "exclude": [seat]})
                events.append({"type": "cards_drawn", "seat": seat, "cards": drawn,
                               "audience": [seat]})
        # N-3.1: a deal that reshuffles or leaves the deck exactly empty makes this round the
        # last (``draw``)
        self.phase = "food"
        self.food_cards = [None] * self.num_players
        self.done = [not hand for hand in self.hands]
        if events is not None:
            events.append({"type": "round_started", "round": self.round, "first": self.first,
                           "last_round": self.last_round, "deck_size": len(self.deck)})
        if all(self.done):
            play.start_play(self, rng, events)

    def scores(self) -> tuple[list[float], dict[str, Any]]:
        """N-4.1: 1 per food in the bag, per population and per trait card of a surviving
        species; food on Fat Tissue scores nothing."""
        scores: list[float] = []
        breakdown = []
        for seat in range(self.num_players):
            row = self.species[seat]
            population = sum(sp.pop for sp in row)
            traits = sum(len(sp.traits) for sp in row)
            total = self.bags[seat] + population + traits
            scores.append(float(total))
            breakdown.append({"seat": seat, "bag": self.bags[seat], "population": population,
                              "traits": traits, "score": total})
        return scores, {"breakdown": breakdown}
