"""Thin Celery tasks: they pass ids, re-check the world and call :mod:`shared.bots.turns`,
:mod:`shared.bots.deadlines` or the tournament service."""

from __future__ import annotations

import math
import time
from functools import lru_cache
from typing import Any

from shared import services
from shared.accounts.service import parse_networks
from shared.bots import deadlines, turns
from shared.bots import hint_search as hints
from shared.bots.catalogue import HINT_TIME_LIMIT, LONGEST_CAP
from shared.bots.turn_budget import TurnBudget
from shared.bots.webhooks import WebhookPolicy
from shared.infra.config import Settings
from shared.infra.queue import (
    ANALYSIS_TASK,
    BOT_TURN_TASK,
    DEADLINE_SWEEP_TASK,
    HINT_TASK,
    MATCH_FINISHED_TASK,
    NOTIFY_SWEEP_TASK,
    NOTIFY_TASK,
    POOL_SWEEP_TASK,
    SWEEP_TASK,
    TOURNAMENT_SWEEP_TASK,
    TOURNAMENT_TICK_TASK,
)
from shared.infra.store_errors import StoreError
from shared.infra.store_retry import with_store_retries
from shared.replays.service import ANALYSIS_TIME_LIMIT
from worker.celery_app import app, settings


@lru_cache(maxsize=1)
def _services() -> services.Services:
    return services.build(Settings.from_env())


def _webhooks() -> WebhookPolicy:
    return WebhookPolicy(parse_networks(settings.webhook_allow),
                         settings.webhook_default_timeout, settings.webhook_max_answer_bytes)


#: A store error (Redis restarting, full) that outlasts a task's own retries
#: (``shared.infra.store_retry``) has Celery send the task again with back-off; if even that cannot
#: be sent, the sweeps find the work lost (no queued mark, no lease) and send it again.
STORE_RETRY: dict[str, Any] = {"autoretry_for": (StoreError,), "retry_backoff": 1,
                               "retry_backoff_max": 30, "retry_jitter": True,
                               "max_retries": 20}


# A search stops itself at its cap; the soft limit is the backstop for one that does not (the
# exception it raises inside the search makes the bot fall back to a random legal move). Celery
# takes whole seconds (its stubs say int): rounded up, a limit is never shorter than the cap.
@app.task(name=BOT_TURN_TASK, acks_late=True, reject_on_worker_lost=True,
          soft_time_limit=math.ceil(LONGEST_CAP + 15), time_limit=math.ceil(LONGEST_CAP + 45),
          **STORE_RETRY)
def play_bot_turn(match_id: str, seat: int, version: int) -> str:
    # Retried whole: before the turn's claim that is a clean start; after it, the rerun finds
    # its own lease and gives way, and the sweep hands the turn on once the lease expires.
    # The move's commit, the write a full Redis refuses, is retried inside the turn
    # (shared.matches.bot_turns).
    return with_store_retries(
        lambda: turns.play_bot_turn(_services().matches, match_id, seat, version,
                                    settings.bot_lease_seconds, _webhooks(),
                                    TurnBudget(settings.turn_budget_seconds)),
        f"the bot turn of match {match_id} seat {seat}", give_up_after=30.0)


@app.task(name=SWEEP_TASK, ignore_result=True)
def sweep_bot_turns() -> int:
    _services().monitoring.stats.count("sweeps_bot_turns")
    return turns.sweep(_services().matches, settings.bot_stale_after,
                       settings.stalled_expire_seconds)


@app.task(name=DEADLINE_SWEEP_TASK, ignore_result=True)
def sweep_deadlines() -> int:
    _services().monitoring.stats.count("sweeps_deadlines")
    return deadlines.sweep(_services().matches, settings.waiting_expire_seconds)


@app.task(name=POOL_SWEEP_TASK, ignore_result=True)
def sweep_pools() -> int:
    """A matching pass over every quick-play pool: windows widen and bots fill seats while
    nobody polls, and matches a dead API process formed are created."""
    return _services().pools.sweep()


@app.task(name=MATCH_FINISHED_TASK, acks_late=True, reject_on_worker_lost=True, **STORE_RETRY)
def match_finished(match_id: str) -> None:
    with_store_retries(lambda: _services().tournaments.match_finished(match_id),
                       f"the end of match {match_id}", give_up_after=30.0)


@app.task(name=TOURNAMENT_TICK_TASK, acks_late=True, reject_on_worker_lost=True, **STORE_RETRY)
def tick_tournament(tournament_id: str) -> None:
    with_store_retries(lambda: _services().tournaments.tick(tournament_id),
                       f"the scheduler of tournament {tournament_id}", give_up_after=30.0)


@app.task(name=TOURNAMENT_SWEEP_TASK, ignore_result=True)
def sweep_tournaments() -> int:
    """The backstop for a lost finish message: handle the ends still owed (ratings), run
    every running tournament's scheduler."""
    return _services().tournaments.sweep(settings.finish_retry_after)


# A hint's answer goes to the match store, where the API waits for it; nobody retries a lost
# one (the person asks again once the question's mark expires), so no late acknowledgement.
@app.task(name=HINT_TASK, ignore_result=True, acks_late=False,
          soft_time_limit=math.ceil(HINT_TIME_LIMIT), time_limit=math.ceil(HINT_TIME_LIMIT + 15))
def hint(match_id: str, seat: int, version: int) -> None:
    hints.answer(_services().matches, match_id, seat, version)


# A post-match analysis (shared.replays) on the tournament queue: nobody waits at a table for
# it. A lost one is sent again by the next ask once its mark expires: no late acknowledgement.
@app.task(name=ANALYSIS_TASK, ignore_result=True, acks_late=False,
          soft_time_limit=ANALYSIS_TIME_LIMIT, time_limit=ANALYSIS_TIME_LIMIT + 30)
def analyse_match(match_id: str, seat: int) -> None:
    _services().replays.compute(match_id, seat)
# Repeats are harmless: an attempt is made only while its delivery is pending at that attempt
# number, under a lease (a task redelivered by the broker, or overtaken by a redelivery, does
# nothing). A failed attempt sends the next one itself, with its back-off as the countdown.
@app.task(name=NOTIFY_TASK, acks_late=True, reject_on_worker_lost=True, **STORE_RETRY)
def deliver_notification(account_id: str, delivery_id: str, attempt: int) -> str:
    return _services().notifications.deliver(account_id, delivery_id, attempt)


@app.task(name=NOTIFY_SWEEP_TASK, ignore_result=True)
def sweep_notifications() -> int:
    """The backstop for a lost notification retry (shared.notifications)."""
    return _services().notifications.sweep(time.time())
