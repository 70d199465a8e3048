"""shared.infra.store_retry: a task rides out store errors with growing pauses, then gives up."""

from __future__ import annotations

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import OutOfMemoryError

from shared.infra.store_retry import with_store_retries


def test_store_errors_are_retried_with_growing_pauses() -> None:
    failures = [OutOfMemoryError("OOM command not allowed"), RedisConnectionError("reset"),
                OutOfMemoryError("OOM command not allowed")]
    pauses: list[float] = []

    def action() -> str:
        if failures:
            raise failures.pop(0)
        return "played"

    assert with_store_retries(action, "a test", first_delay=0.2, longest_delay=0.5,
                              sleep=pauses.append) == "played"
    assert len(pauses) == 3
    # Full jitter within [delay/2, delay], the delay doubling up to its cap.
    for pause, delay in zip(pauses, (0.2, 0.4, 0.5), strict=True):
        assert delay / 2 <= pause <= delay


def test_the_last_error_is_raised_after_the_time_allowed() -> None:
    calls = []

    def action() -> None:
        calls.append(1)
        raise OutOfMemoryError("OOM command not allowed")

    with pytest.raises(OutOfMemoryError):
        with_store_retries(action, "a test", give_up_after=0.05, first_delay=0.01,
                           longest_delay=0.01)
    assert len(calls) >= 2


def test_other_errors_are_not_retried() -> None:
    calls = []

    def action() -> None:
        calls.append(1)
        raise ValueError("a bug, not the store")

    with pytest.raises(ValueError):
        with_store_retries(action, "a test", sleep=lambda _: None)
    assert calls == [1]
