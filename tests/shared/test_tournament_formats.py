"""Tournament formats: duplicate play, Swiss without rematches, balanced pods; standings."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from shared.tournaments import formats
from shared.tournaments.standings import standings


def test_round_robin_plays_each_deal_twice_with_the_seats_swapped() -> None:
    slots = formats.round_robin(4, 2, seed=3)
    assert len(slots) == formats.round_robin_size(4, 2) == 24
    assert [s["slot"] for s in slots] == list(range(24))
    for first, second in zip(slots[::2], slots[1::2], strict=True):
        assert first["seed"] == second["seed"] and first["deal"] == second["deal"]
        assert first["entrants"] == second["entrants"][::-1]
    pairs = Counter(frozenset(s["entrants"]) for s in slots)
    assert set(pairs.values()) == {4} and len(pairs) == 6
    assert formats.round_robin(4, 2, seed=3) == slots  # seeded
    assert len({s["seed"] for s in slots}) == 12


@pytest.mark.parametrize("entrants", [4, 5, 6, 7, 8, 9, 12])
def test_swiss_never_pairs_a_rematch_and_pairs_by_score(entrants: int) -> None:
    """Every round pairs everyone (one bye if odd) without a rematch; the rounds a tournament
    may ask for (``swiss_max_rounds``) always pair, and beyond them a round may be refused."""
    allowed = formats.swiss_max_rounds(entrants)
    assert allowed == entrants // 2
    for trial in range(20):
        rng = random.Random(trial)
        scores = [0.0] * entrants
        met: set[frozenset[int]] = set()
        byes: Counter[int] = Counter()
        slot = 0
        for round_no in range(entrants - 1 + entrants % 2):
            try:
                planned, bye = formats.swiss_round(round_no, entrants, scores, met, byes, slot,
                                                   seed=trial)
            except ValueError:
                assert round_no >= allowed
                break
            pairs = [frozenset(p["entrants"]) for p in planned[::2]]
            assert not set(pairs) & met, "a rematch"
            seated = [e for p in pairs for e in p]
            assert sorted(seated + ([bye] if bye is not None else [])) == list(range(entrants))
            met.update(pairs)
            if bye is not None:
                assert byes[bye] == min(byes[e] for e in range(entrants) if e not in seated)
                byes[bye] += 1
                scores[bye] += 2
            slot += len(planned)
            for pair in pairs:  # random outcomes for the next round's pairing
                winner = rng.choice(sorted(pair))
                scores[winner] += 2
    # Round one pairs the top half of a score order with nearby scores.
    planned, _ = formats.swiss_round(0, 6, [5, 4, 3, 2, 1, 0], set(), Counter(), 0, 1)
    assert [sorted(p["entrants"]) for p in planned[::2]] == [[0, 1], [2, 3], [4, 5]]


def test_swiss_backtracks_instead_of_forcing_a_rematch() -> None:
    # Greedy top-down would pair 0-1 and leave 2-3 who already met.
    met = {frozenset((2, 3)), frozenset((0, 2))}
    planned, _ = formats.swiss_round(1, 4, [3, 2, 1, 0], met, Counter(), 0, 0)
    assert {frozenset(p["entrants"]) for p in planned} == {frozenset((0, 3)),
                                                           frozenset((1, 2))}
    with pytest.raises(ValueError, match="no Swiss pairing"):
        formats.swiss_round(1, 2, [1, 0], {frozenset((0, 1))}, Counter(), 0, 0)


@pytest.mark.parametrize(("entrants", "seats", "deals"),
                         [(4, 3, 4), (5, 3, 10), (6, 3, 10), (7, 3, 7), (6, 4, 15), (8, 4, 14),
                          (9, 3, 12), (5, 4, 5)])
def test_pods_balance_opponents_and_seat_positions_within_one_match(
        entrants: int, seats: int, deals: int) -> None:
    slots = formats.pods(entrants, seats, deals, seed=11)
    assert len(slots) == deals * seats
    played: Counter[int] = Counter()
    met: Counter[frozenset[int]] = Counter()
    position: Counter[tuple[int, int]] = Counter()
    for slot in slots:
        played.update(slot["entrants"])
        met.update(frozenset(p) for p in itertools.combinations(slot["entrants"], 2))
        position.update((e, seat) for seat, e in enumerate(slot["entrants"]))
    meetings = [met[frozenset(p)] for p in itertools.combinations(range(entrants), 2)]
    # Each deal is played once per rotation (``seats`` matches): balance within one deal.
    assert max(played.values()) - min(played[e] for e in range(entrants)) <= seats
    assert max(meetings) - min(meetings) <= seats
    # Every entrant sits in every seat position equally often.
    for e in range(entrants):
        assert len({position[(e, seat)] for seat in range(seats)}) == 1
    for deal in range(deals):
        group = slots[deal * seats: (deal + 1) * seats]
        assert len({s["seed"] for s in group}) == 1
        assert len({frozenset(s["entrants"]) for s in group}) == 1


def test_standings_count_points_wins_places_byes_and_buchholz() -> None:
    entrants = [{"name": n, "player": f"bot:{n}"} for n in ("a", "b", "c")]
    slots = {0: {"entrants": [0, 1], "deal": 0}, 1: {"entrants": [1, 0], "deal": 0},
             2: {"entrants": [1, 2], "deal": 1}}
    results = {0: {"places": [1, 2], "points": [1.0, 0.0]},
               1: {"places": [1, 1], "points": [0.5, 0.5]},
               2: {"places": [2, 1], "points": [0.0, 1.0]}}
    rows = standings(entrants, slots, results, {"2": 1}, 2.0)
    by_name = {r["name"]: r for r in rows}
    assert by_name["a"]["points"] == 1.5 and by_name["a"]["wins"] == 2
    assert by_name["b"]["points"] == 0.5 and by_name["b"]["average_place"] == pytest.approx(
        5 / 3, abs=1e-4)
    assert by_name["c"]["points"] == 3.0 and by_name["c"]["byes"] == 1
    assert by_name["a"]["buchholz"] == 0.5  # met b (0.5) on one deal: counted once
    assert by_name["b"]["buchholz"] == 4.5
    assert [r["name"] for r in rows] == ["c", "a", "b"] and rows[0]["rank"] == 1
