"""Move deadlines: a seat that owes a move past its deadline gets the fallback move, and a
person's seat that owes one past its idle limit (``MatchRecord.idle_after``) is abandoned
(``shared.matches.resignation``: the fallback plays it from then on, or the match ends).

A match's time control (``shared.matches.clocks``) is swept the same way: a seat out of time
gets the fallback move, or is resigned (a real-time clock out, or the turn-based
``resign_after``-th timeout in a row).

Only seats the server does not play are clocked (a person's, a pull bot's): see
``shared.matches.service.clocked``. The sweep also expires matches left waiting for open seats.
"""

from __future__ import annotations

import logging
import time

from shared.bots.fallback import play_timeout
from shared.domain.errors import ServiceError
from shared.matches import clocks, resignation
from shared.matches.record import MatchRecord
from shared.matches.service import MatchService, clocked

log = logging.getLogger(__name__)


def sweep(service: MatchService, waiting_expire_seconds: float, now: float | None = None
          ) -> int:
    """Play the fallback for every overdue seat; abort matches whose invitations expired;
    expire stale waiting matches. Returns the number of fallback moves played."""
    now = now or time.time()
    played = 0
    for match_id in service.due_deadlines(now):
        played += _time_out(service, match_id, now)
    for match_id in service.waiting_since(now - service.invitation_ttl):
        if service.expire_invitations(match_id, now - service.invitation_ttl):
            log.info("match %s aborted: an invitation expired unanswered", match_id)
    for match_id in service.waiting_since(now - waiting_expire_seconds):
        if service.expire(match_id, now - waiting_expire_seconds):
            log.info("match %s expired waiting for its open seats", match_id)
    if played:
        log.info("deadlines: played %d fallback move(s)", played)
    return played


def _time_out(service: MatchService, match_id: str, now: float) -> int:
    """Time out the overdue seats of one match, one move (one version) at a time."""
    played = 0
    for _ in range(32):  # at most a few seats at a time; a stubborn failure waits a sweep
        record = service.peek(match_id)
        if record is None or service.retired_rules(record) is not None:
            # Gone, or stored under rules no engine here plays (no fallback move can be
            # chosen in it): nothing to time out; the stalled-match sweep ends it later.
            service.forget_indexed(match_id)
            return played
        idle = [seat for seat in sorted(record.owed_since) if resignation.idle(record, seat, now)]
        overdue = [seat for seat, since in sorted(record.owed_since.items())
                   if record.move_deadline is not None and since + record.move_deadline <= now
                   and seat in record.to_move and clocked(record, seat)]
        out = clocks.overdue(record, now)
        if not idle and not overdue and not out:
            service.index_deadlines(record)
            return played
        try:
            if idle:  # abandoned: the seat leaves (the fallback plays it, or the match ends)
                service.resign(match_id, idle[0], idle_by=now)
                log.info("match %s: seat %s abandoned (idle)", match_id, idle[0])
            elif overdue:
                play_timeout(service, record, overdue[0], "deadline")
                played += 1
            else:
                played += _out_of_time(service, record, out[0], now)
        except ServiceError as exc:  # the seat moved just in time: look again
            log.info("deadline move dropped in match %s: %s", match_id, exc.detail)
    return played


def _out_of_time(service: MatchService, record: MatchRecord, seat: int, now: float) -> int:
    """A seat whose clock ran out: resigned, or given the fallback move (1: a move played)."""
    if clocks.resigns(record, seat):
        service.resign(record.id, seat, clock_by=now)
        log.info("match %s: seat %s resigned (out of time)", record.id, seat)
        return 0
    play_timeout(service, record, seat, "clock")
    return 1
