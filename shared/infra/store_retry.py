"""Riding out store errors inside a task: wait with back-off and try again.

A full Redis (``maxmemory``) or one restarting refuses a write for seconds, not for good.
Retrying in the task keeps what it already has (a searched move) and needs no broker write,
which a full Redis would refuse too; only past ``give_up_after`` does the error reach
Celery's own retry (``autoretry_for``) and, failing that, the sweep.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from typing import TypeVar

from redis.exceptions import RedisError

T = TypeVar("T")
log = logging.getLogger(__name__)


def with_store_retries(action: Callable[[], T], what: str, give_up_after: float = 60.0,
                       first_delay: float = 0.2, longest_delay: float = 5.0,
                       sleep: Callable[[float], None] = time.sleep) -> T:
    """``action()``, run again after each Redis error with exponential back-off and full
    jitter (so the workers do not return in step) until ``give_up_after`` seconds have
    passed; then the last error is raised."""
    deadline = time.monotonic() + give_up_after
    delay = first_delay
    while True:
        try:
            return action()
        except RedisError as exc:
            left = deadline - time.monotonic()
            if left <= 0:
                raise
            pause = min(left, random.uniform(delay / 2, delay))
            log.warning("store error during %s (%s); retrying in %.1fs", what, exc, pause)
            sleep(pause)
            delay = min(delay * 2, longest_delay)
