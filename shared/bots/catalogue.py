"""The built-in bot kinds and search levels (listed by the API, run by the worker).

A search level is a number of ISMCTS simulations and a wall-clock cap, whichever ends the search
first; a search also stops as soon as its answer is settled (``_decided``). Both rise with
the level, so ``hard`` never searches less than ``medium`` in the same position:

* ``easy``   100 simulations or 0.5 s;
* ``medium`` 1,000 simulations or 1.5 s;
* ``hard``   10,000 simulations or 2.5 s.

The caps are sized from the compiled build's simulation rates on 2 seats (``python -m
bench.accel bench.bench_search``, docs/benchmarks.md's bench and level tables): the fastest game
runs thousands of simulations a second, so its levels are mostly their simulation counts
(``hard``'s cap can end its slower positions); the heavier ones run a few hundred to a few
thousand, so there the cap ends ``hard``'s search (and ``medium``'s, even ``easy``'s, in the
heaviest) and ``hard`` answers within 2.5 s (plus the sampler's set-up: issue #19's target
is 3 s at p95, measured by ``bench/bench_bot_wait.py``). The strength bench
(``bench/strength.py``) plays a level as its simulation count with no cap, so its table is
the same on any machine: it measures what a level does where the simulations end the search.

Where a person waits for several decisions in a row, they share a turn budget that can
shorten a decision's cap, never lengthen it (``shared.bots.turn_budget``; issue #19's 6 s
target for a person's wait).

``MAX_SIMULATIONS`` (20,000) bounds a custom budget, whose cap grows with its simulations
(``CUSTOM_CAP_PER_1000``): a custom budget is for people who choose to wait.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shared.kernel.budget import TIMED_SIMULATIONS, SearchBudget

# Measured rates behind these numbers: the module docstring and docs/benchmarks.md. Both the
# simulations and the caps rise with the level, so a higher level never searches less than a
# lower one; ``hard``'s cap keeps its answer under 3 s (issue #19's target) in every game.
LEVELS: dict[str, SearchBudget] = {
    "easy": SearchBudget(simulations=100, time_cap=0.5),
    "medium": SearchBudget(simulations=1_000, time_cap=1.5),
    "hard": SearchBudget(simulations=10_000, time_cap=2.5),
}
#: The answer time every level must keep at p95 on the compiled build (``hard``'s cap plus
#: room for the sampler's set-up and one iteration); ``bench/bench_bot_wait.py`` checks it.
DECISION_TARGET_SECONDS = 3.0
#: A person's wait for their turn to come back, at p95, every game and level (issue #19): the
#: bot decisions in between share a turn budget (``shared.bots.turn_budget``) to keep it.
WAIT_TARGET_SECONDS = 6.0
MAX_SIMULATIONS = 20_000
# A time budget ({"seconds": s}, for tournaments with move deadlines): the search answers
# within s seconds with the best move found so far. Its simulation count is only a ceiling.
MIN_SECONDS = 0.1
MAX_SECONDS = 60.0
# Seconds per 1,000 simulations allowed to a custom budget before its cap stops it.
CUSTOM_CAP_PER_1000 = 6.0
# The longest any search may run: the worker's task time limit is set just above it.
LONGEST_CAP = max(max(b.time_cap for b in LEVELS.values()),
                  MAX_SIMULATIONS / 1000 * CUSTOM_CAP_PER_1000, MAX_SECONDS)

# Hints for people (GET /v1/matches/{id}/hint): a `medium`-sized search with a short cap, one
# hint search per seat per HINT_INTERVAL seconds, the API waiting HINT_WAIT seconds for its
# answer (HINT_WAIT_SECONDS) and telling a person who got none to ask again HINT_RETRY seconds
# later. A hint task that has not started HINT_QUEUED seconds after it was sent expires; while
# one is asked for (at most HINT_ASKED seconds: queued, searching, and the task's time limit)
# asking again waits for it rather than searching again, and its answer is kept HINT_KEEP
# seconds, so asking again at the same version costs nothing.
HINT_BUDGET = SearchBudget(simulations=1_000, time_cap=3.0)
HINT_INTERVAL = 10.0
HINT_WAIT = 8.0
HINT_RETRY = 2
HINT_QUEUED = 30.0
HINT_TIME_LIMIT = HINT_BUDGET.time_cap + 15
HINT_ASKED = HINT_QUEUED + HINT_TIME_LIMIT + 5
HINT_KEEP = 600.0

BOT_KINDS: dict[str, dict[str, object]] = {
    "random": {"description": "Plays a uniformly random legal move.", "levels": []},
    "greedy": {"description": "One ply: the move with the best immediate gain by a simple "
                              "per-game evaluation.", "levels": []},
    "ismcts": {"description": "Information-set Monte Carlo tree search from its seat's view: "
                              "a level, a custom number of simulations, or a time budget in "
                              "seconds (it answers within it with the best move found).",
               "levels": list(LEVELS)},
}


def budget_for(level: str | None, simulations: int | None,
               seconds: float | None = None) -> SearchBudget:
    """The budget of a level, a custom one (``simulations`` within ``MAX_SIMULATIONS``) or a
    time budget (``seconds`` within ``MIN_SECONDS``-``MAX_SECONDS``): give at most one."""
    if sum(x is not None for x in (level, simulations, seconds)) > 1:
        raise ValueError("give one of 'level', 'simulations' or 'seconds'")
    if seconds is not None:
        if isinstance(seconds, bool) or not MIN_SECONDS <= seconds <= MAX_SECONDS:
            raise ValueError(f"seconds must be between {MIN_SECONDS} and {MAX_SECONDS}")
        return SearchBudget(TIMED_SIMULATIONS, float(seconds))
    if simulations is not None:
        if not 1 <= simulations <= MAX_SIMULATIONS:
            raise ValueError(f"simulations must be between 1 and {MAX_SIMULATIONS}")
        return SearchBudget(simulations, max(2.0, simulations / 1000 * CUSTOM_CAP_PER_1000))
    return LEVELS[level or "medium"]


def budget_of_bot(bot: Mapping[str, Any]) -> SearchBudget:
    """The search budget of a stored bot seat (``level``, custom ``simulations`` or
    ``seconds``)."""
    if bot.get("seconds") is not None:
        return budget_for(None, None, float(bot["seconds"]))
    simulations = bot.get("simulations")
    level = bot.get("level")
    return budget_for(None if level == "custom" else str(level) if level else None,
                      int(simulations) if simulations is not None else None)


def catalogue() -> list[dict[str, object]]:
    out = []
    for kind, info in BOT_KINDS.items():
        entry = {"kind": kind, **info}
        if kind == "ismcts":
            entry["levels"] = [{"name": name, "simulations": b.simulations,
                                "time_cap_seconds": b.time_cap} for name, b in LEVELS.items()]
            entry["max_simulations"] = MAX_SIMULATIONS
            entry["seconds"] = {"minimum": MIN_SECONDS, "maximum": MAX_SECONDS}
        out.append(entry)
    return out
