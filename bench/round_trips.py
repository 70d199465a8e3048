"""Counting Redis round trips: every request a client sends and waits on counts once.

A single command is one round trip; a pipeline (transactional or not) sends all its commands
in one write and is one round trip too. Counting happens where redis-py writes to the socket
(``send_packed_command``), so it sees every client of the process: the API's, the worker's,
a script's. The count is per thread, so a waiter blocked in another thread (the pub/sub hub)
is not mixed in.

    with RoundTrips() as trips:
        service.submit_move(...)
    print(trips.count)
"""

from __future__ import annotations

import threading
from types import TracebackType
from typing import Any

from redis.connection import AbstractConnection

_local = threading.local()
_original = AbstractConnection.send_packed_command
_installed = threading.Lock()
_users = 0


def _counting_send(self: AbstractConnection, command: Any, check_health: bool = True) -> None:
    counters: list[RoundTrips] | None = getattr(_local, "counters", None)
    if counters:
        for counter in counters:
            counter.count += 1
    _original(self, command, check_health=check_health)


class RoundTrips:
    """A context manager counting this thread's Redis round trips while it is open."""

    def __init__(self) -> None:
        self.count = 0

    def __enter__(self) -> RoundTrips:
        global _users
        with _installed:
            if _users == 0:
                AbstractConnection.send_packed_command = _counting_send  # type: ignore[method-assign]
            _users += 1
        if not hasattr(_local, "counters"):
            _local.counters = []
        _local.counters.append(self)
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        global _users
        _local.counters.remove(self)
        with _installed:
            _users -= 1
            if _users == 0:
                AbstractConnection.send_packed_command = _original  # type: ignore[method-assign]
