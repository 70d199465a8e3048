"""The Celery application of the worker (Redis as broker)."""

from __future__ import annotations

from celery import Celery

from shared.config import Settings
from shared.queue import SWEEP_TASK, celery_config
from worker.logs import quiet_routine_task

settings = Settings.from_env()
app = Celery("evo-worker", include=["worker.tasks"])
app.conf.update(celery_config(settings.broker_url))
app.conf.beat_schedule = {
    "sweep-bot-turns": {"task": SWEEP_TASK, "schedule": max(1.0, settings.bot_stale_after / 2)},
}
quiet_routine_task(SWEEP_TASK)  # the sweep runs every few seconds; see worker.logs
