"""The Celery application of the worker (Redis as broker)."""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path
from typing import Any

from celery import Celery, signals

from shared.infra import accel
from shared.infra.config import Settings
from shared.infra.queue import (
    DEADLINE_SWEEP_TASK,
    NOTIFY_SWEEP_TASK,
    POOL_SWEEP_TASK,
    SWEEP_TASK,
    TOURNAMENT_SWEEP_TASK,
    celery_config,
)
from worker.logs import quiet_routine_task

settings = Settings.from_env()
app = Celery("evo-worker", include=["worker.tasks"])
app.conf.update(celery_config(settings.broker_url))
# The worker process outlives any Redis error. A full Redis answers the consumer's writes
# (acknowledging a message, declaring a queue) with an OOM *response* error, which kombu's
# Redis transport counts as a channel error: Celery stops the worker on one unless
# broker_channel_error_retry is on, and then restarts its consumer with the same back-off as
# after a lost connection. max_retries None: reconnect for as long as Redis is away.
app.conf.update(broker_channel_error_retry=True, broker_connection_retry=True,
                broker_connection_max_retries=None)
app.conf.beat_schedule = {
    "sweep-bot-turns": {"task": SWEEP_TASK, "schedule": max(1.0, settings.bot_stale_after / 2)},
    "sweep-deadlines": {"task": DEADLINE_SWEEP_TASK, "schedule": 1.0},
    "sweep-tournaments": {"task": TOURNAMENT_SWEEP_TASK, "schedule": 2.0},
    "sweep-notifications": {"task": NOTIFY_SWEEP_TASK, "schedule": 10.0},
    "sweep-pools": {"task": POOL_SWEEP_TASK, "schedule": 1.0},
}
# The sweeps run every few seconds; see worker.logs.
for routine in (SWEEP_TASK, DEADLINE_SWEEP_TASK, TOURNAMENT_SWEEP_TASK, NOTIFY_SWEEP_TASK,
                POOL_SWEEP_TASK):
    quiet_routine_task(routine)


@signals.import_modules.connect
def _run_the_compiled_build(**_: Any) -> None:
    """A worker runs the compiled engines and search when they are built for these sources.

    Celery sends this as the worker starts, before it imports the tasks and so any engine;
    a plain import of this module (tests, the API) leaves the import path alone.
    """
    if not _activation:
        _activation.append(accel.activate())


@signals.celeryd_init.connect
def _yield_the_cpu(**_: Any) -> None:
    """Lower the worker's CPU priority to ``WORKER_NICE`` before its pool forks (the pool's
    processes inherit it). Only ever lowered: an unprivileged process may not raise it."""
    if settings.worker_nice > os.getpriority(os.PRIO_PROCESS, 0):
        os.setpriority(os.PRIO_PROCESS, 0, settings.worker_nice)
    if settings.worker_nice > 0 and os.getsid(0) == os.getpid():
        _lower_the_autogroup(settings.worker_nice)


def _lower_the_autogroup(nice: int) -> None:
    """Give this session's scheduling autogroup the niceness ``nice`` as well (only lowered).

    Where the kernel groups processes by session (``sched_autogroup_enabled``, the default of
    most desktop and many server kernels), niceness only ranks processes *within* one
    session: two workers each started in a session of their own (``make run``) share the CPU
    half and half whatever their niceness, and the weight *between* sessions is the
    autogroup's. Only a session leader does this, so the group is its own and its pool's,
    never a terminal's. The kernel accepts one unprivileged change every 0.1 s machine-wide
    (EAGAIN otherwise), hence the retries; where there is no autogroup it is a no-op.
    """
    try:  # "/autogroup-42 nice 0"
        current = int(AUTOGROUP.read_text().split()[-1])
    except FileNotFoundError:  # a kernel without autogroups
        return
    except (OSError, ValueError) as error:  # unreadable: never stop the worker for it
        log.warning("scheduling autogroup left alone: %s", error)
        return
    if current >= nice:
        return
    for _ in range(20):
        try:
            AUTOGROUP.write_text(f"{nice}\n")
            return
        except BlockingIOError:  # EAGAIN: another process changed a group within 0.1 s
            time.sleep(0.11)
        except OSError as error:  # not allowed (a security module, a read-only /proc)
            log.warning("scheduling autogroup left alone: %s", error)
            return
    log.warning("scheduling autogroup left alone: the kernel kept answering EAGAIN")


@signals.worker_ready.connect
def _log_the_build(**_: Any) -> None:
    # Logged here, once the worker's logging is set up (it is not yet at import time).
    for activation in _activation:
        (log.info if activation.build else log.warning)(activation.message)


AUTOGROUP = Path("/proc/self/autogroup")
_activation: list[accel.Activation] = []
log = logging.getLogger(__name__)
