"""The bit-packed combinations (``combos.plain_codes``) list exactly what the tuples did.

The playouts' trick plays (``tricks.random_play``, ``play_moves``, ``announce_moves``) use
``plain_codes`` for pools without a joker; the search's seeded moves stay the same only if
they list the same combinations in the same order as before. The references below are the
enumeration and the two-player lists as first written (commit 70a8988), tuples and all.
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from shared.games.darwinning import tricks
from shared.games.darwinning.cards import COLOUR, VALUE
from shared.games.darwinning.combos import (
    FLUSH,
    FOUR,
    PAIR,
    SINGLE,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE,
    Combo,
    _plain_combos,
    code_cards,
    enumerate_combos,
    plain_codes,
)

DRAWS = 3000


def reference_plain_combos(cards: tuple[int, ...]) -> list[Combo]:
    """``_plain_combos`` as first written: tuples straight from ``combinations``."""
    out: list[Combo] = [((c,), (), SINGLE, VALUE[c]) for c in cards]
    by_value: dict[int, list[int]] = {}
    by_colour: dict[int, list[int]] = {}
    for c in cards:
        by_value.setdefault(VALUE[c], []).append(c)
        by_colour.setdefault(COLOUR[c], []).append(c)
    for value, group in by_value.items():
        for size, rank in ((2, PAIR), (3, THREE), (4, FOUR)):
            out.extend((combo, (), rank, size * value) for combo in combinations(group, size))
    for low, group in by_value.items():
        mid, high = by_value.get(low + 1), by_value.get(low + 2)
        if not mid or not high:
            continue
        for a in group:
            for b in mid:
                for c in high:
                    same = COLOUR[a] == COLOUR[b] == COLOUR[c]
                    out.append((tuple(sorted((a, b, c))), (), STRAIGHT_FLUSH if same
                                else STRAIGHT, 3 * low + 3))
    for group in by_colour.values():
        for trio in combinations(group, 3):
            x, y, z = sorted(VALUE[c] for c in trio)
            if (x + 1 == y and y + 1 == z) or x == z:
                continue
            out.append((trio, (), FLUSH, x + y + z))
    return out


def random_pools(seed: int) -> list[tuple[list[int], list[int]]]:
    """Joker-free (hand, dummy cards) pairs: 1-12 hand cards and 0-3 dummy cards."""
    rng = random.Random(seed)
    pools = []
    for _ in range(DRAWS):
        cards = rng.sample(range(90), rng.randint(1, 12) + rng.randint(0, 3))
        cut = rng.randint(max(1, len(cards) - 3), len(cards))
        pools.append((cards[:cut], cards[cut:]))
    return pools


@pytest.mark.rule("D-4.2")
def test_plain_codes_list_the_reference_combinations_in_order() -> None:
    for hand, dummy in random_pools(1):
        pool = sorted(hand + dummy)
        expected = reference_plain_combos(tuple(pool))
        assert _plain_combos(tuple(pool)) == expected, pool
        assert [code_cards(pool, code) for code in plain_codes(pool)] == [
            cards for cards, *_ in expected]


@pytest.mark.rule("D-11.2")
def test_two_player_hand_parts_are_the_reference_plays_in_order() -> None:
    """v2.2: the distinct hand parts of the pool's combinations, first seen first."""
    for hand, dummy in random_pools(2):
        expected: list[list[int]] = []
        for cards, *_ in reference_plain_combos(tuple(sorted(hand + dummy))):
            own = [c for c in cards if c not in dummy]
            if own and own not in expected:
                expected.append(own)
        pool = sorted(hand + dummy)
        assert [tricks._cards_of(pool, own) for own in tricks._hand_parts(pool, dummy)] \
            == expected
        assert [list(own) for own, _, _ in tricks._two_player_plays(hand, dummy, "2.2")] \
            == expected


@pytest.mark.rule("D-11.2")
def test_announcements_are_the_reference_completions_in_order() -> None:
    """v2.2: every combination holding all the hand cards played; the rest is the dummy's."""
    for hand, dummy in random_pools(3):
        own = hand[:random.Random(len(hand)).randint(1, min(4, len(hand)))]
        pool = sorted(own + dummy)
        expected = [[c for c in cards if c in dummy]
                    for cards, *_ in enumerate_combos(pool) if set(own) <= set(cards)]
        assert [m["dummy"] for m in tricks._plain_announces(pool, own)] == expected
