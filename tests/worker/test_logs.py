"""The worker's log filter drops the periodic sweep's routine lines and nothing else."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest
from celery.app import trace

from shared.infra.queue import BOT_TURN_TASK, SWEEP_TASK
from worker.logs import CELERY_TASK_LOGGERS, RoutineTaskFilter, quiet_routine_task


@pytest.fixture
def quiet() -> Iterator[None]:
    """The filter installed for one test; the loggers' filters are restored afterwards (one
    installed by importing ``worker.celery_app`` elsewhere in the session stays)."""
    loggers = [logging.getLogger(name) for name in CELERY_TASK_LOGGERS]
    before = [list(logger.filters) for logger in loggers]
    quiet_routine_task(SWEEP_TASK)
    yield
    for logger, filters in zip(loggers, before, strict=True):
        logger.filters = filters


def celery_lines(task: str, level: int = logging.INFO) -> None:
    """The lines Celery logs for one periodic task, in Celery's own formats."""
    context = {"name": task, "id": "abc", "runtime": 0.01, "return_value": 0, "args": "[]",
               "kwargs": "{}", "eta": "", "expires": "", "exc": "boom", "description": "raised"}
    logging.getLogger("celery.beat").log(level, "Scheduler: Sending due task %s (%s)",
                                         "sweep-bot-turns", task)
    logging.getLogger("celery.worker.strategy").log(level, trace.LOG_RECEIVED, context)
    logging.getLogger("celery.app.trace").log(level, trace.LOG_SUCCESS, context)


def test_routine_sweep_lines_are_dropped(quiet: None, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO):
        celery_lines(SWEEP_TASK)
    assert caplog.records == []


def test_bot_turn_lines_and_sweep_errors_are_kept(quiet: None,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO):
        celery_lines(BOT_TURN_TASK)
        celery_lines(SWEEP_TASK, logging.ERROR)
    assert len(caplog.records) == 6
    assert sum(SWEEP_TASK in r.getMessage() for r in caplog.records) == 3


def test_installing_twice_adds_one_filter(quiet: None) -> None:
    quiet_routine_task(SWEEP_TASK)
    for name in CELERY_TASK_LOGGERS:
        assert sum(isinstance(f, RoutineTaskFilter) for f in logging.getLogger(name).filters) == 1
