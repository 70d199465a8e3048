"""Fair standings (issue 39): forfeits score nothing, a match every seat forfeited rates nobody,
pods play equal counts and rank by points per match, ties fall to head-to-head, then
Sonneborn-Berger, then share their rank (never to entry order)."""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

import pytest

from shared.domain.types import MatchStatus
from shared.infra.redis_client import RedisClient
from shared.matches.store import MatchStore
from shared.ratings.store import RatingStore
from shared.services import match_service
from shared.tournaments import formats
from shared.tournaments.service import TournamentService, _outcome
from shared.tournaments.standings import standings
from shared.tournaments.store import TournamentStore
from tests.shared.test_service import Recorder

BOTS = [{"kind": "bot", "bot": {"kind": "random"}}, {"kind": "bot", "bot": {"kind": "greedy"}}]


def entrants(*names: str) -> list[dict[str, Any]]:
    return [{"name": n, "player": f"bot:{n}"} for n in names]


def duplicate(games: list[tuple[int, int, list[float]]]
              ) -> tuple[dict[int, dict[str, Any]], dict[int, dict[str, Any]]]:
    """Slots and results of 2-seat duplicate pairs: (a, b, a's points in each of the two
    matches, 1 a win, 0.5 a tie, 0 a loss)."""
    slots: dict[int, dict[str, Any]] = {}
    results: dict[int, dict[str, Any]] = {}
    for deal, (a, b, scores) in enumerate(games):
        for turn, score in enumerate(scores):
            slot = len(slots)
            seated = [a, b] if turn == 0 else [b, a]
            mine = {1.0: 1, 0.5: 1, 0.0: 2}[score]
            theirs = {1.0: 2, 0.5: 1, 0.0: 1}[score]
            places = [mine, theirs] if turn == 0 else [theirs, mine]
            points = [score, 1 - score] if turn == 0 else [1 - score, score]
            slots[slot] = {"entrants": seated, "deal": deal}
            results[slot] = {"places": places, "points": points, "forfeited": []}
    return slots, results


def test_a_match_every_seat_forfeited_scores_nobody_and_rates_nobody(
        store_client: RedisClient) -> None:
    """Before: every seat tied for first (0.5 points each in 2 seats, a win each)."""
    outcome = _outcome("m", {"ranking": [1, 1], "scores": [0, 0]}, [0, 1], time.time())
    assert outcome["points"] == [0.0, 0.0] and outcome["places"] == [2, 2]
    four = _outcome("m", {"ranking": [1, 2, 3, 4], "scores": [9, 5, 3, 1]}, [0, 1, 2, 3], 0.0)
    assert four["points"] == [0.0] * 4 and four["places"] == [4] * 4
    # One forfeit is a loss: the forfeited seat scores 0 even beside another forfeit.
    some = _outcome("m", {"ranking": [1, 2, 3], "scores": [3, 2, 1]}, [0, 2], 0.0)
    assert some["places"] == [2, 1, 2] and some["points"] == [0.0, 1.0, 0.0]
    # In the standings, bots that never moved sit below one that lost every real match.
    table = entrants("x", "y", "random", "greedy")
    slots = {0: {"entrants": [0, 1], "deal": 0}, 1: {"entrants": [2, 3], "deal": 1}}
    results = {0: outcome, 1: {"places": [2, 1], "points": [0.0, 1.0], "forfeited": []}}
    rows = standings(table, slots, results, {}, 2.0)
    assert [(r["name"], r["rank"]) for r in rows] == [
        ("greedy", 1), ("x", 2), ("y", 2), ("random", 2)]
    assert all(r["wins"] == 0 for r in rows if r["name"] in ("x", "y"))
    # And the match moves no rating.
    matches = match_service(MatchStore(store_client), Recorder())
    tournaments = TournamentService(matches, TournamentStore(store_client),
                                    RatingStore(store_client))
    record, _ = matches.create_match("savanna", {}, 1, BOTS, rated=True)
    record.status = MatchStatus.FINISHED
    record.result = {"ranking": [1, 1], "scores": [0, 0]}
    record.forfeited = [0, 1]
    assert tournaments.rate(record) is None
    assert tournaments.ratings.rated("savanna", [record.id]) == {}


def test_round_robin_ties_share_their_rank_instead_of_falling_to_entry_order() -> None:
    # A cycle: a beats c, c beats b, b beats a, each twice; all on 2 points.
    slots, results = duplicate([(0, 1, [0, 0]), (0, 2, [1, 1]), (1, 2, [0, 0])])
    rows = standings(entrants("a", "b", "c"), slots, results, {}, 2.0)
    assert [r["rank"] for r in rows] == [1, 1, 1]
    assert {r["head_to_head"] for r in rows} == {2.0}
    assert {r["sonneborn_berger"] for r in rows} == {4.0}


