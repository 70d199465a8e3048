"""Thin Celery tasks: they pass ids, re-check the world and call :mod:`worker.turns`."""

from __future__ import annotations

from functools import lru_cache

from shared.bot_catalogue import LONGEST_CAP
from shared.config import Settings
from shared.queue import BOT_TURN_TASK, SWEEP_TASK, make_enqueue
from shared.service import MatchService
from shared.store import MatchStore
from worker import turns
from worker.celery_app import app, settings


@lru_cache(maxsize=1)
def _service() -> MatchService:
    current = Settings.from_env()
    return MatchService(MatchStore.from_url(current.redis_url),
                        make_enqueue(current.broker_url), current.idempotency_ttl)


# A search stops itself at its cap; the soft limit is the backstop for one that does not (the
# exception it raises inside the search makes the bot fall back to a random legal move).
@app.task(name=BOT_TURN_TASK, acks_late=True, reject_on_worker_lost=True,
          soft_time_limit=LONGEST_CAP + 15, time_limit=LONGEST_CAP + 45)
def play_bot_turn(match_id: str, seat: int, version: int) -> str:
    return turns.play_bot_turn(_service(), match_id, seat, version, settings.bot_lease_seconds)


@app.task(name=SWEEP_TASK, ignore_result=True)
def sweep_bot_turns() -> int:
    return turns.sweep(_service(), settings.bot_stale_after)
