"""Skill ratings with OpenSkill's Plackett-Luce model (2-8 seats, ties allowed).

A player is an account (``account:<id>``) or a built-in bot kind and level (``bot:random``,
``bot:ismcts:easy``, ``bot:ismcts:sims50``), so the bots are fixed reference points on the
ladder. A seat that forfeited ranks last in its match, whatever the engine's ranking says.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from openskill.models import PlackettLuce

from shared.domain.types import SeatKind

MODEL = PlackettLuce()
HISTORY_LENGTH = 500  # rating-history entries kept per player and game (the store's lists)


def player_key(seat: Mapping[str, Any]) -> str | None:
    """The rated identity of a stored seat; None for a person's seat (not rated)."""
    if seat.get("kind") == SeatKind.ACCOUNT:
        return f"account:{seat['account']}"
    if seat.get("kind") != SeatKind.BOT:
        return None
    bot = seat["bot"]
    if bot["kind"] != "ismcts":
        return f"bot:{bot['kind']}"
    if bot.get("level") == "custom":
        return f"bot:ismcts:sims{bot['simulations']}"
    return f"bot:ismcts:{bot['level']}"


def player_name(seat: Mapping[str, Any]) -> str:
    """The leaderboard name: the account's name, or the bot's kind and level."""
    if seat.get("kind") == SeatKind.ACCOUNT:
        return str(seat["name"])
    return str(player_key(seat) or seat.get("name", "")).removeprefix("bot:").replace(":", " ")


def placings(ranking: Sequence[int], forfeited: Sequence[int] = ()) -> list[int]:
    """Places (1 = first, ties share) after moving every forfeited seat to a shared last."""
    keep = [seat for seat in range(len(ranking)) if seat not in forfeited]
    places = [0] * len(ranking)
    for seat in keep:
        places[seat] = 1 + sum(1 for other in keep if ranking[other] < ranking[seat])
    for seat in forfeited:
        places[seat] = len(keep) + 1
    return places


def points(places: Sequence[int], seat: int) -> float:
    """A seat's match points in [0, 1]: share of the other seats it beat, a tie half."""
    mine = places[seat]
    beaten = sum(1 for other, place in enumerate(places) if other != seat and place > mine)
    tied = sum(1 for other, place in enumerate(places) if other != seat and place == mine)
    return (beaten + 0.5 * tied) / max(1, len(places) - 1)


def rate(current: Sequence[dict[str, Any] | None], places: Sequence[int]
         ) -> list[tuple[float, float]]:
    """The seats' new (mu, sigma) after a match with ``places`` (None: a new player)."""
    teams = [[MODEL.rating() if r is None else MODEL.rating(mu=r["mu"], sigma=r["sigma"])]
             for r in current]
    rated = MODEL.rate(teams, ranks=list(places))
    return [(team[0].mu, team[0].sigma) for team in rated]


def conservative(rating: dict[str, Any]) -> float:
    """The leaderboard's ordering value: mu - 3 sigma."""
    return float(rating["mu"] - 3 * rating["sigma"])
