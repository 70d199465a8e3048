"""Trick combinations packed in ints (docs/rules/darwinning.md D-4.2, D-4.5): the hot path.

A playout's trick play counts a hand's combinations and builds only the one it draws, so the
combinations are listed as ints rather than tuples (mypyc keeps them unboxed, nothing to
allocate or collect). For a sorted ``pool`` of ``n`` cards a code holds, from bit 0:

* the cards, bit ``i`` set when ``pool[i]`` is in the combination (``n`` bits);
* the rank, 3 bits (``SINGLE`` .. ``FOUR``);
* the sum of values, 6 bits (at most four 15s);
* the colour named for each joker (D-4.5), 2 bits per joker of the pool, in pool order.

``combos.enumerate_combos`` is these codes unpacked; the order of the list is the order in
which the search's seeded draws pick, so it must never change.
"""

from __future__ import annotations

from typing import Final

from .cards import COLOUR, COLOURS, JOKERS, VALUE

SINGLE: Final = 0
PAIR: Final = 1
FLUSH: Final = 2
STRAIGHT: Final = 3
THREE: Final = 4
STRAIGHT_FLUSH: Final = 5
FOUR: Final = 6
RANK_BITS: Final = 3
TOTAL_BITS: Final = 6


def combo_codes(pool: list[int]) -> list[int]:
    """Every combination (with joker namings) of the sorted ``pool``, each once."""
    if JOKERS.isdisjoint(pool):
        return plain_codes(pool)
    return joker_codes(pool)


def code_rank(pool: list[int], code: int) -> int:
    return (code >> len(pool)) & 7


def code_total(pool: list[int], code: int) -> int:
    return (code >> (len(pool) + RANK_BITS)) & 63


def code_cards(pool: list[int], code: int) -> list[int]:
    """The cards of a combination, in pool (sorted) order."""
    return [pool[i] for i in range(len(pool)) if (code >> i) & 1]


def code_names(pool: list[int], code: int) -> list[int]:
    """The colours named for the combination's jokers, in card order (D-4.5)."""
    names: list[int] = []
    at = len(pool) + RANK_BITS + TOTAL_BITS
    for i in range(len(pool)):
        if pool[i] in JOKERS:
            if (code >> i) & 1:
                names.append((code >> at) & 3)
            at += 2
    return names


def plain_codes(pool: list[int]) -> list[int]:
    """``combo_codes`` of a pool without jokers (most hands): no namings to try.

    Singles; per value (in order of appearance) pairs, threes, fours; straights; flushes."""
    n = len(pool)
    rank_at, total_at = n, n + RANK_BITS
    out: list[int] = []
    by_value: dict[int, list[int]] = {}  # pool indices per value, in order of appearance
    by_colour: dict[int, list[int]] = {}
    bits: list[int] = []  # per pool index: its code bit and colour
    colours: list[int] = []
    for i in range(n):
        value = VALUE[pool[i]]
        bits.append(1 << i)
        colours.append(COLOUR[pool[i]])
        out.append((value << total_at) | (1 << i))  # a single (rank 0)
        _group(by_value, value, i)
        _group(by_colour, COLOUR[pool[i]], i)
    for value, group in by_value.items():
        if len(group) >= 2:
            _equal_values(group, pool, bits, value, rank_at, total_at, out)
    for low, group in by_value.items():
        mid, high = by_value.get(low + 1), by_value.get(low + 2)
        if mid is not None and high is not None:
            _straights(group, mid, high, colours, bits, low, rank_at, total_at, out)
    for group in by_colour.values():
        if len(group) >= 3:
            _flushes(group, pool, bits, rank_at, total_at, out)
    return out


