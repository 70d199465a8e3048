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
from collections.abc import Callable
from typing import Final, TypeVar

T = TypeVar("T")

#: ``Random.getrandbits`` as the C base class defines it. Called with the generator as its
#: first argument it skips looking the method up on the instance and binding it, which cost
#: as much as the draw itself; a subclass that overrides it (``MatchRandom`` counts its
#: draws) still gets its own method.
_GETRANDBITS: Final[Callable[[random.Random, int], int]] = random.Random.getrandbits


def _bits_of(rng: random.Random) -> Callable[[random.Random, int], int]:
    """The ``getrandbits`` that ``rng.getrandbits`` calls, unbound."""
    if type(rng) is random.Random:
        return _GETRANDBITS
    return type(rng).getrandbits


def randbelow(rng: random.Random, n: int) -> int:
    """A uniform integer in ``[0, n)`` for ``n > 0``, exactly as ``rng.randrange(n)``."""
    getrandbits = _GETRANDBITS if type(rng) is random.Random else _bits_of(rng)
    k = n.bit_length()
    r = getrandbits(rng, k)
    while r >= n:  # rejection sampling: no modulo bias
        r = getrandbits(rng, k)
    return r


def shuffle(rng: random.Random, items: list[T]) -> None:
    """Shuffle ``items`` in place exactly as ``rng.shuffle(items)`` (Fisher-Yates)."""
    getrandbits = _bits_of(rng)
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(rng, k)
        while j >= n:
            j = getrandbits(rng, k)
        items[i], items[j] = items[j], items[i]
