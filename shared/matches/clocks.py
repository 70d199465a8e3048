"""Per-match time control: every piece of clock arithmetic, on the match record alone.

A match may be created with a ``time_control`` (``MatchRecord.time_control``):

- ``{"kind": "realtime", "base": B, "increment": I}``: a clock per seat, B seconds at the
  start; it runs while the seat owes a move and I seconds are added after each of its moves.
  ``MatchRecord.clock`` holds each seat's time left as of when it last started owing
  (``owed_since``): a running clock is that minus the time since. A seat whose clock runs out
  loses (it is resigned, ``shared.matches.resignation``), as on chess servers.
- ``{"kind": "turn_based", "per_move": P, "resign_after": N}``: each move has P seconds
  (hours or days, as BoardGameArena's turn-based mode); past them the fallback plays the
  move, and the N-th timeout in a row resigns the seat instead.

Several seats owing at once (a simultaneous step) each run their own clock from their own
``owed_since``. Only seats a person or a pull bot plays are timed (as ``move_deadline``
clocks them): the server's own players (built-in bots, webhook bots, forfeited seats) spend
their time in the worker. Nothing here names a game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shared.domain.types import MatchStatus, SeatKind

if TYPE_CHECKING:  # the record imports this module for ``due_at``
    from shared.matches.record import MatchRecord

REALTIME, TURN_BASED = "realtime", "turn_based"
#: Bounds of a time control, in seconds (the request schema and the contract say the same).
BASE_RANGE = (1.0, 86400.0)
INCREMENT_RANGE = (0.0, 3600.0)
PER_MOVE_RANGE = (1.0, 30 * 86400.0)
RESIGN_AFTER_RANGE = (1, 100)
DEFAULT_RESIGN_AFTER = 3


def normalised(time_control: dict[str, Any] | None) -> dict[str, Any] | None:
    """The stored form of a validated time control: every field present."""
    if time_control is None:
        return None
    if time_control["kind"] == REALTIME:
        return {"kind": REALTIME, "base": float(time_control["base"]),
                "increment": float(time_control.get("increment", 0.0))}
    return {"kind": TURN_BASED, "per_move": float(time_control["per_move"]),
            "resign_after": int(time_control.get("resign_after", DEFAULT_RESIGN_AFTER))}


def start(time_control: dict[str, Any] | None, seats: int) -> dict[int, float]:
    """Each seat's clock at the start: the base of a real-time control, else nothing."""
    if time_control is None or time_control["kind"] != REALTIME:
        return {}
    return {seat: float(time_control["base"]) for seat in range(seats)}


def timed(record: MatchRecord, seat: int) -> bool:
    """Whether ``seat`` plays against the match's time control: a person's or pull bot's."""
    info = record.seats[seat]
    return (record.time_control is not None and info["kind"] != SeatKind.BOT
            and not info.get("webhook") and seat not in record.forfeited)


def charge(record: MatchRecord, mover: int | None, owing: list[int], now: float) -> None:
    """Spend the time of the seats that stop owing (or moved) at ``now``, before
    ``owed_since`` is rebuilt; the mover gains the increment. Seats that go on owing keep
    their running clock untouched (their ``owed_since`` stays)."""
    tc = record.time_control
    if tc is None or tc["kind"] != REALTIME:
        return
    for seat, since in record.owed_since.items():
        if seat in record.clock and (seat == mover or seat not in owing):
            left = max(0.0, record.clock[seat] - (now - since))
            record.clock[seat] = left + (tc["increment"] if seat == mover else 0.0)


def running(record: MatchRecord, seat: int) -> bool:
    """Whether ``seat``'s clock runs: the match runs, the seat is timed and owes a move."""
    return (record.status == MatchStatus.RUNNING and seat in record.owed_since
            and seat in record.to_move and timed(record, seat))


def _allowance(record: MatchRecord, seat: int) -> float:
    """The seconds ``seat`` had when it last started owing."""
    tc = record.time_control
    assert tc is not None
    if tc["kind"] == REALTIME:
        return float(record.clock.get(seat, tc["base"]))
    return float(tc["per_move"])


def deadline(record: MatchRecord, seat: int) -> float | None:
    """When ``seat``'s clock runs out (Unix time), if it runs."""
    if not running(record, seat):
        return None
    return record.owed_since[seat] + _allowance(record, seat)


def remaining(record: MatchRecord, seat: int, now: float) -> float:
    """The seconds ``seat`` has left at ``now`` (never below zero)."""
    end = deadline(record, seat)
    return max(0.0, end - now) if end is not None else _allowance(record, seat)


def due_at(record: MatchRecord) -> float | None:
    """When the first running clock runs out (None: none runs)."""
    if record.time_control is None:
        return None
    ends = [end for seat in record.owed_since if (end := deadline(record, seat)) is not None]
    return min(ends) if ends else None


def overdue(record: MatchRecord, now: float) -> list[int]:
    """The seats whose clock has run out by ``now``, in seat order."""
    if record.time_control is None:
        return []
    return [seat for seat in sorted(record.owed_since)
            if (end := deadline(record, seat)) is not None and end <= now]


def flagged(record: MatchRecord, seat: int, now: float) -> bool:
    """Whether ``seat``'s real-time clock has run out: its late move no longer counts."""
    tc = record.time_control
    return tc is not None and tc["kind"] == REALTIME and seat in overdue(record, now)


def resigns(record: MatchRecord, seat: int) -> bool:
    """Whether ``seat``, out of time, is resigned (rather than given the fallback move): a
    real-time clock out always; a turn-based timeout that is its ``resign_after``-th in a
    row (``MatchRecord.timeouts`` counts the earlier ones)."""
    tc = record.time_control
    if tc is None:
        return False
    if tc["kind"] == REALTIME:
        return True
    return bool(record.timeouts.get(seat, 0) + 1 >= tc["resign_after"])


def view(record: MatchRecord, now: float) -> list[dict[str, Any]]:
    """Every timed-kind seat's clock as the match resource shows it (empty: no control)."""
    if record.time_control is None:
        return []
    shown = []
    for seat, info in enumerate(record.seats):
        if info["kind"] == SeatKind.BOT or info.get("webhook"):
            continue  # the server plays it: no clock
        shown.append({"seat": seat, "remaining": round(remaining(record, seat, now), 3),
                      "running": running(record, seat), "deadline": deadline(record, seat)})
    return shown
