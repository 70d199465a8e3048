"""The packed combinations (``codes``) and the play lists built from them (``plays``) list
exactly what the tuple-built versions did, in the same order.

The search's seeded moves stay the same only if every list keeps its order (a draw indexes
into it), and a playout's random play must be the listed play at the same draw. The
references below are the enumeration and the play lists as first written (commit 70a8988),
tuples and all; the pools are random hands, dummy cards and jokers.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

import pytest

from shared.games.darwinning import plays
from shared.games.darwinning.cards import COLOUR, COLOURS, JOKERS, VALUE
from shared.games.darwinning.combos import (
    FLUSH,
    FOUR,
    PAIR,
    SINGLE,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE,
    Combo,
    enumerate_combos,
)
from shared.games.darwinning.state import DarwinningState
from shared.kernel.rng import randbelow

DRAWS = 2000


def reference_combos(pool: list[int]) -> list[Combo]:
    """``enumerate_combos`` as first written (no jokers: ``_plain_combos``)."""
    cards = sorted(pool)
    if not JOKERS.isdisjoint(cards):
        return reference_joker_combos(cards)
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


def reference_joker_combos(pool: list[int]) -> list[Combo]:
    """``_joker_combos`` as first written: each joker once per colour it may be named."""
    variants = [(c, col) for c in pool
                for col in (range(len(COLOURS)) if c in JOKERS else [COLOUR[c]])]
    by_value: dict[int, list[tuple[int, int]]] = {}
    by_colour: dict[int, list[tuple[int, int]]] = {}
    for item in variants:
        by_value.setdefault(VALUE[item[0]], []).append(item)
        by_colour.setdefault(item[1], []).append(item)
    out: list[Combo] = [((c,), (col,) if c in JOKERS else (), SINGLE, VALUE[c])
                        for c, col in variants]
    for value, group in by_value.items():
        for size, rank in ((2, PAIR), (3, THREE), (4, FOUR)):
            for items in combinations(group, size):
                cards = tuple(c for c, _ in items)
                if len(set(cards)) == size:
                    out.append((cards, tuple(col for c, col in items if c in JOKERS), rank,
                                size * value))
    for low in range(0, 14):
        lows, mids, highs = by_value.get(low), by_value.get(low + 1), by_value.get(low + 2)
        if not lows or not mids or not highs:
            continue
        for a in lows:
            for b in mids:
                for c in highs:
                    ordered = sorted((a, b, c))
                    out.append((tuple(card for card, _ in ordered),
                                tuple(col for card, col in ordered if card in JOKERS),
                                STRAIGHT_FLUSH if a[1] == b[1] == c[1] else STRAIGHT,
                                3 * low + 3))
    for group in by_colour.values():
        for items in combinations(group, 3):
            cards = tuple(c for c, _ in items)
            x, y, z = sorted(VALUE[c] for c in cards)
            if len(set(cards)) < 3 or (x + 1 == y and y + 1 == z) or x == z:
                continue
            out.append((cards, tuple(col for c, col in items if c in JOKERS), FLUSH,
                        x + y + z))
    return out


def reference_plays(st: DarwinningState, seat: int) -> list[dict[str, Any]]:
    """``tricks.play_moves`` as first written."""
    if st.num_players > 2:
        combos = reference_combos(st.hands[seat])
        if st.best >= 0:
            best = st.trick[st.best]
            combos = [c for c in combos if c[2] == SINGLE or c[2] > best["rank"]
                      or (c[2] == best["rank"] and c[3] >= best["sum"])]
        return [{"type": "play", "cards": list(cards), **({"jokers": list(names)}
                                                          if names else {})}
                for cards, names, _, _ in combos]
    moves: list[dict[str, Any]] = []
    dummy = st.dummy_cards
    for cards, names, _, _ in reference_combos(st.hands[seat] + dummy):
        own = [c for c in cards if c not in dummy]
        if not own:
            continue
        if st.edition == "1.7":
            moves.append({"type": "play", "cards": own,
                          "dummy": [c for c in cards if c in dummy],
                          **({"jokers": list(names)} if names else {})})
        elif {"type": "play", "cards": own} not in moves:
            moves.append({"type": "play", "cards": own})
    return moves


def reference_announces(own: list[int], dummy: list[int]) -> list[dict[str, Any]]:
    """``tricks.announce_moves`` as first written."""
    return [{"type": "announce", "dummy": [c for c in cards if c in dummy],
             **({"jokers": list(names)} if names else {})}
            for cards, names, _, _ in reference_combos(own + dummy) if set(own) <= set(cards)]


def random_trick(rng: random.Random) -> tuple[DarwinningState, int]:
    """A trick position: 2-5 seats, a hand of 1-12 cards (jokers as likely as in a deal),
    for two players 0-3 dummy cards, for more sometimes a best play to beat."""
    players = rng.randint(2, 5)
    st = DarwinningState(players, rng.choice(["2.2", "1.7"]))
    cards = rng.sample(range(92), 15)
    size = rng.randint(1, 12)
    st.hands[0] = cards[:size]
    if players == 2:
        st.dummy_cards = cards[size:size + rng.randint(0, 3)]
    elif rng.random() < 0.7:
        st.trick = [{"seat": 1, "cards": [], "dummy": [], "jokers": [],
                     "rank": rng.randint(SINGLE, FOUR), "sum": rng.randint(0, 45)}]
        st.best = 0
    return st, 0


@pytest.mark.rule("D-4.2")
@pytest.mark.rule("D-4.5")
def test_enumeration_is_the_reference_in_order() -> None:
    rng = random.Random(1)
    for _ in range(DRAWS):
        pool = rng.sample(range(92), rng.randint(1, 15))
        assert enumerate_combos(pool) == reference_combos(pool), sorted(pool)


@pytest.mark.rule("D-4.1")
@pytest.mark.rule("D-11.2")
def test_play_lists_and_random_plays_are_the_reference() -> None:
    """The listed plays in order; the random play is the listed play at the same draw and
    leaves the generator where the draw from the list leaves it."""
    rng = random.Random(2)
    for step in range(DRAWS):
        st, seat = random_trick(rng)
        expected = reference_plays(st, seat)
        assert plays.play_moves(st, seat) == expected, st.to_json()
        fast_rng, listed_rng = random.Random(step), random.Random(step)
        assert plays.random_play(st, seat, fast_rng) == expected[
            randbelow(listed_rng, len(expected))], st.to_json()
        assert fast_rng.getstate() == listed_rng.getstate()


@pytest.mark.rule("D-11.2")
def test_announcements_are_the_reference() -> None:
    """v2.2: every completion of the hand cards played by dummy cards, joker names too."""
    rng = random.Random(3)
    for _ in range(DRAWS):
        cards = rng.sample(range(92), 7)
        own, dummy = cards[:rng.randint(1, 4)], cards[4:4 + rng.randint(0, 3)]
        st = DarwinningState(2, "2.2")
        st.dummy_cards = dummy
        st.trick = [{"seat": 0, "cards": own, "dummy": [], "jokers": [], "rank": None,
                     "sum": None}]
        assert plays.announce_moves(st, 0) == reference_announces(own, dummy)
