"""A bot's turn, as the match service plays it, and the sweep of forgotten ones.

The protocol of one turn (the Celery task ``evo.play_bot_turn`` runs :func:`play`):

1. **start** — the turn's queued mark is dropped (its task has started), the match is read
   with the seat's leases on earlier versions: one round trip
   (``MatchStore.start_bot_turn``); a task for an older version, a seat no longer due, a
   match under retired rules gives way;
2. **carry-over** — a live search of the same seat begun at an earlier version that still
   answers this turn's question (``shared.matches.carryover``) will resubmit its move here:
   this task defers to it;
3. **lease** — the turn's lease is taken, storing the question, and given back at once if a
   newer task of the seat holds a newer turn (one script: ``claim_newest_bot_turn``); the
   lease outlives the search's cap, so a live task is never duplicated, and a task whose
   worker died frees the turn for the sweep once it expires;
4. **choice** — the :class:`Chooser` (``shared.bots.turns``: the search, the fallback) picks
   the move from the seat's view; a webhook seat's turn is its own (``shared.bots.webhooks``);
5. **commit** — :meth:`MatchService.submit_move` on the record read at the start (the match
   is read once per move), which in the same atomic step marks the bot turns it hands on as
   queued, then sends them; a store error retries the same compare-and-set;
6. **carry-over on conflict** — a move refused because the match moved on is submitted again
   at the newer version while its question still holds (claiming that version's lease);
   otherwise the leases are given back and the turn handed on to a task that may have
   deferred to this search.

The search's time and the accepted move are counted in one round trip after the commit.
"""

from __future__ import annotations

import copy
import json
import logging
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Protocol

from shared.domain.errors import ServiceError
from shared.games import get_game
from shared.infra.store_retry import with_store_retries
from shared.kernel.protocol import Move, State
from shared.matches import carryover
from shared.matches.record import ENDED, MatchRecord

if TYPE_CHECKING:
    from shared.matches.service import MatchService

log = logging.getLogger(__name__)


class Chooser(Protocol):
    """How the server's player of a seat picks its move (``shared.bots.turns``)."""

    def time_cap(self, record: MatchRecord, seat: int) -> float:
        """The longest the choice may take (seconds): the lease outlives it."""

    def choose(self, record: MatchRecord, state: State, seat: int
               ) -> tuple[Move, dict[str, Any]]:
        """The move for ``seat`` and the note its log entry carries (``kind``,
        ``think_seconds``, ...); never raises for a failing search (it falls back)."""


#: ``webhook(service, record, seat, lease_seconds)``: a webhook seat's whole turn.
WebhookTurn = Callable[["MatchService", MatchRecord, int, float], str]


def play(service: MatchService, match_id: str, seat: int, version: int,
         lease_seconds: float, chooser: Chooser, webhook: WebhookTurn | None = None) -> str:
    """Play seat ``seat``'s move if the match is still at ``version``; says what happened:
    ``stale``, ``retired``, ``deferred``, ``claimed``, ``played`` or ``conflict`` (a
    webhook's turn also ``timeout``)."""
    record, earlier = service.store.start_bot_turn(match_id, seat, version,
                                                   service.max_seats)
    if record is None or record.version != version or seat not in service.bot_seats_due(record):
        return "stale"  # the world moved on; a newer task (or none) is due
    if service.retired_rules(record) is not None:
        return "retired"  # stored under rules no engine here plays: nobody can move in it
    if seat not in record.forfeited and record.seats[seat].get("webhook"):
        if webhook is None:
            raise ValueError("a webhook seat needs a webhook policy")
        return webhook(service, record, seat, lease_seconds)
    state = _state(record)
    in_window = {v: note for v, note in earlier.items() if v > version - len(record.seats)}
    if _earlier_holds(service, record, seat, in_window.values(), state):
        return "deferred"  # its move will be resubmitted at this version
    question = carryover.ask(state, seat, version)
    lease = chooser.time_cap(record, seat) + lease_seconds
    # A newer task may have found no lease of ours and taken the turn while we parsed: it
    # owns it (it checks before claiming, we in the same step as ours, so one gives way).
    newer = range(version + 1, version + len(record.seats))
    claimed = service.store.claim_newest_bot_turn(match_id, seat, version, lease,
                                                  question.to_json(), newer)
    if claimed != "ok":
        return claimed
    move, note = chooser.choose(record, state, seat)
    outcome = "failed"
    try:
        outcome = _submit(service, record, seat, question, move, note, lease)
    finally:  # the search is counted whatever became of its move
        service.stats.bot_search(float(note["think_seconds"]), played=outcome == "played")
    return outcome


