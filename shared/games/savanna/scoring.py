"""Ecosystem: Savanna scoring (docs/rules/savanna.md, rules S-3.x) as pure functions, plus data.

A savanna ("grid") is a mapping ``(row, col) -> card type``; row grows downward. Scoring is
translation-invariant, so partial savannas (the greedy bot's estimate) score the same way.
The game data (deck composition, grass table) comes from ``components.json`` beside it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

Cell = tuple[int, int]
Grid = Mapping[Cell, str]

_DATA_PATH: Final = Path(__file__).resolve().parent / "components.json"
with _DATA_PATH.open(encoding="utf-8") as _fh:
    DATA: dict[str, Any] = json.load(_fh)

DECK_COUNTS: Final[dict[str, int]] = dict(DATA["deck"])
CARD_TYPES: Final[tuple[str, ...]] = tuple(DECK_COUNTS)  # S-3 scoring order
ANIMALS: Final[frozenset[str]] = frozenset(DATA["animals"])
GRASS_POINTS: Final[tuple[int, ...]] = tuple(DATA["grass_group_points"])
HAND_SIZE: Final[int] = DATA["hand_size"]
GRID_COLUMNS: Final[int] = DATA["grid"]["columns"]
GRID_ROWS: Final[int] = DATA["grid"]["rows"]

_NEIGHBOURS: Final = ((-1, 0), (1, 0), (0, -1), (0, 1))


@dataclass
class SavannaScore:
    """One savanna's score before the cross-player gazelle bonus."""

    breakdown: dict[str, int]  # card type -> points, S-3 order
    gazelles: int  # counted before the hunts (S-3.4)
    cheetah_prey: list[Cell]
    lion_prey: list[Cell]

    @property
    def total(self) -> int:
        return sum(self.breakdown.values())


def grid_from_rows(rows: Iterable[Iterable[str | None]]) -> dict[Cell, str]:
    """A grid from rows of card types (``None`` or ``"."`` = empty); handy in tests."""
    return {(r, c): card for r, row in enumerate(rows) for c, card in enumerate(row)
            if card not in (None, ".")}


def normalise(grid: Grid) -> dict[Cell, str]:
    """Shift a grid so its top-left corner is (0, 0) (the final 5x4 grid: rows 0..3, cols 0..4)."""
    if not grid:
        return {}
    rmin = min(r for r, _ in grid)
    cmin = min(c for _, c in grid)
    return {(r - rmin, c - cmin): card for (r, c), card in grid.items()}


def _adjacent(grid: Grid, cell: Cell) -> list[str]:
    r, c = cell
    out = []
    for dr, dc in _NEIGHBOURS:
        card = grid.get((r + dr, c + dc))
        if card is not None:
            out.append(card)
    return out


def lion_prey_weight(grid: Grid, prey: Cell) -> int:
    """What removing ``prey`` adds to elephants, hyenas and vultures of ``grid`` (S-3.8).

    Each of those effects is a sum over hunted cards, so a prey's value is independent of the
    other prey: maximising the total is taking the heaviest prey (lion points are 4 each).
    """
    pr, pc = prey
    weight = 0
    for (r, c), card in grid.items():
        if card == "elephant":
            if abs(r - pr) + abs(c - pc) == 1:
                weight += 2  # one fewer adjacent animal of another type (S-3.9)
        elif card == "hyena":
            if max(abs(r - pr), abs(c - pc)) <= 2:
                weight += 3  # S-3.10
        elif card == "vulture" and c == pc and pr > r:
            weight += 4  # S-3.11
    return weight


def score_savanna(grid: Grid, lion_prey: Sequence[Cell] | None = None) -> SavannaScore:
    """Score one savanna card type by card type, in the S-3 order (gazelle bonus excluded).

    ``lion_prey`` forces the lions' prey (tests brute-force it against the optimal choice).
    """
    cells: dict[Cell, str] = dict(grid)
    by_type: dict[str, list[Cell]] = {t: [] for t in CARD_TYPES}
    for cell, card in cells.items():
        by_type[card].append(cell)
    for positions in by_type.values():
        positions.sort()
    pts = dict.fromkeys(CARD_TYPES, 0)

    # S-3.1 grass: every edge-connected group scores by its size.
    pts["grass"] = _grass_points(cells, by_type["grass"])

    # S-3.2 acacia: 2 per row and 2 per column holding at least one acacia, counted once per
    # savanna (not once per acacia: see the rule's reasoning in docs/rules/savanna.md).
    acacias = by_type["acacia"]
    pts["acacia"] = 2 * (len({r for r, _ in acacias}) + len({c for _, c in acacias}))

    # S-3.3 watering hole: 2 per distinct adjacent animal type (before any hunt).
    for cell in by_type["watering_hole"]:
        pts["watering_hole"] += 2 * len({t for t in _adjacent(cells, cell) if t in ANIMALS})

    # S-3.4 gazelle: 2 each; the majority bonus is cross-player (gazelle_bonus).
    gazelles = len(by_type["gazelle"])
    pts["gazelle"] = 2 * gazelles

    # S-3.5 zebra: 3 per adjacent grass.
    for cell in by_type["zebra"]:
        pts["zebra"] += 3 * sum(1 for t in _adjacent(cells, cell) if t == "grass")

    # S-3.6 giraffe: 5 if adjacent to an acacia.
    for cell in by_type["giraffe"]:
        if "acacia" in _adjacent(cells, cell):
            pts["giraffe"] += 5

    # S-3.7 cheetah: 3 per gazelle on either diagonal line (any distance, never blocked);
    # cheetahs share prey; every counted gazelle is then removed.
    pts["cheetah"], cheetah_prey = _cheetahs(by_type["cheetah"], by_type["gazelle"])
    for cell in cheetah_prey:
        del cells[cell]

    # S-3.8 lion: a lion next to grass hunts one remaining zebra/gazelle anywhere (4 points);
    # lions never share prey; prey chosen to maximise the total, ties by lowest (row, col).
    chosen = _lion_prey(cells, by_type["lion"], lion_prey)
    pts["lion"] = 4 * len(chosen)
    for cell in chosen:
        del cells[cell]

    pts["elephant"] = _elephants(cells, by_type["elephant"])
    hunted = sorted(cheetah_prey) + chosen
    pts["hyena"], pts["vulture"] = _scavengers(by_type["hyena"], by_type["vulture"], hunted)
    return SavannaScore(pts, gazelles, sorted(cheetah_prey), chosen)


