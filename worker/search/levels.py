"""Search budgets: the named levels and the ceiling of a custom budget.

Rates measured by ``bench/bench_search.py`` decide the numbers (see its output / the report):
a level is a simulation count, and the wall-clock cap only guards against a slow machine or
a long game phase; normally the simulation count ends the search, which keeps a seeded bot
reproducible.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SearchBudget:
    """How much one move's search may spend: ``simulations`` iterations, ``time_cap`` s."""

    simulations: int
    time_cap: float  # seconds

    def __post_init__(self) -> None:
        if self.simulations < 1:
            raise ValueError("simulations must be at least 1")
        if self.time_cap <= 0:
            raise ValueError("time_cap must be positive")


LEVELS: dict[str, SearchBudget] = {
    "easy": SearchBudget(simulations=100, time_cap=2.0),
    "medium": SearchBudget(simulations=1_000, time_cap=10.0),
    "hard": SearchBudget(simulations=10_000, time_cap=60.0),
}

MAX_SIMULATIONS = 20_000  # a match's custom budget may ask for at most this many
