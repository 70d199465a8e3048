"""Hints for people: the move a search would play for a seat, asked of a worker by task name.

The API calls :func:`hint`; a worker answers with ``shared.bots.hint_search.answer`` (the
search from the seat's view alone, as a bot's) and keeps its answer in the match store,
where the API waits for it. One question costs at most one search: asking again, after a dropped
connection or a ``202``, returns the kept answer or waits for the search already asked. A
question is the seat's decision at a version, and it stays the same question while the
only moves since are other seats' choices the seat cannot see (``shared.matches.carryover``, as for
a bot's search): in a secret simultaneous step the others' picks bump the version, and the
hint asked before them still answers. A new search is rate-limited per seat, since each
costs a worker a search.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from shared.bots.catalogue import HINT_ASKED, HINT_INTERVAL, HINT_KEEP, HINT_RETRY, HINT_WAIT
from shared.domain.errors import Conflict, Forbidden, TooManyRequests, Unavailable
from shared.domain.types import MatchStatus
from shared.games import get_game
from shared.kernel.protocol import State
from shared.matches import carryover
from shared.matches.record import MatchRecord
from shared.matches.service import MatchService

#: ``send(match_id, seat, version)``: ask a worker to search that question.
Send = Callable[[str, int, int], None]


def hint(service: MatchService, match_id: str, seat: int, send: Send,
         wait: float = HINT_WAIT) -> dict[str, Any]:
    """``seat``'s suggested move now, with the search's estimate (its ``version`` is the one
    the search began at: a move quoting it is accepted while the question holds); raises a
    ServiceError (403 a tournament or rated match, 409 nothing to decide, 429 a new search too
    soon, 503 no answer within ``wait`` seconds: ask again) otherwise."""
    record = service.load(match_id)
    if record.tournament is not None or record.rated:
        # A hint is a second player at the table: not where results count.
        raise Forbidden("hints are off in tournament and rated matches")
    if record.status != MatchStatus.RUNNING or seat not in record.to_move:
        raise Conflict(f"seat {seat} owes no decision now", version=record.version)
    state = get_game(record.game).state_from_json(json.loads(record.state))
    asked = _asked(service, record, seat, state)
    # The question's mark first (atomic): an ask that finds one waits for that search.
    if asked is None and service.claim_hint(match_id, seat, record.version, HINT_ASKED):
        limited = service.hint_rate_limit(match_id, seat, HINT_INTERVAL)
        if limited:
            service.release_hint(match_id, seat, record.version)
            raise TooManyRequests(f"one hint search per seat every {HINT_INTERVAL:g} s; "
                                  f"retry in {limited:.1f} s", retry_after=limited)
        question = carryover.ask(state, seat, record.version)
        service.note_hint_question(match_id, seat, question.to_json(), HINT_KEEP)
        _send(service, send, match_id, seat, record.version)
    version = record.version if asked is None else asked
    answer = (service.kept_hint(match_id, seat, version)
              or service.wait_for_hint(match_id, seat, version, wait))
    if answer is None:
        raise Unavailable(f"no bot worker answered within {wait:g} s; the search goes on: "
                          "ask again", retry_after=HINT_RETRY)
    if answer.get("error") == "stale":
        raise Conflict("the match moved on while the hint was searched; ask again",
                       version=service.load(match_id).version)
    return answer


def open_question(service: MatchService, record: MatchRecord, seat: int,
                  state: State) -> carryover.Question | None:
    """The question of ``seat``'s latest hint search, if it is still the seat's question."""
    noted = service.last_hint_question(record.id, seat)
    question = None if noted is None else carryover.Question.from_json(noted)
    if question is None or (question.version != record.version
                            and not service.question_holds(record, seat, question, state)):
        return None
    return question


def _asked(service: MatchService, record: MatchRecord, seat: int, state: State) -> int | None:
    """The version of a search already asked (under way or answered) whose question is still
    ``seat``'s question now, if any."""
    question = open_question(service, record, seat, state)
    if question is None or not service.hint_asked(record.id, seat, question.version):
        return None
    return question.version


def _send(service: MatchService, send: Send, match_id: str, seat: int, version: int) -> None:
    try:
        send(match_id, seat, version)
    except Exception:
        # Not asked after all: the next ask must send it again (the broker is away).
        service.release_hint(match_id, seat, version)
        raise
