"""What one client's tournaments may cost: how many run at once per client address, and a
bound on a tournament's search (checked at creation, beside the size checks).

A seat's search cost is the simulations one move of its bot may run: a level's or custom
count (``shared.bots.catalogue``), a time budget at the rate a custom budget's cap allows
(``1000 / CUSTOM_CAP_PER_1000`` simulations a second), none for ``random``, ``greedy`` and
accounts (their moves are computed elsewhere). Two bounds:

* in flight — ``concurrency`` matches, each with its ``seats`` costliest entrants, searching
  at once: ``concurrency x (sum of the seats costliest entrants' simulations)``, at most
  ``max_search`` (``MAX_TOURNAMENT_SEARCH``);
* in total — every planned match's seats moving once: ``matches x seats x the entrants' mean
  simulations``, at most ``max_simulations`` (``MAX_TOURNAMENT_SIMULATIONS``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from shared.bots.catalogue import CUSTOM_CAP_PER_1000, budget_of_bot
from shared.domain.errors import Unprocessable
from shared.domain.types import SeatKind
from shared.tournaments import formats


@dataclass(frozen=True)
class TournamentLimits:
    running_per_client: int = 4  # running tournaments per client address (0: no cap)
    max_search: int = 640_000  # simulations in flight (0: no bound)
    max_simulations: int = 100_000_000  # simulations of one move of every seat (0: none)


def seat_cost(entrant: dict[str, Any]) -> int:
    """The simulations one move of this entrant's bot may run (0: not searched here)."""
    if entrant.get("kind") != SeatKind.BOT or entrant["bot"].get("kind") != "ismcts":
        return 0
    bot = entrant["bot"]
    if bot.get("seconds") is not None:
        return int(float(bot["seconds"]) * 1000 / CUSTOM_CAP_PER_1000)
    simulations: int = budget_of_bot(bot).simulations
    return simulations


def planned_matches(spec: dict[str, Any], entrants: int) -> int:
    """How many matches the spec plans (as ``TournamentService._check_size`` counts them)."""
    seats, rounds = int(spec["seats"]), int(spec.get("rounds", 1))
    if spec["format"] == "round_robin":
        return formats.round_robin_size(entrants, rounds)
    if spec["format"] == "swiss":
        return rounds * (entrants // 2) * 2
    return int(spec.get("deals", entrants)) * seats


def check_budget(spec: dict[str, Any], entrants: Sequence[dict[str, Any]],
                 limits: TournamentLimits) -> None:
    """Refuse (422) a tournament whose search would cost more than ``limits`` allow."""
    costs = sorted((seat_cost(e) for e in entrants), reverse=True)
    seats, matches = spec["seats"], planned_matches(spec, len(entrants))
    running = min(spec["concurrency"], matches)
    in_flight = running * sum(costs[:seats])
    if limits.max_search and in_flight > limits.max_search:
        raise Unprocessable(
            f"{running} matches at once with these bots could search {in_flight:,} "
            f"simulations at a time; the limit here is {limits.max_search:,}: lower "
            "'concurrency' or the bots' simulations", field="concurrency")
    total = matches * seats * sum(costs) // max(1, len(costs))
    if limits.max_simulations and total > limits.max_simulations:
        raise Unprocessable(
            f"{matches} matches of {seats} seats with these bots would search {total:,} "
            f"simulations for one move of every seat; the limit here is "
            f"{limits.max_simulations:,}: fewer entrants, rounds or simulations",
            field="entrants")