def _grass_points(cells: Grid, grass: list[Cell]) -> int:
    """S-3.1: the points of every edge-connected group of grass, by its size."""
    points = 0
    seen: set[Cell] = set()
    for start in grass:
        if start in seen:
            continue
        seen.add(start)
        stack, size = [start], 0
        while stack:
            r, c = stack.pop()
            size += 1
            for dr, dc in _NEIGHBOURS:
                nxt = (r + dr, c + dc)
                if nxt not in seen and cells.get(nxt) == "grass":
                    seen.add(nxt)
                    stack.append(nxt)
        points += GRASS_POINTS[min(size, len(GRASS_POINTS)) - 1]
    return points


def _cheetahs(cheetahs: list[Cell], gazelles: list[Cell]) -> tuple[int, set[Cell]]:
    """S-3.7: the cheetahs' points and the gazelles they hunt."""
    points = 0
    prey: set[Cell] = set()
    for cr, cc in cheetahs:
        for gr, gc in gazelles:
            if abs(gr - cr) == abs(gc - cc):
                points += 3
                prey.add((gr, gc))
    return points, prey


def _lion_prey(cells: Grid, lions: list[Cell], forced: Sequence[Cell] | None) -> list[Cell]:
    """S-3.8: the cells the lions hunt in ``cells`` (cheetahs' prey gone), sorted: ``forced``
    when given (checked), else the heaviest prey (``lion_prey_weight``)."""
    hunters = sum(1 for cell in lions if "grass" in _adjacent(cells, cell))
    if forced is not None:
        chosen = sorted(forced)
        if len(chosen) > hunters or len(set(chosen)) != len(chosen) or any(
                cells.get(p) not in ("zebra", "gazelle") for p in chosen):
            raise ValueError(f"impossible lion prey {chosen}")
        return chosen
    if not hunters:
        return []
    prey = [cell for cell, card in cells.items() if card in ("zebra", "gazelle")]
    prey.sort(key=lambda p: (-lion_prey_weight(cells, p), p))
    return sorted(prey[:hunters])


def _elephants(cells: Grid, elephants: list[Cell]) -> int:
    """S-3.9 elephant: 6, -2 per adjacent animal of another type (hunted cards are gone)."""
    points = 0
    for cell in elephants:
        others = sum(1 for t in _adjacent(cells, cell) if t in ANIMALS and t != "elephant")
        points += 6 - 2 * others
    return points


def _scavengers(hyenas: list[Cell], vultures: list[Cell], hunted: list[Cell]) -> tuple[int, int]:
    """S-3.10 and S-3.11: the hyenas' and the vultures' points from the ``hunted`` cells."""
    # S-3.10 hyena: 3 per hunted animal within 2 cards (Chebyshev distance, DECISION).
    hyena = 0
    for hr, hc in hyenas:
        hyena += 3 * sum(1 for r, c in hunted if max(abs(r - hr), abs(c - hc)) <= 2)
    # S-3.11 vulture: 4 per hunted animal below it in the same column.
    vulture = 0
    for vr, vc in vultures:
        vulture += 4 * sum(1 for r, c in hunted if c == vc and r > vr)
    return hyena, vulture


def gazelle_bonus(counts: list[int]) -> list[int]:
    """S-3.4 majority: most gazelles +5, second most +2; at least one gazelle needed.

    Tied players all get their place's bonus and the next place is skipped, so a tie for
    first leaves no second place.
    """
    levels = sorted({c for c in counts if c > 0}, reverse=True)
    bonus = [0] * len(counts)
    if not levels:
        return bonus
    first = [i for i, c in enumerate(counts) if c == levels[0]]
    for i in first:
        bonus[i] = 5
    if len(first) == 1 and len(levels) > 1:
        for i, c in enumerate(counts):
            if c == levels[1]:
                bonus[i] = 2
    return bonus


def score_all(grids: Sequence[Grid]) -> tuple[list[int], list[dict[str, int]], list[SavannaScore]]:
    """Totals and per-type breakdowns (``gazelle_bonus`` included) of every savanna."""
    scores = [score_savanna(normalise(g)) for g in grids]
    bonus = gazelle_bonus([s.gazelles for s in scores])
    breakdowns = []
    for score, extra in zip(scores, bonus, strict=True):
        breakdown = dict(score.breakdown)
        breakdown["gazelle_bonus"] = extra
        breakdowns.append(breakdown)
    totals = [sum(b.values()) for b in breakdowns]
    return totals, breakdowns, scores
