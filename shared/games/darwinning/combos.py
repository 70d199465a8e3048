"""Trick combinations (docs/rules/darwinning.md D-4.2, D-4.3, D-4.5).

A played combination is its cards (sorted ids) plus one named colour per joker in them, in
card order: a joker is value 0 of the colour its player names (D-4.5). Ranks, weakest first:
single, pair, flush, straight, three of a kind, straight flush, four of a kind; a combination
has exactly its listed number of cards (D-4.2).
"""

from __future__ import annotations

from itertools import combinations
from typing import Final

from .cards import COLOUR, COLOURS, JOKERS, VALUE, card_label

SINGLE: Final = 0
PAIR: Final = 1
FLUSH: Final = 2
STRAIGHT: Final = 3
THREE: Final = 4
STRAIGHT_FLUSH: Final = 5
FOUR: Final = 6
RANK_NAMES: Final = ("single", "pair", "flush", "straight", "three of a kind",
                     "straight flush", "four of a kind")

#: (cards, joker colours, rank, sum of values)
Combo = tuple[tuple[int, ...], tuple[int, ...], int, int]


def classify(cards: tuple[int, ...], names: tuple[int, ...]) -> tuple[int, int] | None:
    """``(rank, sum)`` of ``cards`` with jokers named ``names``; ``None`` if no combination."""
    values = [VALUE[c] for c in cards]
    colours = []
    k = 0
    for c in cards:
        if c in JOKERS:
            if k >= len(names):
                return None
            colours.append(names[k])
            k += 1
        else:
            colours.append(COLOUR[c])
    if k != len(names):
        return None
    total = sum(values)
    size = len(cards)
    if size == 1:
        return SINGLE, total
    if size == 2:
        return (PAIR, total) if values[0] == values[1] else None
    if size == 3:
        low = min(values)
        straight = sorted(values) == [low, low + 1, low + 2]
        flush = colours[0] == colours[1] == colours[2]
        if straight and flush:
            return STRAIGHT_FLUSH, total
        if values[0] == values[1] == values[2]:
            return THREE, total
        if straight:
            return STRAIGHT, total
        if flush:
            return FLUSH, total
        return None
    if size == 4:
        return (FOUR, total) if len(set(values)) == 1 else None
    return None


def beats(rank: int, total: int, best_rank: int, best_total: int) -> bool:
    """D-4.3: a higher rank wins; the same rank wins with an equal or higher sum."""
    return rank > best_rank or (rank == best_rank and total >= best_total)


def _variants(cards: list[int]) -> list[tuple[int, int]]:
    """``(card, colour)`` with each joker once per colour it may be named (D-4.5)."""
    out: list[tuple[int, int]] = []
    for c in cards:
        if c in JOKERS:
            out.extend((c, col) for col in range(len(COLOURS)))
        else:
            out.append((c, COLOUR[c]))
    return out


def _combo(items: tuple[tuple[int, int], ...], rank: int) -> Combo:
    items = tuple(sorted(items))
    cards = tuple(c for c, _ in items)
    names = tuple(col for c, col in items if c in JOKERS)
    return cards, names, rank, sum(VALUE[c] for c in cards)


def enumerate_combos(pool: list[int]) -> list[Combo]:
    """Every combination (with joker namings) that can be formed from ``pool``, each once.

    Not cached: a playout's hands are new at almost every call (a random deal, then one
    play less), and a cache of them only kept millions of tuples alive for the garbage
    collector to walk (``bench.bench_engine_speed`` measured it a third slower with one).
    """
    key = tuple(sorted(pool))
    return _plain_combos(key) if JOKERS.isdisjoint(key) else _joker_combos(list(key))


def _plain_combos(cards: tuple[int, ...]) -> list[Combo]:
    """``enumerate_combos`` for a pool without jokers (most hands): ``plain_codes`` unpacked."""
    pool = list(cards)
    size = len(pool)
    return [(code_cards(pool, code), (), (code >> size) & 7, code >> (size + 3))
            for code in plain_codes(pool)]


def plain_codes(pool: list[int]) -> list[int]:
    """Every combination of the sorted, joker-free ``pool``, in ``enumerate_combos`` order,
    each packed in one int: bit ``i`` set when ``pool[i]`` is in it, then (from bit
    ``len(pool)``) the rank in 3 bits, then the sum of values. The playouts' trick plays
    count and pick these without building a tuple per combination (D-4.2)."""
    n = len(pool)
    rank_at, total_at = n, n + 3
    out: list[int] = []
    by_value: dict[int, list[int]] = {}  # pool indices per value, in order of appearance
    by_colour: dict[int, list[int]] = {}
    for i in range(n):
        value = VALUE[pool[i]]
        out.append((value << total_at) | (1 << i))  # a single (rank 0)
        same_value = by_value.get(value)
        if same_value is None:
            by_value[value] = [i]
        else:
            same_value.append(i)
        same_colour = by_colour.get(COLOUR[pool[i]])
        if same_colour is None:
            by_colour[COLOUR[pool[i]]] = [i]
        else:
            same_colour.append(i)
    for value, group in by_value.items():
        if len(group) >= 2:
            _equal_values(group, value, rank_at, total_at, out)
    for low, group in by_value.items():
        mid, high = by_value.get(low + 1), by_value.get(low + 2)
        if mid is None or high is None:
            continue
        total = (3 * low + 3) << total_at
        for a in group:
            colour = COLOUR[pool[a]]
            for b in mid:
                for c in high:
                    same = colour == COLOUR[pool[b]] and colour == COLOUR[pool[c]]
                    rank = STRAIGHT_FLUSH if same else STRAIGHT
                    out.append(total | (rank << rank_at) | (1 << a) | (1 << b) | (1 << c))
    for group in by_colour.values():
        if len(group) >= 3:
            _flushes(pool, group, rank_at, total_at, out)
    return out


