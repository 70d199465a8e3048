"""Playing one bot turn and sweeping forgotten ones (the logic behind the Celery tasks)."""

from __future__ import annotations

import json
import logging
import time
from functools import partial

from shared.bots import webhooks
from shared.bots.catalogue import budget_of_bot
from shared.bots.choice import bot_rng, choose_move
from shared.bots.fallback import FALLBACK_BOT
from shared.bots.turn_budget import TurnBudget, bot_budget
from shared.domain.errors import ServiceError
from shared.games import get_game
from shared.infra import stats
from shared.infra.store_retry import with_store_retries
from shared.kernel.protocol import State
from shared.matches import carryover
from shared.matches.record import ENDED, MatchRecord
from shared.matches.service import MatchService

log = logging.getLogger(__name__)


def play_bot_turn(service: MatchService, match_id: str, seat: int, version: int,
                  lease_seconds: float, webhook: webhooks.WebhookPolicy | None = None,
                  turn: TurnBudget | None = None) -> str:
    """Play seat ``seat``'s move if the match is still at ``version``; says what happened.

    The seat is a built-in bot's, a webhook account's (``webhook`` says how to call it) or
    a forfeited seat's (the fallback bot plays it). ``turn``: the budget the decisions
    between two turns of a waiting person share (``shared.bots.turn_budget``; None: none).
    """
    # Started: no longer queued (the lease taken below says it runs). A sweep in between
    # may send a duplicate, which finds the lease (or the new version) and gives way.
    service.store.unmark_turn_queued(match_id, seat, version)
    record = service.store.load(match_id)
    if record is None or record.version != version or seat not in service.bot_seats_due(record):
        return "stale"  # the world moved on; a newer task (or none) is due
    if service.retired_rules(record) is not None:
        return "retired"  # stored under rules no engine here plays: nobody can move in it
    if seat not in record.forfeited and record.seats[seat].get("webhook"):
        if webhook is None:
            raise ValueError("a webhook seat needs a webhook policy")
        return webhooks.play_turn(service, record, seat, webhook, lease_seconds)
    game = get_game(record.game)
    state = game.state_from_json(json.loads(record.state))
    if earlier_search_holds(service, record, seat, state):
        return "deferred"  # its move will be resubmitted at this version
    bot = FALLBACK_BOT if seat in record.forfeited else record.seats[seat]["bot"]
    cap = budget_of_bot(bot).time_cap if bot.get("kind") == "ismcts" else 0.0
    question = carryover.ask(state, seat, version)
    # The lease outlives the search cap, so a live task is never duplicated; a task whose
    # worker died frees the turn for the sweep once the lease expires.
    lease = cap + lease_seconds
    if not service.store.claim_bot_turn(match_id, seat, version, lease, question.to_json()):
        return "claimed"
    # A newer task may have found no lease of ours and taken the turn while we parsed: it
    # owns it (it checks before claiming, we after, so one of the two always gives way).
    newer = range(version + 1, version + len(record.seats))
    if service.store.bot_leases(match_id, seat, newer):
        service.store.release_bot_turn(match_id, seat, version)
        return "stale"
    view = state.view(seat)
    rng = bot_rng(record.seed, version, seat)
    note: dict[str, object] = {"kind": bot.get("kind")}
    budget = None
    if bot.get("kind") == "ismcts":
        # Wall-clock time, as bots_since is: the turn budget's start was written by
        # another process (the API's, or another worker's).
        budget = bot_budget(bot, record.bots_since, turn, time.time())
        note["budget_seconds"] = round(budget.time_cap, 4)
    searched: dict[str, object] = {}
    started = time.monotonic()
    try:
        move = choose_move(game, view, seat, bot, rng, budget, searched)
        if "iterations" in searched:
            note["simulations"] = searched["iterations"]
            if searched["stopped"] == "forced":  # one move only: nothing to search
                note["forced"] = True
    except Exception:  # a failing search must never hold the match hostage
        log.exception("bot %s failed in match %s seat %s; playing a random legal move",
                      bot, match_id, seat)
        move = rng.choice(state.legal_moves(seat))
        note["fallback"] = True
    note["think_seconds"] = round(time.monotonic() - started, 4)
    stats.observe_search(service.store.redis, note["think_seconds"])
    return _submit(service, match_id, seat, question, move, note, lease)


def _submit(service: MatchService, match_id: str, seat: int, question: carryover.Question,
            move: dict[str, object], note: dict[str, object], lease: float) -> str:
    """Submit a searched move, at a newer version too while the search still holds there."""
    version, held = question.version, [question.version]
    while True:
        try:
            # A store error (Redis full or restarting) keeps the searched move and tries the
            # same compare-and-set again; a commit that landed before its reply was lost
            # fails the retry as stale and goes the conflict way below.
            with_store_retries(partial(service.submit_move, match_id, seat, version, move,
                                       bot=note),
                               f"the move of match {match_id} seat {seat}",
                               give_up_after=min(60.0, lease / 2))
        except ServiceError as exc:
            record = service.store.load(match_id)
            if (record is not None and record.version > version
                    and service.question_holds(record, seat, question)
                    and service.store.claim_bot_turn(match_id, seat, record.version, lease,
                                                     question.to_json())):
                version = record.version
                held.append(version)
                note["searched_at_version"] = question.version
                continue
            for claimed in held:
                service.store.release_bot_turn(match_id, seat, claimed)
            # A newer task for this seat may have deferred to this search: hand the turn on.
            record = service.store.load(match_id)
            if record is not None and seat in service.bot_seats_due(record):
                service.enqueue_turn(record, seat)
            log.info("bot move dropped in match %s seat %s: %s", match_id, seat, exc.detail)
            return "conflict"
        stats.count(service.store.redis, "bot_moves")
        log.info("bot %s played in match %s seat %s v%s after %.3fs", note["kind"], match_id,
                 seat, version, note["think_seconds"])
        return "played"


def earlier_search_holds(service: MatchService, record: MatchRecord, seat: int,
                         state: State | None = None) -> bool:
    """Whether a live search of ``seat`` begun at an earlier version answers this one."""
    earlier = range(max(0, record.version - len(record.seats) + 1), record.version)
    notes = service.store.bot_leases(record.id, seat, earlier).values()
    questions = [q for q in map(carryover.Question.from_json, notes) if q is not None]
    if not questions:
        return False
    state = state or _state(record)  # parsed once, and only when an earlier search is live
    return any(service.question_holds(record, seat, question, state) for question in questions)


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