def test_head_to_head_breaks_a_tie_before_anything_else() -> None:
    """a and b both on 3: b beat a twice; a has the better average place (two ties), which
    ranked it first before."""
    slots, results = duplicate([(0, 1, [0, 0]), (0, 2, [0.5, 0.5]), (0, 3, [1, 1]),
                                (1, 2, [0, 0]), (1, 3, [1, 0]), (2, 3, [1, 1])])
    rows = standings(entrants("a", "b", "c", "d"), slots, results, {}, 2.0)
    assert [(r["name"], r["points"], r["rank"]) for r in rows] == [
        ("c", 5.0, 1), ("b", 3.0, 2), ("a", 3.0, 3), ("d", 1.0, 4)]
    assert rows[1]["head_to_head"] == 2.0 and rows[2]["head_to_head"] == 0.0
    assert rows[0]["head_to_head"] is None


def test_sonneborn_berger_breaks_a_tie_head_to_head_leaves() -> None:
    """a and b both on 3 and drew each other; b's wins came against c (4 points), a's
    against d (2 points)."""
    slots, results = duplicate([(0, 1, [0.5, 0.5]), (0, 2, [0, 0]), (0, 3, [1, 1]),
                                (1, 2, [1, 1]), (1, 3, [0, 0]), (2, 3, [1, 1])])
    rows = standings(entrants("a", "b", "c", "d"), slots, results, {}, 2.0)
    assert [(r["name"], r["points"]) for r in rows] == [
        ("c", 4.0), ("b", 3.0), ("a", 3.0), ("d", 2.0)]
    assert rows[1]["head_to_head"] == rows[2]["head_to_head"] == 1.0
    assert rows[1]["sonneborn_berger"] == 11.0 and rows[2]["sonneborn_berger"] == 7.0
    assert [r["rank"] for r in rows] == [1, 2, 3, 4]


@pytest.mark.parametrize(("entrants_", "seats", "deals"),
                         [(16, 6, 32), (12, 5, 12), (9, 3, 9), (10, 4, 5), (16, 4, 16)])
def test_pods_give_every_entrant_the_same_number_of_matches(
        entrants_: int, seats: int, deals: int) -> None:
    """Whenever ``deals * seats`` is a multiple of the entrants (as with the default deals):
    before, a long schedule drew its groups from a sample and could miss the least played."""
    slots = formats.pods(entrants_, seats, deals, seed=5)
    played = Counter(e for slot in slots for e in slot["entrants"])
    # Each group is in ``seats`` matches (one per rotation of its seats).
    assert {played[e] for e in range(entrants_)} == {deals * seats // entrants_ * seats}


def test_pods_whose_counts_differ_rank_by_points_per_match() -> None:
    """5 entrants in 3-seat pods over 3 deals: some play a group more than others. e0 plays
    9 matches for 4.5 points; e4 plays 3 and wins them all: 3 points, 1 a match."""
    slots: dict[int, dict[str, Any]] = {}
    results: dict[int, dict[str, Any]] = {}
    groups = [(0, 1, 2), (0, 3, 4), (0, 1, 3)]
    wins = {(0, 1, 2): 1, (0, 3, 4): 4, (0, 1, 3): 0}
    for deal, group in enumerate(groups):
        for turn in range(3):
            seated = [group[(i + turn) % 3] for i in range(3)]
            slot = len(slots)
            winner = wins[group]
            places = [1 if e == winner else 2 for e in seated]
            slots[slot] = {"entrants": seated, "deal": deal}
            results[slot] = {"places": places, "forfeited": [],
                             "points": [1.0 if e == winner else 0.25 for e in seated]}
    table = entrants("e0", "e1", "e2", "e3", "e4")
    assert standings(table, slots, results, {}, 2.0)[0]["name"] == "e0"  # by total points
    rows = standings(table, slots, results, {}, 2.0, by_average=True)
    by_name = {r["name"]: r for r in rows}
    assert by_name["e0"]["points"] == 4.5 and by_name["e0"]["matches"] == 9
    assert by_name["e4"]["average_points"] == 1.0 and by_name["e4"]["matches"] == 3
    assert [(r["name"], r["rank"]) for r in rows[:3]] == [("e4", 1), ("e1", 2), ("e0", 3)]

