"""The clock arithmetic of ``shared.matches.clocks`` on bare match records (no Redis: the
functions read and write the record alone)."""

from __future__ import annotations

from typing import Any

import pytest

from shared.domain.types import MatchStatus
from shared.matches import clocks
from shared.matches.record import MatchRecord

T0 = 1_000_000.0
REALTIME = {"kind": "realtime", "base": 60, "increment": 5}
TURN_BASED = {"kind": "turn_based", "per_move": 3600}


def record(time_control: dict[str, Any], kinds: tuple[str, ...] = ("human", "human"),
           to_move: list[int] | None = None) -> MatchRecord:
    seats: list[Any] = [{"seat": i, "kind": k, "name": k, "joined": True}
                        for i, k in enumerate(kinds)]
    tc = clocks.normalised(time_control)
    match = MatchRecord(id="m", game="g", rules_version="1", options={}, seed=1, seats=seats,
                        status=MatchStatus.RUNNING, version=1, state="{}", rng="0",
                        result=None, to_move=[0] if to_move is None else to_move,
                        created_at=T0, updated_at=T0, time_control=tc,
                        clock=clocks.start(tc, len(kinds)))
    owe(match, None, T0)
    return match


def owe(match: MatchRecord, mover: int | None, now: float) -> None:
    """What ``MatchService._restart_clocks`` does with the clocks after a write at ``now``."""
    owing = [s for s in match.to_move if match.status == MatchStatus.RUNNING
             and clocks.timed(match, s)]
    clocks.charge(match, mover, owing, now)
    match.owed_since = {s: (match.owed_since.get(s, now) if s != mover else now)
                        for s in owing}


def test_normalised_fills_the_defaults() -> None:
    assert clocks.normalised({"kind": "realtime", "base": 10}) == {
        "kind": "realtime", "base": 10.0, "increment": 0.0}
    assert clocks.normalised(TURN_BASED) == {"kind": "turn_based", "per_move": 3600.0,
                                             "resign_after": clocks.DEFAULT_RESIGN_AFTER}
    assert clocks.normalised(None) is None


def test_the_owing_seats_clock_runs_and_the_others_wait() -> None:
    match = record(REALTIME)
    assert clocks.running(match, 0) and not clocks.running(match, 1)
    assert clocks.remaining(match, 0, T0 + 10) == pytest.approx(50)
    assert clocks.remaining(match, 1, T0 + 10) == pytest.approx(60)  # paused: not owing
    assert clocks.deadline(match, 0) == pytest.approx(T0 + 60)
    assert clocks.deadline(match, 1) is None
    assert clocks.due_at(match) == pytest.approx(T0 + 60)


def test_a_move_spends_the_elapsed_time_and_adds_the_increment() -> None:
    match = record(REALTIME)
    match.to_move = [1]
    owe(match, 0, T0 + 10)  # seat 0 moved after 10 s: 60 - 10 + 5
    assert match.clock[0] == pytest.approx(55)
    assert not clocks.running(match, 0) and clocks.running(match, 1)
    assert clocks.remaining(match, 0, T0 + 100) == pytest.approx(55)  # stopped
    match.to_move = [0]
    owe(match, 1, T0 + 40)  # seat 1 used 30 s
    assert match.clock[1] == pytest.approx(35)
    assert clocks.deadline(match, 0) == pytest.approx(T0 + 40 + 55)


def test_a_seat_moving_again_restarts_from_its_new_time() -> None:
    match = record(REALTIME)
    owe(match, 0, T0 + 20)  # seat 0 moved and owes the next move too
    assert match.clock[0] == pytest.approx(45)
    assert match.owed_since[0] == T0 + 20
    assert clocks.remaining(match, 0, T0 + 30) == pytest.approx(35)


def test_a_simultaneous_step_runs_every_owing_seats_clock_at_once() -> None:
    match = record(REALTIME, ("human", "human", "human"), to_move=[0, 1, 2])
    assert all(clocks.running(match, s) for s in range(3))
    assert [clocks.remaining(match, s, T0 + 7) for s in range(3)] == pytest.approx([53] * 3)
    match.to_move = [1, 2]
    owe(match, 0, T0 + 7)  # seat 0 chose; the others' clocks keep running, uncharged yet
    assert match.clock == pytest.approx({0: 58, 1: 60, 2: 60})
    assert match.owed_since == {1: T0, 2: T0}
    assert clocks.remaining(match, 2, T0 + 20) == pytest.approx(40)
    match.to_move = [2]
    owe(match, 1, T0 + 30)
    assert match.clock[1] == pytest.approx(35)
    assert clocks.overdue(match, T0 + 60) == [2]


def test_bots_are_not_timed_and_a_seat_that_stops_owing_pays_without_increment() -> None:
    match = record(REALTIME, ("human", "bot"), to_move=[0, 1])
    assert list(match.owed_since) == [0]
    assert [c["seat"] for c in clocks.view(match, T0)] == [0]
    match.forfeited.append(0)  # the seat left: its clock stops
    owe(match, None, T0 + 12)
    assert match.clock[0] == pytest.approx(48) and match.owed_since == {}


def test_a_finished_match_stops_every_clock() -> None:
    match = record(REALTIME, to_move=[0, 1])
    match.status, match.to_move = MatchStatus.FINISHED, []
    owe(match, 0, T0 + 10)
    assert match.clock == pytest.approx({0: 55, 1: 50})
    assert clocks.due_at(match) is None and clocks.view(match, T0 + 99)[0]["running"] is False


def test_the_clock_never_goes_below_zero() -> None:
    match = record({"kind": "realtime", "base": 5})
    assert clocks.remaining(match, 0, T0 + 9) == 0
    assert clocks.overdue(match, T0 + 5) == [0] and clocks.flagged(match, 0, T0 + 5)
    assert clocks.overdue(match, T0 + 4.9) == []


def test_turn_based_gives_each_move_its_own_allowance() -> None:
    match = record(TURN_BASED)
    assert match.clock == {}
    assert clocks.deadline(match, 0) == pytest.approx(T0 + 3600)
    assert clocks.remaining(match, 0, T0 + 600) == pytest.approx(3000)
    match.to_move = [1]
    owe(match, 0, T0 + 3000)
    assert clocks.deadline(match, 1) == pytest.approx(T0 + 6600)  # a fresh hour
    assert clocks.remaining(match, 0, T0 + 9000) == pytest.approx(3600)
    assert not clocks.flagged(match, 1, T0 + 7000)  # a late turn-based move still counts


def test_who_resigns_when_out_of_time() -> None:
    assert clocks.resigns(record(REALTIME), 0)  # a real-time clock out loses at once
    match = record(TURN_BASED)
    assert not clocks.resigns(match, 0)
    match.timeouts[0] = clocks.DEFAULT_RESIGN_AFTER - 2
    assert not clocks.resigns(match, 0)
    match.timeouts[0] = clocks.DEFAULT_RESIGN_AFTER - 1
    assert clocks.resigns(match, 0)  # this timeout is the third in a row


def test_the_record_round_trips_and_due_at_includes_the_clock() -> None:
    match = record(REALTIME)
    again = MatchRecord.from_fields(match.to_fields())
    assert again.time_control == match.time_control and again.clock == match.clock
    assert again.due_at() == pytest.approx(T0 + 60)
    old = match.to_fields()
    del old["time_control"], old["clock"]
    assert MatchRecord.from_fields(old).time_control is None  # stored before clocks existed
