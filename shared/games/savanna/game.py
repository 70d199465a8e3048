"""Ecosystem: Savanna — a simultaneous card draft building a 5x4 savanna.

Rules: docs/rules/savanna.md (rule ids S-x.y). What it models: 2-6 seats; two phases of ten
steps. A step has two stages. Pick: every seat secretly picks one card of its hand, face down
(rule S-2.2, a simultaneous hidden step). When the last seat has picked, all picks are revealed
(rule S-2.6) and the place stage begins: every seat places its revealed card in its savanna
(a simultaneous public step, each seat owes one placement; rule S-2.4 says where). When the
last seat has placed, the hands travel: left (seat+1) in phase I, right (seat-1) in phase II
(rules S-2.7, S-2.3). The last card of each hand is removed face up after the tenth step of a
phase. The match ends after the 20th placement and is scored by rules S-3.x
(:mod:`shared.games.savanna.scoring`).

Hands are numbered objects: hand ``h`` of a phase is dealt to seat ``h`` and at step ``k`` is
held by seat ``h + k*d`` (``d`` = +1 left, -1 right). A seat knows every hand it has held this
phase (each card later taken from it is revealed with its picker), so views show those hands.

Coordinates: a savanna's first card is at (0, 0); later cells are relative (may be negative);
row grows downward. The bounding box must stay within 5 columns x 4 rows (rule S-2.4).
Where the placement rules allow a choice, it is the seat's move (a ``place`` move), never
the engine's.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from shared.games.savanna.scoring import (
    CARD_TYPES,
    DECK_COUNTS,
    GRID_COLUMNS,
    GRID_ROWS,
    HAND_SIZE,
    gazelle_bonus,
    score_all,
    score_savanna,
)
from shared.kernel.catalogue import wording
from shared.kernel.protocol import (
    Event,
    Game,
    IllegalMove,
    Move,
    NotYourTurn,
    Policy,
    Result,
    State,
    View,
)

Cell = tuple[int, int]

STEPS_PER_PHASE: Final = HAND_SIZE - 1  # S-2.3: a phase ends when each hand is down to one card
PHASES: Final = 2
#: The folder of the engine's data (its texts word the move labels).
_DATA_DIR: Final = Path(__file__).resolve().parent
_LABELS: Final = {t: t.replace("_", " ").capitalize() for t in CARD_TYPES}
# Every possible move and its id, built once: the search lists and compares them thousands of
# times a second. Cells stay within 3 rows / 4 columns of the first card (S-2.4). The move
# objects are shared, so nobody may mutate a move (moves are data, never changed in place).
_PICKS: Final[dict[str, Move]] = {t: {"type": "pick", "card": t} for t in CARD_TYPES}
_PICK_IDS: Final[dict[str, str]] = {t: f"pick:{t}" for t in CARD_TYPES}
_SEEN_PICKS: Final[dict[str, tuple[str, Move]]] = {t: (_PICK_IDS[t], _PICKS[t]) for t in CARD_TYPES}
_PLACES: Final[dict[Cell, Move]] = {(r, c): {"type": "place", "row": r, "col": c}
                                    for r in range(-3, 4) for c in range(-4, 5)}
_PLACE_IDS: Final[dict[Cell, str]] = {cell: "place:{},{}".format(*cell) for cell in _PLACES}
_SEEN_PLACES: Final[dict[Cell, tuple[str, Move]]] = {
    cell: (_PLACE_IDS[cell], move) for cell, move in _PLACES.items()}
_HIDDEN_PICK: Final = "pick:hidden"
_KNOWN_TYPES: Final = frozenset(CARD_TYPES)
_PICK_KEYS: Final = frozenset(("type", "card"))
_PLACE_KEYS: Final = frozenset(("type", "row", "col"))
FULL_DECK: Final[tuple[str, ...]] = tuple(t for t, n in DECK_COUNTS.items() for _ in range(n))


class SavannaState(State):
    """A Savanna match. ``hands[h]`` is hand ``h`` of the current phase (picks removed).

    ``pending[s]`` is seat ``s``'s face-down pick of the pick stage; ``revealed[s]`` its
    revealed card still to be placed in the place stage (None once placed).
    """

    __slots__ = ("_box", "_cells", "_result", "deck", "hands", "num_players", "over", "pending",
                 "phase", "removed", "revealed", "savannas", "step")

    def __init__(self, num_players: int, deck: list[str]) -> None:
        self.num_players = num_players
        self.phase = 1
        self.step = 0
        self.over = False
        self.deck = deck  # undealt cards; dealt from the end
        self.hands: list[list[str]] = [[] for _ in range(num_players)]
        self.pending: list[str | None] = [None] * num_players
        self.revealed: list[str | None] = [None] * num_players
        self.savannas: list[dict[Cell, str]] = [{} for _ in range(num_players)]
        self.removed: list[tuple[int, int, str]] = []  # (phase, seat, card), face up
        # Caches (not state): legal cells and bounding box (rmin, rmax, cmin, cmax) per seat.
        self._cells: list[tuple[Cell, ...] | None] = [None] * num_players
        self._box: list[tuple[int, int, int, int] | None] = [None] * num_players
        self._result: Result | None = None

    # -- helpers ----------------------------------------------------------------------------

    @property
    def direction(self) -> int:
        """S-2.7/S-2.3: phase I passes left (+1), phase II right (-1)."""
        return 1 if self.phase == 1 else -1

    @property
    def placing(self) -> bool:
        """S-2.6: the picks are revealed and some seat still owes its placement."""
        return any(card is not None for card in self.revealed)

    def owes(self, seat: int) -> bool:
        """Whether ``seat`` owes a move now (a pick, or in the place stage a placement)."""
        if self.over or not 0 <= seat < self.num_players:
            return False
        if self.placing:
            return self.revealed[seat] is not None
        return self.pending[seat] is None

    def hand_index(self, seat: int) -> int:
        """The number of the hand ``seat`` holds now."""
        return (seat - self.step * self.direction) % self.num_players

    def holder(self, hand: int) -> int:
        return (hand + self.step * self.direction) % self.num_players

    def known_holders(self, seat: int) -> list[int]:
        """Other seats now holding a hand ``seat`` has held this phase (S-2.5)."""
        n, d = self.num_players, self.direction
        return [(seat + m * d) % n for m in range(1, min(self.step, n - 1) + 1)]

    def _deal(self) -> None:
        """S-2.1 / S-2.3: 11 cards to each seat; hand h goes to seat h."""
        for h in range(self.num_players):
            self.hands[h] = self.deck[-HAND_SIZE:]
            del self.deck[-HAND_SIZE:]

    def legal_cells(self, seat: int) -> tuple[Cell, ...]:
        """Cells where ``seat`` may place its next card (S-2.4), sorted; cached until it places."""
        cached = self._cells[seat]
        if cached is not None:
            return cached
        sav = self.savannas[seat]
        if not sav:
            cells: tuple[Cell, ...] = ((0, 0),)
        else:
            rmin, rmax, cmin, cmax = self._bounds(seat)
            # S-2.4: the box may grow to GRID_ROWS x GRID_COLUMNS around what is placed.
            rlo, rhi = rmax - GRID_ROWS + 1, rmin + GRID_ROWS - 1
            clo, chi = cmax - GRID_COLUMNS + 1, cmin + GRID_COLUMNS - 1
            found = set()
            for r, c in sav:
                if r > rlo and (r - 1, c) not in sav:
                    found.add((r - 1, c))
                if r < rhi and (r + 1, c) not in sav:
                    found.add((r + 1, c))
                if c > clo and (r, c - 1) not in sav:
                    found.add((r, c - 1))
                if c < chi and (r, c + 1) not in sav:
                    found.add((r, c + 1))
            cells = tuple(sorted(found))
        self._cells[seat] = cells
        return cells

    def _bounds(self, seat: int) -> tuple[int, int, int, int]:
        """Bounding box (rmin, rmax, cmin, cmax) of a non-empty savanna; cached."""
        box = self._box[seat]
        if box is None:
            sav = self.savannas[seat]
            rows = [r for r, _ in sav]
            cols = [c for _, c in sav]
            box = self._box[seat] = (min(rows), max(rows), min(cols), max(cols))
        return box

    def _place(self, seat: int, card: str, r: int, c: int) -> None:
        """Put a card down and update the caches incrementally.

        The box only grows, so the allowed region only shrinks: the new legal cells are the
        old ones still allowed, plus the new card's free neighbours that are allowed.
        """
        sav = self.savannas[seat]
        sav[(r, c)] = card
        cells = self._cells[seat]
        if cells is None or len(sav) == 1:
            self._cells[seat] = None
            self._box[seat] = None
            return
        rmin, rmax, cmin, cmax = self._bounds(seat)
        rmin, rmax = min(rmin, r), max(rmax, r)
        cmin, cmax = min(cmin, c), max(cmax, c)
        self._box[seat] = (rmin, rmax, cmin, cmax)
        rlo, rhi = rmax - GRID_ROWS + 1, rmin + GRID_ROWS - 1
        clo, chi = cmax - GRID_COLUMNS + 1, cmin + GRID_COLUMNS - 1
        found = [x for x in cells if rlo <= x[0] <= rhi and clo <= x[1] <= chi and x != (r, c)]
        for x in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if (rlo <= x[0] <= rhi and clo <= x[1] <= chi and x not in sav
                    and x not in found):
                found.append(x)
        found.sort()
        self._cells[seat] = tuple(found)

    def _problem(self, seat: int, move: Move) -> str | None:
        """Why ``move`` is illegal for ``seat`` (who owes a move), or None if it is legal."""
        kind = move.get("type") if isinstance(move, dict) else move
        if self.placing:
            if kind == "pick":
                return (f"the picks are revealed: place your {self.revealed[seat]} with a "
                        "'place' move (row, col)")
            if kind != "place":
                return f"unknown move type {kind!r}: now the move is 'place'"
            return self._place_problem(seat, move)
        if kind == "place":
            return "pick a card first: the picks are revealed only when every seat has picked"
        if kind != "pick":
            return f"unknown move type {kind!r}: now the move is 'pick'"
        extra = set(move) - _PICK_KEYS
        if extra:
            return f"unexpected field(s) {sorted(extra)} in a pick (it names only the card)"
        card = move.get("card")
        if not isinstance(card, str) or card not in _KNOWN_TYPES:
            return f"unknown card type {card!r}"
        if card not in self.hands[self.hand_index(seat)]:
            return f"no {card} in the hand of seat {seat}"
        return None

    def _place_problem(self, seat: int, move: Move) -> str | None:
        extra = set(move) - _PLACE_KEYS
        if extra:
            return f"unexpected field(s) {sorted(extra)} in a placement (it names only the cell)"
        row, col = move.get("row"), move.get("col")
        if type(row) is not int or type(col) is not int:
            return "row and col must be integers"
        if (row, col) in self.legal_cells(seat):
            return None
        sav = self.savannas[seat]
        if (row, col) in sav:
            return f"cell ({row}, {col}) is already occupied"
        if not sav:
            return "the first card of a savanna goes at row 0, column 0"
        if not any(n in sav for n in ((row - 1, col), (row + 1, col), (row, col - 1),
                                      (row, col + 1))):
            return f"cell ({row}, {col}) shares no edge with a placed card"
        return (f"cell ({row}, {col}) would make the savanna exceed {GRID_COLUMNS} columns x "
                f"{GRID_ROWS} rows")

    # -- protocol ---------------------------------------------------------------------------

    def to_move(self) -> list[int]:
        if self.over:
            return []
        if self.placing:
            return [s for s, card in enumerate(self.revealed) if card is not None]
        return [s for s, p in enumerate(self.pending) if p is None]

    def is_over(self) -> bool:
        return self.over

    def legal_moves(self, seat: int) -> list[Move]:
        if not self.owes(seat):
            return []
        if self.placing:
            return [_PLACES[cell] for cell in self.legal_cells(seat)]
        return [_PICKS[t] for t in sorted(set(self.hands[self.hand_index(seat)]))]

    def random_move(self, seat: int, rng: random.Random) -> Move:
        """Uniform over legal moves (distinct card types when picking, cells when placing)."""
        if self.placing:
            cells = self.legal_cells(seat)
            return _PLACES[cells[rng.randrange(len(cells))]]
        # dict.fromkeys: distinct types in a deterministic order (set order varies by process).
        types = list(dict.fromkeys(self.hands[self.hand_index(seat)]))
        return _PICKS[types[rng.randrange(len(types))]]

    def move_id(self, move: Move) -> str:
        kind = move.get("type")
        if kind == "pick":
            card = move.get("card")
            if isinstance(card, str) and card in _PICK_IDS:
                return _PICK_IDS[card]
        elif kind == "place":
            row, col = move.get("row"), move.get("col")
            if type(row) is int and type(col) is int:
                return _PLACE_IDS.get((row, col)) or f"place:{row},{col}"
        return super().move_id(move)

    def move_label(self, move: Move, lang: str = "en") -> str:
        kind = move.get("type")
        words = wording(_DATA_DIR, lang)
        if kind == "pick" and move.get("card") in _LABELS:
            card = move["card"]
            return words.label("pick", card=words.name(f"card:{card}", _LABELS[card]))
        if kind == "place":
            return words.label("place", row=move.get("row"), col=move.get("col"))
        return self.move_id(move)

    def observe_move(self, seat: int, move: Move, observer: int) -> str:
        # S-2.2: a pick is face down, others only learn that the seat picked; S-2.6: a
        # placement is public.
        if move.get("type") == "pick" and observer != seat:
            return _HIDDEN_PICK
        return self.move_id(move)

    def observed_moves(self, seat: int, observer: int) -> list[tuple[str, Move]]:
        if not self.owes(seat):
            return []
        if self.placing:
            return [_SEEN_PLACES[cell] for cell in self.legal_cells(seat)]
        types = sorted(set(self.hands[self.hand_index(seat)]))
        if observer == seat:
            return [_SEEN_PICKS[t] for t in types]
        return [(_HIDDEN_PICK, _PICKS[t]) for t in types]

    def explain_illegal(self, seat: int, move: Move) -> str:
        if self.over:
            return "the match is over"
        if not 0 <= seat < self.num_players:
            return f"no seat {seat} in this match"
        if not self.owes(seat):
            if self.placing:
                return f"seat {seat} has already placed this step"
            return f"seat {seat} has already picked this step"
        return self._problem(seat, move) or super().explain_illegal(seat, move)

    def apply(self, seat: int, move: Move, rng: random.Random) -> list[Event]:
        if not self.owes(seat):
            raise NotYourTurn(self.explain_illegal(seat, move))
        problem = self._problem(seat, move)
        if problem is not None:
            raise IllegalMove(problem)
        return self.apply_legal(seat, move, rng)

    def apply_legal(self, seat: int, move: Move, rng: random.Random) -> list[Event]:
        if move["type"] == "place":
            return self._apply_place(seat, move["row"], move["col"])
        card = move["card"]
        self.hands[self.hand_index(seat)].remove(card)
        self.pending[seat] = card
        events: list[Event] = [
            {"type": "picked", "seat": seat, "card": card, "audience": [seat]},
            # Public: the card stays face down (S-2.2); the picker has the private one above.
            {"type": "picked", "seat": seat, "exclude": [seat]},
        ]
        if all(p is not None for p in self.pending):
            # S-2.6: every seat has picked; all picks turn face up at once.
            self.revealed = self.pending
            self.pending = [None] * self.num_players
            events.append({"type": "reveal", "phase": self.phase, "step": self.step,
                           "picks": [{"seat": s, "card": c} for s, c in
                                     enumerate(self.revealed)]})
        return events

    def _apply_place(self, seat: int, row: int, col: int) -> list[Event]:
        card = self.revealed[seat]
        assert card is not None
        self._place(seat, card, row, col)
        self.revealed[seat] = None
        events: list[Event] = [
            {"type": "placed", "seat": seat, "card": card, "row": row, "col": col}]
        if not self.placing:
            self._end_step(events)
        return events

    def _end_step(self, events: list[Event]) -> None:
        """Every seat has placed: the hands pass (S-2.7), or the phase ends (S-2.3)."""
        if self.step + 1 < STEPS_PER_PHASE:
            self.step += 1  # passing the hands is implicit in hand_index()
            return
        # S-2.3: each holds one card; it goes back to the box face up.
        removed = []
        for s in range(self.num_players):
            h = self.hand_index(s)
            for card in self.hands[h]:
                self.removed.append((self.phase, s, card))
                removed.append({"seat": s, "card": card})
            self.hands[h] = []
        events.append({"type": "phase_end", "phase": self.phase, "removed": removed})
        if self.phase < PHASES:
            self.phase += 1
            self.step = 0
            self._deal()
            events.append({"type": "deal", "phase": self.phase, "cards_each": HAND_SIZE})
            for s in range(self.num_players):
                events.append({"type": "deal", "phase": self.phase, "seat": s,
                               "cards": sorted(self.hands[self.hand_index(s)]),
                               "audience": [s]})
        else:
            self.step = STEPS_PER_PHASE
            self.over = True
            result = self.result()
            events.append({"type": "game_over", "scores": result.scores,
                           "winners": result.winners})

    def result(self) -> Result:
        if self._result is None:
            totals, breakdowns, scores = score_all(self.savannas)
            hunted = []
            for sav, score in zip(self.savannas, scores, strict=True):
                # Scoring used the normalised grid; report prey in the savanna's own cells.
                dr = min((r for r, _ in sav), default=0)
                dc = min((c for _, c in sav), default=0)
                hunted.append({kind: [[r + dr, c + dc] for r, c in cells]
                               for kind, cells in (("cheetah", score.cheetah_prey),
                                                   ("lion", score.lion_prey))})
            details = {
                "breakdown": breakdowns,  # per seat: card type -> points, plus gazelle_bonus
                "gazelles": [s.gazelles for s in scores],
                "hunted": hunted,  # per seat: cells of the cards hunted at scoring
            }
            self._result = Result.from_keys(totals, totals, details=details)
        return self._result

    def view(self, seat: int | None) -> View:
        n = self.num_players
        view: View = {
            "game": "savanna",
            "seat": seat,
            "players": n,
            "phase": self.phase,
            "step": self.step,
            "stage": "place" if self.placing else "pick",
            "pass_direction": "left" if self.direction == 1 else "right",
            "savannas": [[{"card": card, "row": r, "col": c} for (r, c), card in sorted(s.items())]
                         for s in self.savannas],
            "removed": [{"phase": p, "seat": s, "card": c} for p, s, c in self.removed],
            # Pick stage: who has picked (face down). Place stage: each seat's revealed card
            # still to be placed (None once placed).
            "picked": [s for s, p in enumerate(self.pending) if p is not None],
            "revealed": list(self.revealed),
            "holding": [self.hand_index(s) for s in range(n)],
            # Cards held, a face-down or revealed pick excluded.
            "hand_sizes": [len(self.hands[self.hand_index(s)]) for s in range(n)],
            "deck_size": len(self.deck),
            "over": self.over,
        }
        if seat is not None:
            view["hand"] = sorted(self.hands[self.hand_index(seat)])
            view["pending"] = self.pending[seat]
            known = []
            for s in ([] if self.over else self.known_holders(seat)):
                cards = list(self.hands[self.hand_index(s)])
                other = self.pending[s]
                if other is not None:
                    cards.append(other)  # face down: the viewer cannot tell which card it is
                known.append({"seat": s, "hand": self.hand_index(s), "cards": sorted(cards)})
            view["known_hands"] = known
        if self.over:
            view["result"] = self.result().to_json()
        return view

    def clone(self) -> SavannaState:
        # The constructor, not ``__new__``: the engine must stay compilable by mypyc
        # (shared/infra/accel.py), whose native classes cannot skip ``__init__``.
        twin = SavannaState(self.num_players, self.deck[:])
        twin.phase = self.phase
        twin.step = self.step
        twin.over = self.over
        twin.hands = [h[:] for h in self.hands]
        twin.pending = self.pending[:]
        twin.revealed = self.revealed[:]
        twin.savannas = [dict(s) for s in self.savannas]
        twin.removed = self.removed[:]
        twin._cells = self._cells[:]
        twin._box = self._box[:]
        twin._result = self._result
        return twin

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.num_players,
            "phase": self.phase,
            "step": self.step,
            "over": self.over,
            "deck": list(self.deck),
            "hands": [list(h) for h in self.hands],
            "pending": list(self.pending),
            "revealed": list(self.revealed),
            "savannas": [[[r, c, card] for (r, c), card in s.items()] for s in self.savannas],
            "removed": [list(x) for x in self.removed],
        }


@dataclass(frozen=True)
class _SamplingPlan:
    """What a determinization takes from a view: the known part as a state to clone, the
    known hands of other seats (``(seat, cards, has_picked)``), the unknown cards in a fixed
    order, the unseen hands (``(seat, size, has_picked)``) and how many cards get dealt."""

    template: SavannaState
    known: list[tuple[int, tuple[str, ...], bool]]
    unknown: tuple[str, ...]
    unseen: list[tuple[int, int, bool]]
    needed: int


class SavannaGame(Game):
    """Catalogue entry and constructors for Ecosystem: Savanna."""

    id = "savanna"
    name = "Ecosystem: Savanna"
    # savanna-2: pick, reveal, then place (S-2.2, S-2.6); acacia scored once per savanna (S-3.2)
    version = "savanna-2"
    min_players = 2
    max_players = 6  # S-1.2
    description = ("Draft cards simultaneously and build a 5x4 African savanna: grass, acacias, "
                   "watering holes and hunting animals, scored at the end.")

    def playout_heuristic(self) -> Policy | None:
        from shared.games.savanna.policy import savanna_policy  # a candidate, not registered

        return savanna_policy  # type: ignore[return-value]

    def components(self, lang: str = "en") -> dict[str, Any]:
        from shared.games.savanna.catalogue import build

        return build(self.id, self.data_dir(), lang)

    def compiled_modules(self) -> tuple[str, ...]:
        # The engine and its scoring (run at the end of every playout too); the playout
        # policy is a candidate, not registered, and stays out of the build.
        return ("shared.games.savanna.game", "shared.games.savanna.scoring")

    def new_state(self, players: int, options: dict[str, Any], rng: random.Random) -> State:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"savanna needs {self.min_players}-{self.max_players} players")
        deck = list(FULL_DECK)
        rng.shuffle(deck)  # S-2.1
        state = SavannaState(players, deck)
        state._deal()
        return state

    def state_from_json(self, data: dict[str, Any]) -> SavannaState:
        state = SavannaState(data["players"], list(data["deck"]))
        state.phase = data["phase"]
        state.step = data["step"]
        state.over = data["over"]
        state.hands = [list(h) for h in data["hands"]]
        state.pending = list(data["pending"])
        state.revealed = list(data["revealed"])
        state.savannas = [{(r, c): card for r, c, card in s} for s in data["savannas"]]
        state.removed = [(p, s, c) for p, s, c in data["removed"]]
        return state

    def sample_from_view(self, view: View, seat: int | None, rng: random.Random) -> SavannaState:
        """Known cards as they are; unknown ones shuffled into unseen hands, hidden picks, deck."""
        return self._sample(self._plan(view, seat), rng)

    def sampler(self, view: View, seat: int) -> Callable[[random.Random], SavannaState]:
        # The view's known part is worked out once; each sample only deals the unknown cards.
        plan = self._plan(view, seat)
        return lambda rng: self._sample(plan, rng)

    def _plan(self, view: View, seat: int | None) -> _SamplingPlan:
        """Everything a determinization takes from the view, before any randomness."""
        n = view["players"]
        state = SavannaState(n, [])
        state.phase, state.step, state.over = view["phase"], view["step"], view["over"]
        state.savannas = [{(x["row"], x["col"]): x["card"] for x in s} for s in view["savannas"]]
        state.removed = [(x["phase"], x["seat"], x["card"]) for x in view["removed"]]
        state.revealed = list(view["revealed"])
        pool = Counter(FULL_DECK)
        pool.subtract(x[2] for x in state.removed)
        for sav in state.savannas:
            pool.subtract(sav.values())
        pool.subtract(card for card in state.revealed if card is not None)
        picked = set(view["picked"])
        known: list[tuple[int, tuple[str, ...], bool]] = []
        filled: set[int] = set()
        if seat is not None:
            own = list(view["hand"])
            state.hands[state.hand_index(seat)] = own
            pool.subtract(own)
            if view["pending"] is not None:
                state.pending[seat] = view["pending"]
                pool.subtract([view["pending"]])
            filled.add(seat)
            for hand in view["known_hands"]:
                pool.subtract(hand["cards"])
                known.append((hand["seat"], tuple(hand["cards"]), hand["seat"] in picked))
                filled.add(hand["seat"])
        unknown = tuple(card for card, count in pool.items() for _ in range(count))
        unseen = [(s, view["hand_sizes"][s] + (s in picked), s in picked)
                  for s in range(n) if s not in filled]
        # Only the cards that go to unseen hands and those a later phase deals (both taken
        # from the end) need a random order: a partial Fisher-Yates over the end suffices.
        needed = sum(size for _, size, _ in unseen)
        if len(unknown) - needed != view["deck_size"]:
            raise ValueError("view is inconsistent with the deck composition")
        needed += HAND_SIZE * n * (PHASES - state.phase) if not state.over else 0
        return _SamplingPlan(state, known, unknown, unseen, needed)

    def _sample(self, plan: _SamplingPlan, rng: random.Random) -> SavannaState:
        state = plan.template.clone()
        for s, held, has_picked in plan.known:
            self._fill(state, s, list(held), has_picked, rng)
        unknown = list(plan.unknown)
        for i in range(len(unknown) - 1, max(len(unknown) - 1 - plan.needed, 0), -1):
            j = rng.randrange(i + 1)
            unknown[i], unknown[j] = unknown[j], unknown[i]
        for s, size, has_picked in plan.unseen:
            cards = unknown[len(unknown) - size:]
            del unknown[len(unknown) - size:]
            self._fill(state, s, cards, has_picked, rng)
        state.deck = unknown
        return state

    @staticmethod
    def _fill(state: SavannaState, s: int, cards: list[str], has_picked: bool,
              rng: random.Random) -> None:
        """Give seat ``s`` ``cards``; if it has picked, one of them at random is its pick."""
        if has_picked:
            state.pending[s] = cards.pop(rng.randrange(len(cards)))
        state.hands[state.hand_index(s)] = cards

    def greedy_value(self, state: State, seat: int) -> float:
        """The seat's savanna scored now, gazelle bonus estimated; a card picked but not yet
        placed counts at its best legal cell."""
        assert isinstance(state, SavannaState)
        if state.over:
            return state.result().scores[seat]
        grid = state.savannas[seat]
        counts = [sum(1 for c in s.values() if c == "gazelle") for s in state.savannas]
        card = state.pending[seat] or state.revealed[seat]
        if card is None:
            return _estimate(grid, counts, seat)
        counts[seat] += card == "gazelle"
        return max(_estimate({**grid, cell: card}, counts, seat)
                   for cell in state.legal_cells(seat))


def _estimate(grid: dict[Cell, str], gazelles: list[int], seat: int) -> float:
    """A partial savanna's score plus the gazelle bonus it would get with these counts."""
    return float(score_savanna(grid).total + gazelle_bonus(gazelles)[seat])


