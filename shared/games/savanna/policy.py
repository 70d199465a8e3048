"""Savanna's candidate playout heuristic (not used by the search: see docs/benchmarks.md).

Picking (docs/rules/savanna.md, rule S-2.2): of a few uniformly drawn (card, cell) pairs,
pick the card of the pair whose savanna scores highest with the card there. Placing (rule
S-2.6): of a few uniformly drawn legal cells, place the revealed card where the savanna scores
highest. Scores are the partial grid's (rules S-3.x), gazelle bonus aside. Under the earlier
one-move pick it lost at equal wall time (0.05 s a move, 2 seats, ``bench.strength``): 23 of
60 matches against uniform playouts (Wilson 95% 0.27-0.51), its scoring costing more playouts
than it was worth.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Final

from shared.games.savanna.scoring import score_savanna
from shared.kernel.protocol import Move

if TYPE_CHECKING:
    from shared.games.savanna import SavannaState

SAMPLES: Final = 3  # candidates scored per playout move


def savanna_policy(state: SavannaState, seat: int, rng: random.Random) -> Move:
    """The best-scoring of ``SAMPLES`` uniformly drawn candidates for ``seat``."""
    cells = state.legal_cells(seat)
    grid = state.savannas[seat]
    revealed = state.revealed[seat]
    if revealed is not None:
        best_cell, best_value = cells[0], -1
        for _ in range(SAMPLES):
            cell = cells[rng.randrange(len(cells))]
            value = score_savanna({**grid, cell: revealed}).total
            if value > best_value:
                best_cell, best_value = cell, value
        return {"type": "place", "row": best_cell[0], "col": best_cell[1]}
    hand = state.hands[state.hand_index(seat)]
    best_card, best_value = hand[0], -1
    for _ in range(SAMPLES):
        card = hand[rng.randrange(len(hand))]
        value = score_savanna({**grid, cells[rng.randrange(len(cells))]: card}).total
        if value > best_value:
            best_card, best_value = card, value
    return {"type": "pick", "card": best_card}
