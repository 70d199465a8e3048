"""Standings of a tournament from its finished matches (docs/tournaments.md, "Standings").

Score: points (a match gives each seat its share of the other seats it beat, a tie half; a
forfeited seat beats nobody and scores 0; a Swiss bye scores ``bye_points``), or for pods,
whose deal count may seat some entrant in one group more, points per match played. Ties on
the score are broken by head-to-head (the points the tied entrants took from one another),
then Sonneborn-Berger (each result against an opponent weighted by that opponent's score),
as FIDE and Lichess order them; entrants still equal share their rank. Buchholz, wins and
the average place are shown, not used to rank.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any


def versus(places: Sequence[int], forfeited: Sequence[int], seat: int, other: int) -> float:
    """What ``seat`` took from ``other`` in one match: 1 for placing ahead, 0.5 for a tie,
    0 behind; a seat that forfeited takes nothing, and from a forfeited seat all."""
    if seat in forfeited:
        return 0.0
    if other in forfeited:
        return 1.0
    return 1.0 if places[seat] < places[other] else 0.5 if places[seat] == places[other] else 0.0


def match_points(places: Sequence[int], forfeited: Sequence[int] = ()) -> list[float]:
    """Each seat's match points in [0, 1]: its mean result against every other seat."""
    count = len(places)
    return [round(sum(versus(places, forfeited, seat, other)
                      for other in range(count) if other != seat) / max(1, count - 1), 4)
            for seat in range(count)]


class _Tally:
    """What the finished matches gave each entrant (``count`` entrants)."""

    def __init__(self, count: int, slots: dict[int, dict[str, Any]],
                 results: dict[int, dict[str, Any]]) -> None:
        self.points, self.played = [0.0] * count, [0] * count
        self.wins, self.place_sum = [0] * count, [0] * count
        self.took: list[Counter[int]] = [Counter() for _ in range(count)]  # e -> other -> taken
        self.met: list[set[tuple[int, int]]] = [set() for _ in range(count)]  # (deal, other)
        for slot, outcome in results.items():
            self.add(slots[slot], outcome)

    def add(self, plan: dict[str, Any], outcome: dict[str, Any]) -> None:
        seated, places = plan["entrants"], outcome["places"]
        forfeited = outcome.get("forfeited") or []
        points = match_points(places, forfeited)
        for seat, entrant in enumerate(seated):
            self.points[entrant] += points[seat]
            self.played[entrant] += 1
            self.wins[entrant] += places[seat] == 1 and seat not in forfeited
            self.place_sum[entrant] += places[seat]
            for other_seat, other in enumerate(seated):
                if other_seat != seat:
                    self.took[entrant][other] += versus(places, forfeited, seat, other_seat)
                    self.met[entrant].add((plan["deal"], other))


def standings(entrants: Sequence[dict[str, Any]], slots: dict[int, dict[str, Any]],
              results: dict[int, dict[str, Any]], byes: dict[str, int],
              bye_points: float, by_average: bool = False) -> list[dict[str, Any]]:
    """One row per entrant, best first, with its ``rank`` (equal for a true tie) and the
    values that ranked it: ``points`` (or ``average_points`` when ``by_average``),
    ``head_to_head`` (null when no other entrant has its score), ``sonneborn_berger``."""
    count = len(entrants)
    tally = _Tally(count, slots, results)
    played = tally.played
    total = [tally.points[e] + bye_points * byes.get(str(e), 0) for e in range(count)]
    average = [tally.points[e] / played[e] if played[e] else 0.0 for e in range(count)]
    score = [round(average[e] if by_average else total[e], 4) for e in range(count)]
    tied: dict[float, list[int]] = {}
    for e in range(count):
        tied.setdefault(score[e], []).append(e)
    rows = []
    for e, entrant in enumerate(entrants):
        group = tied[score[e]]
        rows.append({
            "entrant": e, "name": entrant["name"], "player": entrant["player"],
            "points": round(total[e], 4), "matches": played[e],
            "average_points": round(average[e], 4) if played[e] else None,
            "wins": tally.wins[e], "byes": byes.get(str(e), 0),
            "average_place": round(tally.place_sum[e] / played[e], 4) if played[e] else None,
            "buchholz": round(sum(total[other] for _, other in tally.met[e]), 4),
            "head_to_head": round(sum(tally.took[e][o] for o in group if o != e), 4)
            if len(group) > 1 else None,
            "sonneborn_berger": round(sum(n * score[o] for o, n in tally.took[e].items()), 4),
            "score": score[e]})
    return _ranked(rows)


def _ranked(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``rows`` best first with their ``rank`` (competition ranking: 1, 1, 3)."""
    def key(row: dict[str, Any]) -> tuple[float, float, float]:
        return (-row["score"], -(row["head_to_head"] or 0.0), -row["sonneborn_berger"])

    rows.sort(key=lambda r: (key(r), r["entrant"]))  # the index only lists equals in order
    for place, row in enumerate(rows):
        same = place > 0 and key(rows[place - 1]) == key(row)
        row["rank"] = rows[place - 1]["rank"] if same else place + 1
    for row in rows:
        del row["score"]
    return rows
