"""``rng.randrange(n)`` and ``rng.shuffle(items)``: the same draws for less work.

Playouts draw a random index millions of times a search, and ``Random.randrange`` spends much
of each draw checking its arguments before it calls ``_randbelow``. This is that
``_randbelow`` (CPython's ``_randbelow_with_getrandbits``, which ``randrange(n)`` uses for
``random.Random``), so seeded matches and searches stay exactly as they were;
``tests/shared/test_rng.py`` checks that both draw the same numbers from the same state
(and ``shuffle`` is ``Random.shuffle`` on top of it).
"""

from __future__ import annotations

import random
from typing import TypeVar

T = TypeVar("T")


def randbelow(rng: random.Random, n: int) -> int:
    """A uniform integer in ``[0, n)`` for ``n > 0``, exactly as ``rng.randrange(n)``."""
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:  # rejection sampling: no modulo bias
        r = getrandbits(k)
    return r


def shuffle(rng: random.Random, items: list[T]) -> None:
    """Shuffle ``items`` in place exactly as ``rng.shuffle(items)`` (Fisher-Yates)."""
    for i in range(len(items) - 1, 0, -1):
        j = randbelow(rng, i + 1)
        items[i], items[j] = items[j], items[i]