def _submit(service: MatchService, record: MatchRecord, seat: int,
            question: carryover.Question, move: Move, note: dict[str, Any],
            lease: float) -> str:
    """Submit a searched move, at a newer version too while the search still holds there."""
    match_id, version, held = record.id, question.version, [question.version]
    while True:
        read = record

        def attempt(read: MatchRecord = read, version: int = version) -> dict[str, Any]:
            # A copy each time: a move's validation writes into the record it is given.
            return service.submit_move(match_id, seat, version, move, bot=note,
                                       record=copy.deepcopy(read))

        try:
            # A store error (Redis full or restarting) keeps the searched move and tries the
            # same compare-and-set again; a commit that landed before its reply was lost
            # fails the retry as stale and goes the conflict way below.
            with_store_retries(attempt, f"the move of match {match_id} seat {seat}",
                               give_up_after=min(60.0, lease / 2))
        except ServiceError as exc:
            latest = service.store.load(match_id)
            if (latest is not None and latest.version > version
                    and service.question_holds(latest, seat, question)
                    and service.claim_bot_turn(match_id, seat, latest.version, lease,
                                               question.to_json())):
                record, version = latest, latest.version
                held.append(version)
                note["searched_at_version"] = question.version
                continue
            for claimed in held:
                service.release_bot_turn(match_id, seat, claimed)
            # A newer task for this seat may have deferred to this search: hand the turn on.
            latest = service.store.load(match_id)
            if latest is not None and seat in service.bot_seats_due(latest):
                service.enqueue_turn(latest, seat)
            log.info("bot move dropped in match %s seat %s: %s", match_id, seat, exc.detail)
            return "conflict"
        log.info("bot %s played in match %s seat %s v%s after %.3fs", note["kind"], match_id,
                 seat, version, note["think_seconds"])
        return "played"


def _earlier_holds(service: MatchService, record: MatchRecord, seat: int,
                   notes: Iterable[str], state: State | None = None) -> bool:
    """Whether one of the live searches of ``seat`` whose leases hold ``notes`` (begun at
    earlier versions) answers ``record``'s turn."""
    questions = [q for q in map(carryover.Question.from_json, notes) if q is not None]
    if not questions:
        return False
    state = state or _state(record)  # parsed once, and only when an earlier search is live
    return any(service.question_holds(record, seat, question, state) for question in questions)


def earlier_search_holds(service: MatchService, record: MatchRecord, seat: int,
                         state: State | None = None) -> bool:
    """Whether a live search of ``seat`` begun at an earlier version answers this one."""
    earlier = range(max(0, record.version - len(record.seats) + 1), record.version)
    notes = service.store.bot_leases(record.id, seat, earlier).values()
    return _earlier_holds(service, record, seat, notes, state)


def sweep(service: MatchService, stale_after: float, stalled_after: float = 0) -> int:
    """Re-enqueue the lost bot turns of matches idle for ``stale_after`` seconds: a turn whose
    task is still queued (its queued mark) or running (its lease) is left alone, however
    long the queue is. Expire a running match with no move for ``stalled_after`` seconds
    (0: never)."""
    now = time.time()
    sent = 0
    for match_id in service.store.stale_matches(now - stale_after):
        record = service.store.load(match_id)
        if record is None or record.status in ENDED:
            # The index is written after a match's own commit, so an older writer can put
            # back an entry a newer one removed; the sweep is where it is repaired.
            if record is not None and service.store.needs_keeping(match_id):
                # Ended by a release whose end wrote its log and times to live in a second
                # step, and its process died in between: finish that step now.
                service.store.keep_ended(match_id, service.kept_form(record))
            service.store.forget_active(match_id)
            continue
        if stalled_after > 0 and service.expire_stalled(match_id, now - stalled_after):
            log.info("match %s expired: no move for %gs", match_id, stalled_after)
            continue
        # A match stored under rules this server no longer plays gets no bot turns (its
        # state does not load); it stays readable as a 410 until it expires as stalled.
        retired = service.retired_rules(record) is not None
        for seat in [] if retired else service.bot_seats_due(record):
            if not (service.store.turn_queued(match_id, seat, record.version)
                    or service.store.bot_turn_claimed(match_id, seat, record.version)
                    or earlier_search_holds(service, record, seat)):
                service.enqueue_turn(record, seat)
                sent += 1
        service.store.touch_active(match_id, now)
    if sent:
        log.info("sweep: re-enqueued %d lost bot turn(s)", sent)
    return sent


def _state(record: MatchRecord) -> State:
    return get_game(record.game).state_from_json(json.loads(record.state))
