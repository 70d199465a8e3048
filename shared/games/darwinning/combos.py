"""Trick combinations (docs/rules/darwinning.md D-4.2, D-4.3, D-4.5).

A played combination is its cards (sorted ids) plus one named colour per joker in them, in
card order: a joker is value 0 of the colour its player names (D-4.5). Ranks, weakest first:
single, pair, flush, straight, three of a kind, straight flush, four of a kind; a combination
has exactly its listed number of cards (D-4.2).
"""

from __future__ import annotations

from typing import Final

from .cards import COLOUR, COLOURS, JOKERS, VALUE, card_label
from .codes import (
    FLUSH,
    FOUR,
    PAIR,
    SINGLE,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE,
    code_cards,
    code_names,
    code_rank,
    code_total,
    joker_codes,
    plain_codes,
)

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


def enumerate_combos(pool: list[int]) -> list[Combo]:
    """Every combination (with joker namings) that can be formed from ``pool``, each once.

    Not cached: a playout's hands are new at almost every call (a random deal, then one
    play less), and a cache of them only kept millions of tuples alive for the garbage
    collector to walk (``bench.bench_engine_speed`` measured it a third slower with one).
    """
    key = tuple(sorted(pool))
    return _plain_combos(key) if JOKERS.isdisjoint(key) else _joker_combos(list(key))


def _plain_combos(cards: tuple[int, ...]) -> list[Combo]:
    """``enumerate_combos`` for a pool without jokers (most hands): no namings to try."""
    pool = list(cards)
    return [(tuple(code_cards(pool, code)), (), code_rank(pool, code), code_total(pool, code))
            for code in plain_codes(pool)]


def _joker_combos(pool: list[int]) -> list[Combo]:
    """``enumerate_combos`` for a pool with a joker: each joker once per colour it may be
    named."""
    return [(tuple(code_cards(pool, code)), tuple(code_names(pool, code)),
             code_rank(pool, code), code_total(pool, code)) for code in joker_codes(pool)]


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
