"""Hints for people: the move a search would play for a seat, asked of a worker by task name.

The API calls :func:`hint`; a worker answers with ``worker.hints.answer`` (the search from
the seat's view alone, as a bot's) and keeps its answer in the match store, where the API
waits for it. One question (match, seat, version) costs at most one search: asking again,
after a dropped connection or a ``202``, returns the kept answer or waits for the search
already asked. A new search is rate-limited per seat, since each costs a worker a search.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shared.bot_catalogue import HINT_ASKED, HINT_INTERVAL, HINT_RETRY, HINT_WAIT
from shared.errors import Conflict, Forbidden, TooManyRequests, Unavailable
from shared.service import MatchService

#: ``send(match_id, seat, version)``: ask a worker to search that question.
Send = Callable[[str, int, int], None]


def hint(service: MatchService, match_id: str, seat: int, send: Send,
         wait: float = HINT_WAIT) -> dict[str, Any]:
    """``seat``'s suggested move now, with the search's estimate; raises a ServiceError
    (403 a tournament or rated match, 409 nothing to decide, 429 a new search too soon, 503
    no answer within ``wait`` seconds: ask again) otherwise."""
    record = service.load(match_id)
    if record.tournament is not None or record.rated:
        # A hint is a second player at the table: not where results count.
        raise Forbidden("hints are off in tournament and rated matches")
    if record.status != "running" or seat not in record.to_move:
        raise Conflict(f"seat {seat} owes no decision now", version=record.version)
    store, version = service.store, record.version
    answer = store.kept_hint(match_id, seat, version)
    # The question's mark first (atomic): an ask that finds one waits for that search.
    if answer is None and store.claim_hint(match_id, seat, version, HINT_ASKED):
        limited = store.rate_limit(f"hint:{match_id}:{seat}", HINT_INTERVAL)
        if limited:
            store.release_hint(match_id, seat, version)
            raise TooManyRequests(f"one hint search per seat every {HINT_INTERVAL:g} s; "
                                  f"retry in {limited:.1f} s", retry_after=limited)
        _send(service, send, match_id, seat, version)
    if answer is None:
        answer = store.wait_for_hint(match_id, seat, version, wait)
    if answer is None:
        raise Unavailable(f"no bot worker answered within {wait:g} s; the search goes on: "
                          "ask again", retry_after=HINT_RETRY)
    if answer.get("error") == "stale":
        raise Conflict("the match moved on while the hint was searched; ask again",
                       version=service.load(match_id).version)
    return answer


def _send(service: MatchService, send: Send, match_id: str, seat: int, version: int) -> None:
    try:
        send(match_id, seat, version)
    except Exception:
        # Not asked after all: the next ask must send it again (the broker is away).
        service.store.release_hint(match_id, seat, version)
        raise
