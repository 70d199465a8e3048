"""Tournament formats: which entrants meet, in which seats, on which deal (seed).

A *slot* is one planned match: ``{"slot", "round", "deal", "seed", "entrants"}`` where
``entrants[seat]`` is the entrant index sitting there. Every format replays each deal with
the seats permuted, so the luck of the deal cancels out ("duplicate" play):

* round robin (2 seats): every pair meets on each deal twice, seats swapped;
* Swiss (2 seats): each round pairs entrants of similar score who have not met, a bye for
  an odd one out; each pairing is a duplicate pair of matches;
* pods (3-6 seats): each deal seats a group chosen so that every entrant plays as often as
  every other (exactly as often when ``deals * seats`` is a multiple of the entrants, as with
  the default ``deals`` = entrants; else at most one group apart) and meets every other about
  equally often, and is replayed once per seat rotation, so each entrant of the group sits in
  every seat position once.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

Slot = dict[str, Any]
FORMATS = ("round_robin", "swiss", "pods")
# Pods choose among all groups of a deal; beyond this many candidates they sample them.
MAX_POD_CANDIDATES = 5000
POD_ATTEMPTS = 200  # greedy draws tried at most ...
POD_WORK = 100_000  # ... within this many group evaluations (bounds the API request)
MIN_POD_SAMPLE = 50  # groups looked at per deal at least, however long the schedule


def deal_seed(seed: int, deal: int) -> int:
    """The match seed of deal ``deal`` of a tournament seeded ``seed`` (63 bits)."""
    digest = hashlib.sha256(f"evo-tournament:{seed}:{deal}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def _duplicate(slot: int, round_no: int, deal: int, seed: int, group: Sequence[int]
               ) -> list[Slot]:
    """One deal played once per rotation of ``group``'s seats."""
    size = len(group)
    return [{"slot": slot + r, "round": round_no, "deal": deal, "seed": deal_seed(seed, deal),
             "entrants": [group[(i + r) % size] for i in range(size)]} for r in range(size)]


def round_robin(entrants: int, rounds: int, seed: int) -> list[Slot]:
    slots: list[Slot] = []
    deal = 0
    for round_no in range(rounds):
        for pair in itertools.combinations(range(entrants), 2):
            slots += _duplicate(len(slots), round_no, deal, seed, pair)
            deal += 1
    return slots


def round_robin_size(entrants: int, rounds: int) -> int:
    return entrants * (entrants - 1) * rounds


