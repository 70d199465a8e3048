"""Hints for people: the move a search would play for a seat, asked of a worker by task name.

The API calls :func:`hint`; the worker answers with ``worker.hints.suggest`` (the search from
the seat's view alone, as a bot's). Rate-limited per seat, since every hint costs a search.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shared.bot_catalogue import HINT_INTERVAL, HINT_WAIT
from shared.errors import Conflict, Forbidden, TooManyRequests, Unavailable
from shared.service import MatchService

#: ``ask(match_id, seat, version, wait)``: the worker's answer, or None if none came in time.
Ask = Callable[[str, int, int, float], "dict[str, Any] | None"]


def hint(service: MatchService, match_id: str, seat: int, ask: Ask) -> dict[str, Any]:
    """``seat``'s suggested move now, with the search's estimate; raises a ServiceError
    (403 a tournament or rated match, 409 nothing to decide, 429 too soon, 503 no worker
    answered) otherwise."""
    record = service.load(match_id)
    if record.tournament is not None or record.rated:
        # A hint is a second player at the table: not where results count.
        raise Forbidden("hints are off in tournament and rated matches")
    if record.status != "running" or seat not in record.to_move:
        raise Conflict(f"seat {seat} owes no decision now", version=record.version)
    wait = service.store.rate_limit(f"hint:{match_id}:{seat}", HINT_INTERVAL)
    if wait:
        raise TooManyRequests(f"one hint per seat every {HINT_INTERVAL:g} s; retry in "
                              f"{wait:.1f} s", retry_after=wait)
    answer = ask(match_id, seat, record.version, HINT_WAIT)
    if answer is None:
        raise Unavailable(f"no bot worker answered within {HINT_WAIT:g} s; retry later",
                          retry_after=HINT_INTERVAL)
    if answer.get("error") == "stale":
        raise Conflict("the match moved on while the hint was searched; ask again",
                       version=service.load(match_id).version)
    return answer
