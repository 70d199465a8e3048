"""Keep the worker's INFO log about bots: the periodic sweep's routine lines are dropped.

Beat sends the sweep every few seconds, and Celery would log three INFO lines each time
("Sending due task", "received", "succeeded"), burying the bot turns. The sweep logs on its
own (``shared.matches.bot_turns.sweep``) when it actually re-enqueues a turn; its failures
stay visible, since only records at INFO or below are filtered.
"""

from __future__ import annotations

import logging

#: Celery's loggers for beat sending a task, the worker receiving it and its outcome.
CELERY_TASK_LOGGERS = ("celery.beat", "celery.worker.strategy", "celery.app.trace")


class RoutineTaskFilter(logging.Filter):
    """Drops records at INFO or below that name ``task_name``."""

    def __init__(self, task_name: str) -> None:
        super().__init__()
        self.task_name = task_name

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno > logging.INFO or self.task_name not in record.getMessage()


def quiet_routine_task(task_name: str) -> None:
    """Install the filter on Celery's task loggers (before the pool forks, so children too)."""
    for name in CELERY_TASK_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RoutineTaskFilter) and f.task_name == task_name
                   for f in logger.filters):
            logger.addFilter(RoutineTaskFilter(task_name))
