"""A person's turn budget: the bot decisions between two of their turns share one time budget.

A level caps each decision (``shared.bots.catalogue.LEVELS``), but a person may wait for
several in a row before they owe a move again: a bot that plays its cards one at a time,
several bots acting in turn, steps where every bot decides. In a match where a person or a
program plays a seat (not a tournament, not rated: there a bot's strength must not depend on
who else sits at the table), the match records since when only seats the server plays owe
moves (``MatchRecord.bots_since``, written in the same commit as the move that handed the
turn over, so it survives worker restarts and every worker reads the same). Every search
decision of a named level made since then gets:

    cap = max(FLOOR_SECONDS, min(level cap, SHARE * (budget - elapsed)))

``elapsed`` is the wall time since ``bots_since``, so the queue, the other decisions and
their commits are all paid for out of the budget. How many decisions a chain holds is not
known to a worker that never names a game, so each takes at most ``SHARE`` (half) of what is
left: with no floor the caps of an endless chain sum to the budget (a geometric series),
and with the default 5 s, twice ``hard``'s 2.5 s cap, a chain's first decision (often the
only one) keeps its level's full cap. Later ones get less; past the budget each gets the
floor, so a person's wait is the budget plus one floor per decision beyond it.

The floor: ``FLOOR_SECONDS`` (0.05 s) and, whatever the clock says, ``FLOOR_SIMULATIONS``
(16, fewer if the level has fewer) completed simulations (``SearchBudget.min_simulations``).
The simulations are what keep a late decision a search: a search cut at 0 simulations plays
its first legal move, and a loaded machine can pause a worker longer than any time floor.
16 simulations give each move of a position with up to 8 moves two playouts, and in a
larger one still weigh 16 of its moves by a playout each instead of drawing one. The
time floor lets the fast games do more in the same blink (tens to hundreds of simulations
in 0.05 s on the compiled build: docs/benchmarks.md's sims/s tables), while the heavy ones reach
their 16 simulations in about 0.05-0.15 s. It is small because chains can be long: a person
who passes while three bots play out a phase faces 10-15 decisions in a row (docs/benchmarks.md's
bot-wait bench), and each one past the budget costs its floor plus the queue's few
milliseconds, so they add about a second, not several.

Custom budgets (``simulations``) and time budgets (``seconds``) are a person's explicit
choice to wait and are left whole, as are all-bot matches, tournaments and rated matches:
the strength bench (``bench/strength.py``) plays levels as simulation counts and never
meets this.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from shared.bots.catalogue import LEVELS, budget_of_bot
from shared.kernel.budget import SearchBudget

FLOOR_SECONDS = 0.05
FLOOR_SIMULATIONS = 16
SHARE = 0.5  # the most of what is left one decision may take


@dataclass(frozen=True)
class TurnBudget:
    """The seconds the bot decisions of one person's turn share (0: no turn budget)."""

    seconds: float
    floor_seconds: float = FLOOR_SECONDS
    floor_simulations: int = FLOOR_SIMULATIONS
    share: float = SHARE

    def decision(self, level: SearchBudget, bots_since: float | None,
                 now: float) -> SearchBudget:
        """The budget of one decision of ``level`` begun at ``now`` (epoch seconds), the turn
        having left the last person at ``bots_since`` (None: no person is waiting)."""
        if bots_since is None or self.seconds <= 0:
            return level
        left = self.seconds - max(0.0, now - bots_since)
        cap = max(self.floor_seconds, min(level.time_cap, self.share * left))
        if cap >= level.time_cap:
            return level
        return SearchBudget(level.simulations, cap,
                            min_simulations=min(level.simulations, self.floor_simulations))


def bot_budget(bot: Mapping[str, Any], bots_since: float | None, turn: TurnBudget | None,
               now: float) -> SearchBudget:
    """The search budget of the stored bot seat ``bot`` for a decision begun at ``now``: its
    level's, shrunk by ``turn`` when it is a named level and a person is waiting."""
    level = budget_of_bot(bot)
    named = (bot.get("simulations") is None and bot.get("seconds") is None
             and bot.get("level", "medium") in LEVELS)
    return turn.decision(level, bots_since, now) if named and turn is not None else level
