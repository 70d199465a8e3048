"""Search budgets: the named levels and the ceiling of a custom budget.

A level is a number of ISMCTS simulations; its wall-clock cap only guards against a slow
machine or a big match (the simulation count normally ends the search, which keeps a seeded
bot reproducible). Measured on the 2-core bench machine (``python -m bench.bench_search``),
one core: Savanna (uniform playouts) runs about 2,900-3,600 simulations/s with 2 seats,
1,600-2,250 with 4; Evolution (feeding-first playouts) 580-1,070 with 2 or 4 seats and a few
hundred with 6-8. A search also stops as soon as its answer is settled (``_decided``). Hence:

* ``easy``   100 simulations: a tenth of a second in 2-4 seat games, at most ~0.6 s; cap 2 s.
* ``medium`` 1,000: ~0.3-2.3 s a move for 2-4 seats (~5 s for 6-seat Evolution); cap 10 s.
* ``hard``   10,000: ~4-25 s a move for 2-4 seats; the 60 s cap binds only in the biggest
  Evolution matches (6-8 seats), where the bot then plays on a time budget.

``MAX_SIMULATIONS`` (20,000) bounds a custom budget: up to ~50 s a move for 4-seat Evolution.
"""

from __future__ import annotations

# One definition for the API's catalogue and the worker: the API lists the levels without
# importing worker code.
from shared.bot_catalogue import LEVELS, MAX_SIMULATIONS, SearchBudget

__all__ = ["LEVELS", "MAX_SIMULATIONS", "SearchBudget"]
