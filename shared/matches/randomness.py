"""A match's random source, stored as the number of draws made from its seed.

Python's ``random.Random`` keeps a Mersenne Twister state of 625 words (about 7 KiB as JSON).
A match's source is always ``random.Random(seed)`` with the match's seed, and the seed is
stored anyway, so all the state that matters is how far the stream has run: the count of
32-bit words drawn. :class:`MatchRandom` counts them; restoring it re-seeds and skips that many
words with one ``getrandbits`` call (done in C, microseconds for a whole match). The draws are
exactly those of ``random.Random(seed)``, so every seeded deal and replay stays as it was
(``tests/shared/test_match_random.py`` checks both, for every game).

The counting covers every way an engine draws: CPython's ``Random`` takes two words for
``random()`` and ``ceil(k / 32)`` for ``getrandbits(k)``, and every other method (``shuffle``,
``choice``, ``randrange``, ``sample``, ``uniform``, ``shared.kernel.rng.randbelow``) goes
through one of the two. This module is not compiled (``shared.infra.accel``): engines only
call its methods.
"""

from __future__ import annotations

import json
import random

#: Words skipped per ``getrandbits`` call when restoring (a 256 KiB integer at most).
_SKIP_CHUNK = 1 << 16


class MatchRandom(random.Random):
    """``random.Random(seed)`` that counts the 32-bit words it has drawn (``drawn``)."""

    def __init__(self, seed: int, drawn: int = 0) -> None:
        super().__init__(seed)
        self.drawn = 0
        self._skip(drawn)

    def random(self) -> float:
        value = super().random()
        self.drawn += 2  # CPython builds a float from two 32-bit words
        return value

    def getrandbits(self, k: int) -> int:
        bits = super().getrandbits(k)
        self.drawn += (k + 31) // 32  # one word per 32 bits or part; none for k == 0
        return bits

    def _skip(self, words: int) -> None:
        while words > 0:
            step = min(words, _SKIP_CHUNK)
            super().getrandbits(32 * step)
            self.drawn += step
            words -= step


def dump(rng: random.Random) -> str:
    """The stored form of a match's random source: ``{"drawn": n}`` (a match stored before
    the count existed keeps its full state, since its draws cannot be counted back)."""
    if isinstance(rng, MatchRandom):
        return json.dumps({"drawn": rng.drawn})
    return json.dumps(rng.getstate())


def restore(stored: str, seed: int | None) -> random.Random:
    """The random source of a match with ``seed`` from its stored form (see :func:`dump`)."""
    data = json.loads(stored)
    if isinstance(data, dict):
        if seed is None:
            raise ValueError("a counted random source needs its match's seed")
        return MatchRandom(seed, int(data["drawn"]))
    version, internal, gauss = data
    legacy = random.Random()
    legacy.setstate((version, tuple(internal), gauss))
    return legacy
