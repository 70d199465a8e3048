"""What a search may spend on one decision (the kernel's games register cut-offs per budget)."""

from __future__ import annotations

from dataclasses import dataclass

#: The simulation ceiling of a time budget: never reached, the deadline ends the search.
TIMED_SIMULATIONS = 10_000_000


@dataclass(frozen=True)
class SearchBudget:
    """A search level: a number of ISMCTS simulations and a wall-clock cap in seconds.

    The search stops at whichever comes first. Where the simulations end it (fast games, a
    quick machine) a level is the same strength on any machine and a seeded bot replays;
    where the cap ends it (the heavy games) the bot answers in time with what it found. A
    time budget is the other way round: ``TIMED_SIMULATIONS`` (a ceiling never reached) and
    the deadline as its cap, which the search never overruns (it skips an iteration it
    predicts would end too late).

    ``min_simulations`` (0 for every level, custom and time budget) is a floor the cap does
    not cut: the search completes that many simulations whatever the clock says. Only a
    decision whose cap a person's turn budget shrank gets one (``shared.bots.turn_budget``), so a
    bot always answers with a search, however little time is left.
    """

    simulations: int
    time_cap: float  # seconds
    min_simulations: int = 0

    @property
    def timed(self) -> bool:
        """Whether this is a time budget: its deadline, not its simulations, ends the search."""
        return self.simulations >= TIMED_SIMULATIONS

    def __post_init__(self) -> None:
        if self.simulations < 1:
            raise ValueError("simulations must be at least 1")
        if self.time_cap <= 0:
            raise ValueError("time_cap must be positive")
        if not 0 <= self.min_simulations <= self.simulations:
            raise ValueError("min_simulations must be between 0 and simulations")