def joker_codes(pool: list[int]) -> list[int]:
    """``combo_codes`` of a pool with a joker: each joker once per colour it may be named
    (D-4.5), as a "variant" of its own. Singles; per value pairs, threes, fours of distinct
    cards; straights from value 0 up; flushes per colour in order of appearance."""
    n = len(pool)
    rank_at, total_at = n, n + RANK_BITS
    names_at = total_at + TOTAL_BITS
    cards: list[int] = []  # per variant: its card (a pool index), colour and code bits
    colours: list[int] = []
    bits: list[int] = []
    jokers_seen = 0
    for i in range(n):
        if pool[i] in JOKERS:
            for colour in range(len(COLOURS)):
                cards.append(i)
                colours.append(colour)
                bits.append((1 << i) | (colour << (names_at + 2 * jokers_seen)))
            jokers_seen += 1
        else:
            cards.append(i)
            colours.append(COLOUR[pool[i]])
            bits.append(1 << i)
    by_value: dict[int, list[int]] = {}  # variant indices
    by_colour: dict[int, list[int]] = {}
    out: list[int] = []
    for v in range(len(cards)):
        value = VALUE[pool[cards[v]]]
        out.append((value << total_at) | bits[v])
        _group(by_value, value, v)
        _group(by_colour, colours[v], v)
    for value, group in by_value.items():
        if len(group) >= 2:
            _equal_values(group, cards, bits, value, rank_at, total_at, out)
    for low in range(0, 14):
        lows, mids, highs = by_value.get(low), by_value.get(low + 1), by_value.get(low + 2)
        if lows is not None and mids is not None and highs is not None:
            _straights(lows, mids, highs, colours, bits, low, rank_at, total_at, out)
    variant_pool = [pool[c] for c in cards]
    for group in by_colour.values():
        # A colour holds each card once (a joker has one variant per colour).
        if len(group) >= 3:
            _flushes(group, variant_pool, bits, rank_at, total_at, out)
    return out


def _group(groups: dict[int, list[int]], key: int, item: int) -> None:
    group = groups.get(key)
    if group is None:
        groups[key] = [item]
    else:
        group.append(item)


def _equal_values(group: list[int], cards: list[int], bits: list[int], value: int,
                  rank_at: int, total_at: int, out: list[int]) -> None:
    """Pairs, then threes, then fours of one value, in ``itertools.combinations`` order,
    of distinct cards (``cards[v]``: the card of item ``v``; a group lists an item's
    variants side by side, so distinct neighbours mean distinct cards)."""
    size = len(group)
    code = ((2 * value) << total_at) | (PAIR << rank_at)
    for a in range(size):
        for b in range(a + 1, size):
            if cards[group[a]] != cards[group[b]]:
                out.append(code | bits[group[a]] | bits[group[b]])
    code = ((3 * value) << total_at) | (THREE << rank_at)
    for a in range(size):
        for b in range(a + 1, size):
            if cards[group[a]] == cards[group[b]]:
                continue
            for c in range(b + 1, size):
                if cards[group[b]] != cards[group[c]]:
                    out.append(code | bits[group[a]] | bits[group[b]] | bits[group[c]])
    code = ((4 * value) << total_at) | (FOUR << rank_at)
    for a in range(size):
        for b in range(a + 1, size):
            if cards[group[a]] == cards[group[b]]:
                continue
            for c in range(b + 1, size):
                if cards[group[b]] == cards[group[c]]:
                    continue
                for d in range(c + 1, size):
                    if cards[group[c]] != cards[group[d]]:
                        out.append(code | bits[group[a]] | bits[group[b]] | bits[group[c]]
                                   | bits[group[d]])


def _straights(lows: list[int], mids: list[int], highs: list[int], colours: list[int],
               bits: list[int], low: int, rank_at: int, total_at: int,
               out: list[int]) -> None:
    """Three consecutive values; a straight flush when one colour (``colours``: per item
    the colour of its card, or for a variant the colour it names)."""
    total = (3 * low + 3) << total_at
    plain = total | (STRAIGHT << rank_at)
    flush = total | (STRAIGHT_FLUSH << rank_at)
    for a in lows:
        colour = colours[a]
        for b in mids:
            for c in highs:
                same = colour == colours[b] and colour == colours[c]
                out.append((flush if same else plain) | bits[a] | bits[b] | bits[c])


def _flushes(group: list[int], cards: list[int], bits: list[int], rank_at: int,
             total_at: int, out: list[int]) -> None:
    """Three cards of one colour that are neither a straight flush (listed with the
    straights) nor three equal values (two copies per colour cannot make three)."""
    size = len(group)
    flush = FLUSH << rank_at
    for a in range(size):
        x0 = VALUE[cards[group[a]]]
        for b in range(a + 1, size):
            y0 = VALUE[cards[group[b]]]
            for c in range(b + 1, size):
                x, y, z = _sorted3(x0, y0, VALUE[cards[group[c]]])
                if (x + 1 == y and y + 1 == z) or x == z:
                    continue
                out.append(((x + y + z) << total_at) | flush | bits[group[a]]
                           | bits[group[b]] | bits[group[c]])


def _sorted3(x: int, y: int, z: int) -> tuple[int, int, int]:
    if x > y:
        x, y = y, x
    if y > z:
        y, z = z, y
        if x > y:
            x, y = y, x
    return x, y, z
