"""``shared.kernel.rng.randbelow`` draws exactly what ``Random.randrange`` draws (replays)."""

from __future__ import annotations

import random

from shared.kernel.rng import randbelow, shuffle


def test_randbelow_draws_the_same_numbers_as_randrange() -> None:
    ours, theirs = random.Random(7), random.Random(7)
    bounds = [1, 2, 3, 5, 6, 7, 8, 13, 64, 100, 1000, 2**31 + 11, 2**70 + 3]
    for i in range(20_000):
        n = bounds[i % len(bounds)] + i % 3
        assert randbelow(ours, n) == theirs.randrange(n)
    assert ours.getstate() == theirs.getstate()  # the streams stay in step afterwards too


def test_shuffle_permutes_exactly_as_random_shuffle() -> None:
    for seed in range(200):
        ours, theirs = random.Random(seed), random.Random(seed)
        items = list(range(seed % 90))
        mine, reference = list(items), list(items)
        shuffle(ours, mine)
        theirs.shuffle(reference)
        assert mine == reference
        assert ours.getstate() == theirs.getstate()


class CountingRandom(random.Random):
    """A generator that overrides ``getrandbits``, as ``shared.matches.randomness.MatchRandom``
    does: the fast draws must call the override, not the C method beneath it."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.calls = 0

    def getrandbits(self, k: int) -> int:
        self.calls += 1
        return super().getrandbits(k)


def test_an_overridden_getrandbits_is_the_one_called() -> None:
    ours, theirs = CountingRandom(3), CountingRandom(3)
    for n in range(1, 300):
        assert randbelow(ours, n) == theirs.randrange(n)
    mine, reference = list(range(50)), list(range(50))
    shuffle(ours, mine)
    theirs.shuffle(reference)
    assert mine == reference
    assert ours.calls == theirs.calls > 0