def _equal_values(group: list[int], value: int, rank_at: int, total_at: int,
                  out: list[int]) -> None:
    """Pairs, then threes, then fours of one value, as ``combinations`` lists them."""
    size = len(group)
    code = ((2 * value) << total_at) | (PAIR << rank_at)
    for a in range(size):
        for b in range(a + 1, size):
            out.append(code | (1 << group[a]) | (1 << group[b]))
    code = ((3 * value) << total_at) | (THREE << rank_at)
    for a in range(size):
        for b in range(a + 1, size):
            for c in range(b + 1, size):
                out.append(code | (1 << group[a]) | (1 << group[b]) | (1 << group[c]))
    code = ((4 * value) << total_at) | (FOUR << rank_at)
    for a in range(size):
        for b in range(a + 1, size):
            for c in range(b + 1, size):
                for d in range(c + 1, size):
                    out.append(code | (1 << group[a]) | (1 << group[b]) | (1 << group[c])
                               | (1 << group[d]))


def _flushes(pool: list[int], group: list[int], rank_at: int, total_at: int,
             out: list[int]) -> None:
    """Three cards of one colour that are neither a straight flush (listed with the
    straights) nor three equal values (two copies per colour cannot make three)."""
    size = len(group)
    flush = FLUSH << rank_at
    for a in range(size):
        x0 = VALUE[pool[group[a]]]
        for b in range(a + 1, size):
            y0 = VALUE[pool[group[b]]]
            for c in range(b + 1, size):
                z0 = VALUE[pool[group[c]]]
                x, y, z = _sorted3(x0, y0, z0)
                if (x + 1 == y and y + 1 == z) or x == z:
                    continue
                out.append(((x + y + z) << total_at) | flush | (1 << group[a])
                           | (1 << group[b]) | (1 << group[c]))


def _sorted3(x: int, y: int, z: int) -> tuple[int, int, int]:
    if x > y:
        x, y = y, x
    if y > z:
        y, z = z, y
        if x > y:
            x, y = y, x
    return x, y, z


def code_cards(pool: list[int], code: int) -> tuple[int, ...]:
    """The cards of a ``plain_codes`` combination, in pool (sorted) order."""
    return tuple([pool[i] for i in range(len(pool)) if (code >> i) & 1])


def _joker_combos(pool: list[int]) -> list[Combo]:
    """``enumerate_combos`` for a pool with a joker: each joker once per colour it may be
    named. Items are ``(card, colour)`` in the order of the sorted pool, so every group and
    every ``combinations`` of one is already sorted as ``_combo`` would sort it (straights,
    drawn from three groups, are sorted by card: their cards differ)."""
    variants = _variants(pool)
    by_value: dict[int, list[tuple[int, int]]] = {}
    by_colour: dict[int, list[tuple[int, int]]] = {}
    for item in variants:
        by_value.setdefault(VALUE[item[0]], []).append(item)
        by_colour.setdefault(item[1], []).append(item)
    out: list[Combo] = [((c, ), (col, ) if c in JOKERS else (), SINGLE, VALUE[c])
                        for c, col in variants]
    for value, group in by_value.items():
        count = len(group)
        if count < 2:
            continue
        for size, rank in ((2, PAIR), (3, THREE), (4, FOUR)):
            if count < size:
                break
            for items in combinations(group, size):
                cards = tuple([c for c, _ in items])
                if len(set(cards)) == size:
                    out.append((cards, tuple([col for c, col in items if c in JOKERS]), rank,
                                size * value))
    for low in range(0, 14):
        lows, mids, highs = by_value.get(low), by_value.get(low + 1), by_value.get(low + 2)
        if not lows or not mids or not highs:
            continue
        total = 3 * low + 3
        for a in lows:
            for b in mids:
                for c in highs:
                    rank = STRAIGHT_FLUSH if a[1] == b[1] == c[1] else STRAIGHT
                    ordered = sorted((a, b, c))
                    out.append((tuple([card for card, _ in ordered]),
                                tuple([col for card, col in ordered if card in JOKERS]), rank,
                                total))
    for group in by_colour.values():
        for items in combinations(group, 3):
            cards = tuple([c for c, _ in items])
            if len(set(cards)) < 3:
                continue
            x, y, z = sorted((VALUE[cards[0]], VALUE[cards[1]], VALUE[cards[2]]))
            if (x + 1 == y and y + 1 == z) or x == z:
                continue  # a straight flush (listed above); three equal values
            out.append((cards, tuple([col for c, col in items if c in JOKERS]), FLUSH,
                        x + y + z))
    return out


def combo_label(cards: tuple[int, ...] | list[int], names: tuple[int, ...] | list[int],
                rank: int) -> str:
    """``"pair 7 acorn + 7 flower"``; a joker reads ``"joker as 0 blueberry"``."""
    parts = []
    k = 0
    for c in cards:
        if c in JOKERS:
            parts.append(f"joker as 0 {COLOURS[names[k]]}")
            k += 1
        else:
            parts.append(card_label(c))
    return f"{RANK_NAMES[rank]} {' + '.join(parts)}"
