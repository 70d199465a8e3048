"""Standings of a tournament from its finished matches (points, wins, places, Buchholz)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def standings(entrants: Sequence[dict[str, Any]], slots: dict[int, dict[str, Any]],
              results: dict[int, dict[str, Any]], byes: dict[str, int],
              bye_points: float) -> list[dict[str, Any]]:
    """One row per entrant, best first: points (a won match is 1, a tie half; a Swiss bye is
    ``bye_points``), then Buchholz (the points of the opponents met, each once per deal),
    then average place.
    """
    count = len(entrants)
    total = [bye_points * byes.get(str(e), 0) for e in range(count)]
    played, wins, place_sum = [0] * count, [0] * count, [0] * count
    for slot, outcome in results.items():
        for seat, entrant in enumerate(slots[slot]["entrants"]):
            total[entrant] += outcome["points"][seat]
            played[entrant] += 1
            wins[entrant] += outcome["places"][seat] == 1
            place_sum[entrant] += outcome["places"][seat]
    met: list[set[tuple[int, int]]] = [set() for _ in range(count)]
    for slot in results:
        plan = slots[slot]
        for entrant in plan["entrants"]:
            met[entrant].update((plan["deal"], other) for other in plan["entrants"]
                                if other != entrant)
    rows = []
    for e, entrant in enumerate(entrants):
        rows.append({"entrant": e, "name": entrant["name"], "player": entrant["player"],
                     "points": round(total[e], 4), "matches": played[e], "wins": wins[e],
                     "byes": byes.get(str(e), 0),
                     "average_place": round(place_sum[e] / played[e], 4) if played[e] else None,
                     "buchholz": round(sum(total[other] for _, other in met[e]), 4)})
    rows.sort(key=lambda r: (-r["points"], -r["buchholz"],
                             r["average_place"] if r["average_place"] is not None else 99,
                             r["entrant"]))
    for rank, row in enumerate(rows, 1):
        row["rank"] = rank
    return rows
