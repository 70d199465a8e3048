"""Resigning and abandoning a seat: what it changes in a running match.

A seat that resigns (``POST /v1/matches/{id}/resign``) or is abandoned (a person's seat that
owed a move for ``MatchRecord.idle_after`` seconds) leaves the match for good: it joins
``forfeited`` (the fallback bot plays it to the end, as after ``forfeit_after`` timeouts,
and no turn of it is offered to its player again) and ``resigned`` (who left, shown in the
match resource). At the end it ranks last, tied with every other seat that left.

The match ends at once, rather than going on without anybody who chose to play it, when at
most one seat is still in it, or when no seat still in it is a person's or a program's (only
built-in bots would play on): the seats still in share first place, those that left share
last. Each game's rules reference records this as a DECISION (the rulebooks are silent on
leaving a game); the ``scores`` of such a result are 1 for a seat still in, 0 for one gone.
"""

from __future__ import annotations

from typing import Any

from shared.domain.errors import Conflict
from shared.domain.types import MatchStatus, SeatKind
from shared.matches.record import ENDED, MatchRecord

#: Why a seat left, as its log event and the problem details say (``timeout``: its clock ran
#: out, ``shared.matches.clocks``).
RESIGNED, IDLE, TIMEOUT = "resigned", "idle", "timeout"


def check(record: MatchRecord, seat: int, idle_by: float | None = None) -> None:
    """409 unless ``seat`` may leave ``record`` now: the match runs and the seat is in it
    (and, ``idle_by``: has owed the same move since its idle limit passed by that time)."""
    if record.status == MatchStatus.WAITING:
        raise Conflict("the match has not started (it waits for its open seats or invited "
                       "accounts): there is nothing to resign yet", version=record.version)
    if record.status in ENDED:
        ended = "over" if record.status == MatchStatus.FINISHED else record.status
        raise Conflict(f"the match is {ended}: there is nothing to resign",
                       version=record.version)
    if seat in record.resigned:
        raise Conflict(f"seat {seat} has already left this match", version=record.version)
    if seat in record.forfeited:
        raise Conflict(f"seat {seat} has forfeited: the fallback plays it to the end",
                       version=record.version)
    if idle_by is not None and not idle(record, seat, idle_by):
        raise Conflict(f"seat {seat} is not idle: it moved", version=record.version)


def idle(record: MatchRecord, seat: int, now: float) -> bool:
    """Whether ``seat`` has owed a move for its idle limit by ``now``."""
    since = record.owed_since.get(seat)
    return (record.idle_after is not None and since is not None and seat in record.to_move
            and record.idles(seat) and since + record.idle_after <= now)


def still_in(record: MatchRecord) -> list[int]:
    """The seats that have neither left nor forfeited."""
    return [seat for seat in range(len(record.seats)) if seat not in record.forfeited]


def ends_match(record: MatchRecord) -> bool:
    """Whether nobody is left to play for: at most one seat still in, or only built-in bots."""
    left = still_in(record)
    return len(left) <= 1 or all(record.seats[s]["kind"] == SeatKind.BOT for s in left)


def leave(record: MatchRecord, seat: int, reason: str) -> dict[str, Any]:
    """Take ``seat`` out of ``record`` (not yet committed); the log event that says so. Ends
    the match if nobody is left to play for (:func:`ends_match`)."""
    record.resigned.append(seat)
    record.forfeited.append(seat)
    record.timeouts.pop(seat, None)
    event: dict[str, Any] = {"type": "resigned", "seat": seat, "reason": reason}
    if ends_match(record):
        record.status = MatchStatus.FINISHED
        record.result = early_result(record)
        record.to_move = []
        event["ends_match"] = True
    return event


def early_result(record: MatchRecord) -> dict[str, Any]:
    """The result of a match ended by its seats leaving: those still in share first place,
    those gone (resigned, abandoned or forfeited) share last."""
    left = still_in(record)
    last = len(left) + 1
    ranking = [1 if seat in left else last for seat in range(len(record.seats))]
    return {"scores": [1.0 if seat in left else 0.0 for seat in range(len(record.seats))],
            "ranking": ranking, "winners": left,
            "details": {"ended_by": "resignation", "resigned": list(record.resigned)}}


def final_result(result: dict[str, Any], resigned: list[int]) -> dict[str, Any]:
    """An engine's result of a match some seats left: those seats moved to a shared last
    place (the others keep their order), ``winners`` recomputed, ``details.resigned`` set."""
    if not resigned:
        return result
    ranking: list[int] = result["ranking"]
    keep = [seat for seat in range(len(ranking)) if seat not in resigned]
    places = [1 + sum(1 for other in keep if ranking[other] < ranking[seat])
              if seat in keep else len(keep) + 1 for seat in range(len(ranking))]
    return {**result, "ranking": places,
            "winners": [seat for seat, place in enumerate(places) if place == 1],
            "details": {**result.get("details", {}), "resigned": list(resigned)}}
