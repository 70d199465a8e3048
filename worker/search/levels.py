"""Search budgets: the named levels and the ceiling of a custom budget.

A level is a number of ISMCTS simulations and a wall-clock cap, whichever ends the search
first; a search also stops as soon as its answer is settled (``_decided``). Both rise with
the level, so ``hard`` never searches less than ``medium`` in the same position:

* ``easy``   100 simulations or 0.5 s;
* ``medium`` 1,000 simulations or 1.5 s;
* ``hard``   10,000 simulations or 2.5 s.

The caps are sized from the compiled build's simulation rates on 2 seats (``python -m
bench.accel bench.bench_search``, the README's bench and level tables): the fastest game
runs thousands of simulations a second, so its levels are mostly their simulation counts
(``hard``'s cap can end its slower positions); the heavier ones run a few hundred to a few
thousand, so there the cap ends ``hard``'s search (and ``medium``'s, even ``easy``'s, in the
heaviest) and ``hard`` answers within 2.5 s
(plus the sampler's set-up: issue #19's target is 3 s at p95, measured by
``bench/bench_bot_wait.py``). The strength bench (``bench/strength.py``) plays a level as its
simulation count with no cap, so its table is the same on any machine: it measures what a
level does where the simulations end the search.

Where a person waits for several decisions in a row, they share a turn budget that can
shorten a decision's cap, never lengthen it (``worker.turn_budget``; issue #19's 6 s target
for a person's wait).

``MAX_SIMULATIONS`` (20,000) bounds a custom budget, whose cap grows with its simulations
(``CUSTOM_CAP_PER_1000``): a custom budget is for people who choose to wait.
"""

from __future__ import annotations

# One definition for the API's catalogue and the worker: the API lists the levels without
# importing worker code.
from shared.bot_catalogue import LEVELS, MAX_SIMULATIONS, SearchBudget

__all__ = ["LEVELS", "MAX_SIMULATIONS", "SearchBudget"]
