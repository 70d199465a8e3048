"""Search budgets: the named levels and the ceiling of a custom budget.

A level is a number of ISMCTS simulations; its wall-clock cap only guards against a slow
machine or a big match (the simulation count normally ends the search, which keeps a seeded
bot reproducible). A search also stops as soon as its answer is settled (``_decided``).
The levels were sized from the simulation rates that ``python -m bench.bench_search`` measures
per game and seat count (the README's bench table): a fast card game runs a few thousand
simulations a second on one core, a heavy one with many seats a few hundred. Hence:

* ``easy``   100 simulations: a tenth of a second in 2-4 seat matches, at most ~0.6 s; cap 2 s.
* ``medium`` 1,000: ~0.3-2.3 s a move for 2-4 seats (~5 s for the heaviest 6-seat matches);
  cap 10 s.
* ``hard``   10,000: ~4-25 s a move for 2-4 seats; the 60 s cap binds only in the biggest
  matches (6-8 seats of the heaviest game), where the bot then plays on a time budget.

``MAX_SIMULATIONS`` (20,000) bounds a custom budget: up to ~50 s a move in the heaviest
4-seat matches.
"""

from __future__ import annotations

# One definition for the API's catalogue and the worker: the API lists the levels without
# importing worker code.
from shared.bot_catalogue import LEVELS, MAX_SIMULATIONS, SearchBudget

__all__ = ["LEVELS", "MAX_SIMULATIONS", "SearchBudget"]