def pods(entrants: int, seats: int, deals: int, seed: int) -> list[Slot]:
    """``deals`` groups of ``seats`` entrants, balanced, each replayed once per rotation.

    Groups are drawn greedily (fewest matches played, then fewest meetings), ties at random;
    the greedy draw is repeated with other tie-breaks within a fixed work budget and the most
    even schedule kept (even appearances first, then even meetings), since one greedy pass
    can paint itself into a corner. A draw by "fewest played" keeps every entrant's groups
    within one of every other's, so the schedule kept always is.
    """
    rng = random.Random(f"pods:{seed}")
    if math.comb(entrants, seats) <= MAX_POD_CANDIDATES:
        groups = list(itertools.combinations(range(entrants), seats))
    else:  # too many to list: a random selection of them
        groups = list({tuple(sorted(rng.sample(range(entrants), seats)))
                       for _ in range(MAX_POD_CANDIDATES)})
        groups.sort()
    attempts = max(1, min(POD_ATTEMPTS, POD_WORK // max(1, deals * len(groups))))
    best: tuple[tuple[int, int], list[tuple[int, ...]]] | None = None
    for attempt in range(attempts):
        drawn = _draw_pods(entrants, groups, deals, rng, pairs_first=attempt % 2 == 1)
        if best is None or drawn[0] < best[0]:
            best = drawn
        if best[0][0] == min(1, (deals * seats) % entrants) and best[0][1] <= 1:
            break
    assert best is not None
    slots: list[Slot] = []
    for deal, group in enumerate(best[1]):
        rotated = list(group)
        rng.shuffle(rotated)
        slots += _duplicate(len(slots), 0, deal, seed, rotated)
    return slots


def _draw_pods(entrants: int, groups: list[tuple[int, ...]], deals: int, rng: random.Random,
               pairs_first: bool) -> tuple[tuple[int, int], list[tuple[int, ...]]]:
    """One greedy draw: its spread (appearances, meetings; max - min) and its groups.

    Half the draws look at meetings alone: designs where every pair meets equally often
    (7 entrants in 3-seat pods) need groups that overlap, which "fewest played" avoids.
    """
    played: Counter[int] = Counter()
    met: Counter[tuple[int, int]] = Counter()
    chosen = []
    for _ in range(deals):
        def cost(group: tuple[int, ...]) -> tuple[int, int, int, float]:
            pairs = [met[p] for p in itertools.combinations(group, 2)]
            # The least played first (their sum: every entrant at the lowest count is taken
            # before any above it), so appearances never spread by more than one.
            most_played = 0 if pairs_first else max(played[e] for e in group)
            least_sum = 0 if pairs_first else sum(played[e] for e in group)
            return (most_played, least_sum, max(pairs), sum(p * p for p in pairs) + rng.random())
        # A long schedule looks at a sample of the groups each deal, within the work budget.
        per_deal = max(MIN_POD_SAMPLE, POD_WORK // max(1, deals))
        candidates = groups if len(groups) <= per_deal else rng.sample(groups, per_deal)
        if not pairs_first:  # a sample may miss them: the least played, ties at random
            least = sorted(range(entrants), key=lambda e: (played[e], rng.random()))
            candidates = [*candidates, tuple(sorted(least[:len(groups[0])]))]
        group = min(candidates, key=cost)
        played.update(group)
        met.update(itertools.combinations(group, 2))
        chosen.append(group)
    meetings = [met[p] for p in itertools.combinations(range(entrants), 2)]
    appearances = [played[e] for e in range(entrants)]
    return (max(appearances) - min(appearances), max(meetings) - min(meetings)), chosen


def swiss_max_rounds(entrants: int) -> int:
    """The most Swiss rounds that can always be paired without a rematch, whatever happened.

    After r rounds each entrant has met at most r others, so among the entrants to pair (all,
    or all but the bye) each may still meet at least m - 1 - r of the m others; while that is
    at least m / 2, Dirac's theorem gives a Hamiltonian cycle of the "not yet met" graph, and
    every other edge of it (m is even) is a pairing. That holds for r < n // 2 rounds played.
    """
    return max(1, entrants // 2)


def swiss_round(round_no: int, entrants: int, scores: Sequence[float],
                met: set[frozenset[int]], byes: Counter[int], first_slot: int, seed: int
                ) -> tuple[list[Slot], int | None]:
    """The slots of Swiss round ``round_no`` and the entrant with a bye (None if even).

    Entrants are ordered by score (ties in a seeded random order) and paired top down with
    the nearest entrant they have not met, backtracking when the rest cannot be paired.
    Raises ValueError if no pairing without a rematch exists.
    """
    rng = random.Random(f"swiss:{seed}:{round_no}")
    order = list(range(entrants))
    rng.shuffle(order)
    order.sort(key=lambda e: -scores[e])
    # With an odd count, the lowest-placed entrant with the fewest byes sits out, or the
    # next one if the others cannot then be paired without a rematch.
    candidates = (sorted(reversed(order), key=lambda e: byes[e]) if entrants % 2
                  else [None])
    for bye in candidates:
        pairs = _pair([e for e in order if e != bye], met)
        if pairs is not None:
            break
    else:
        raise ValueError(f"no Swiss pairing without a rematch exists for round {round_no + 1}")
    slots: list[Slot] = []
    for index, pair in enumerate(pairs):
        deal = round_no * entrants + index
        slots += _duplicate(first_slot + len(slots), round_no, deal, seed, pair)
    return slots, bye


def _pair(order: list[int], met: set[frozenset[int]]) -> list[tuple[int, int]] | None:
    if not order:
        return []
    first, rest = order[0], order[1:]
    for index, other in enumerate(rest):
        if frozenset((first, other)) in met:
            continue
        tail = _pair(rest[:index] + rest[index + 1:], met)
        if tail is not None:
            return [(first, other), *tail]
    return None
