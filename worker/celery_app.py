"""The Celery application of the worker (Redis as broker)."""

from __future__ import annotations

from celery import Celery

from shared.config import Settings
from shared.queue import DEADLINE_SWEEP_TASK, SWEEP_TASK, TOURNAMENT_SWEEP_TASK, celery_config
from worker.logs import quiet_routine_task

settings = Settings.from_env()
app = Celery("evo-worker", include=["worker.tasks"])
app.conf.update(celery_config(settings.broker_url))
app.conf.beat_schedule = {
    "sweep-bot-turns": {"task": SWEEP_TASK, "schedule": max(1.0, settings.bot_stale_after / 2)},
    "sweep-deadlines": {"task": DEADLINE_SWEEP_TASK, "schedule": 1.0},
    "sweep-tournaments": {"task": TOURNAMENT_SWEEP_TASK, "schedule": 2.0},
}
# The sweeps run every few seconds; see worker.logs.
for routine in (SWEEP_TASK, DEADLINE_SWEEP_TASK, TOURNAMENT_SWEEP_TASK):
    quiet_routine_task(routine)
