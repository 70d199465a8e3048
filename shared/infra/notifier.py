"""One Redis pub/sub subscription per process, fanned out to every waiting client.

Long-polls and event streams wait for a version to change. Each used to hold a subscribed
connection of its own; a :class:`Hub` holds one for the whole process (a gunicorn worker):
a listener thread (a greenlet under gevent, whose monkey-patching makes ``threading``
cooperative) subscribes to the channels its waiters name, wakes the waiters of a channel
when a message arrives, and drops a channel when its last waiter leaves.

No wake-up is lost, because a waiter re-reads what it watches only once its channels are
confirmed subscribed (the server's reply to SUBSCRIBE), and again after any reconnect: the
hub wakes every waiter when its connection is lost or silently re-established, and confirms
their channels afresh. While unconfirmed (Redis away), a waiter re-reads once a second.

The hub only calls ``client.pubsub()``, so any client with redis-py's pub/sub interface
(a cluster client too) will do; :func:`hub_for` keeps one hub per client and process.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from shared.infra.redis_client import RedisClient

T = TypeVar("T")
log = logging.getLogger(__name__)

#: Seconds the listener blocks for a message before taking new channels to subscribe: the
#: longest a new waiter waits for its subscription (it is waiting for a change anyway).
POLL_SECONDS = 0.05
#: Seconds between re-reads of a waiter whose channels are not confirmed (Redis away).
UNCONFIRMED_RECHECK = 1.0
#: Seconds without a waiter after which the listener closes its connection and ends (the
#: next waiter starts another).
IDLE_SECONDS = 60.0
#: Called with +1 when a client starts waiting and -1 when it stops (the API's metrics).
waiting_hooks: list[Callable[[int], None]] = []


class _Waiter:
    """One waiting client: the channels it watches and the event that wakes it."""

    __slots__ = ("channels", "woken")

    def __init__(self, channels: Iterable[str]) -> None:
        self.channels = tuple(dict.fromkeys(channels))
        self.woken = threading.Event()


class Hub:
    """One subscribed connection serving every waiter of this process."""

    def __init__(self, client: RedisClient, poll_seconds: float = POLL_SECONDS) -> None:
        self._client = client
        self._poll = poll_seconds
        self._lock = threading.Lock()
        self._confirmed_changed = threading.Condition(self._lock)
        self._waiters: dict[str, set[_Waiter]] = {}
        self._sent: set[str] = set()  # SUBSCRIBE sent on the current connection
        self._pending: dict[str, int] = {}  # channel -> SUBSCRIBE replies still to come
        self._confirmed: set[str] = set()  # subscribed on the current connection
        # Always subscribed, so the connection never drops to the unsubscribed state
        # (where redis-py stops reading replies); nobody publishes on it.
        self._anchor = f"evo:hub:{socket.gethostname()}:{os.getpid()}:{id(self)}"
        self._thread: threading.Thread | None = None
        self._pubsub: Any = None  # the listener's, read by the reconnect callback
        self._stopped = False
        self.reconnects = 0  # connections lost or re-established since the first

    # -- waiting ----------------------------------------------------------------------------
    def wait_on(self, channels: Iterable[str], read: Callable[[], T], seen: T,
                timeout: float) -> T:
        """Block until ``read()`` differs from ``seen`` (or is None) or ``timeout`` passes;
        returns the last ``read()``. Every change of what ``read`` returns must be announced
        on one of ``channels`` after it is made."""
        deadline = time.monotonic() + timeout
        waiter = _Waiter(channels)
        self._add(waiter)
        for hook in waiting_hooks:
            hook(1)
        try:
            while True:
                waiter.woken.clear()
                left = deadline - time.monotonic()
                subscribed = self._await_confirmed(waiter, min(max(left, 0.0),
                                                               UNCONFIRMED_RECHECK))
                current = read()  # after the confirmation: a later change wakes us
                left = deadline - time.monotonic()
                if current is None or current != seen or left <= 0:
                    return current
                waiter.woken.wait(left if subscribed else min(left, UNCONFIRMED_RECHECK))
        finally:
            self._remove(waiter)
            for hook in waiting_hooks:
                hook(-1)

    def subscribed_channels(self) -> set[str]:
        """The channels confirmed subscribed now (the anchor excluded)."""
        with self._lock:
            return self._confirmed - {self._anchor}

    def waiting(self) -> int:
        with self._lock:
            return len({w for waiters in self._waiters.values() for w in waiters})

    def _add(self, waiter: _Waiter) -> None:
        with self._lock:
            for channel in waiter.channels:
                self._waiters.setdefault(channel, set()).add(waiter)
            if self._thread is None and not self._stopped:
                # A new listener, a new connection: nothing is sent or confirmed on it yet.
                self._sent.clear()
                self._pending.clear()
                self._confirmed.clear()
                self._thread = threading.Thread(target=self._listen, daemon=True,
                                                name="evo-notifier")
                self._thread.start()

    def _remove(self, waiter: _Waiter) -> None:
        with self._lock:
            for channel in waiter.channels:
                waiters = self._waiters.get(channel)
                if waiters is not None:
                    waiters.discard(waiter)
                    if not waiters:
                        del self._waiters[channel]

    def _await_confirmed(self, waiter: _Waiter, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        with self._lock:
            while not self._confirmed.issuperset(waiter.channels):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._confirmed_changed.wait(left)
            return True

    # -- the listener -----------------------------------------------------------------------
    def stop(self) -> None:
        """Stop the listener (tests); waiters fall back to re-reading once a second."""
        with self._lock:
            self._stopped = True
            thread = self._thread
        if thread is not None:
            thread.join(timeout=5)

    def _listen(self) -> None:
        backoff = 0.1
        idle_since = time.monotonic()
        while True:
            pubsub = self._pubsub = self._client.pubsub()
            watched: Any = None
            try:
                while not self._retire(idle_since, IDLE_SECONDS):
                    self._sync(pubsub)
                    if pubsub.connection is not None and pubsub.connection is not watched:
                        # redis-py reconnects a pub/sub connection by itself and subscribes
                        # again; messages published meanwhile are gone, so hear of it.
                        watched = pubsub.connection
                        watched.register_connect_callback(self._reconnected)
                    message = pubsub.get_message(timeout=self._poll)
                    if message is not None:
                        self._dispatch(message)
                    if self._waiters:
                        idle_since = time.monotonic()
                    backoff = 0.1
                return
            except Exception as exc:  # any failure: a fresh connection, never a dead hub
                self._forget_connection()
                if self._retire(idle_since, 0):  # nobody waits: no reason to reconnect
                    return
                log.warning("notifier lost its Redis connection (%r); reconnecting in %.1fs",
                            exc, backoff)
                time.sleep(backoff)
                backoff = min(backoff * 2, 2.0)
            finally:
                with contextlib.suppress(Exception):  # closing a broken connection
                    pubsub.close()

    def _retire(self, idle_since: float, idle_seconds: float) -> bool:
        """Whether the listener should end (stopped, or nobody waited for ``idle_seconds``);
        decided under the lock, so a waiter arriving now starts a new one."""
        with self._lock:
            if self._stopped or (not self._waiters
                                 and time.monotonic() - idle_since >= idle_seconds):
                self._thread = None
                return True
            return False

    def _sync(self, pubsub: Any) -> None:
        """Subscribe to newly watched channels, unsubscribe from ones nobody watches."""
        with self._lock:
            wanted = set(self._waiters) | {self._anchor}
            new, old = wanted - self._sent, self._sent - wanted
            for channel in new:
                self._pending[channel] = self._pending.get(channel, 0) + 1
            self._sent = wanted
            # Unconfirmed at once: the reply to an earlier SUBSCRIBE of a channel dropped here
            # and wanted again must not confirm the new subscription (pending counts them).
            self._confirmed -= old
        if old:
            pubsub.unsubscribe(*old)
        if new:
            pubsub.subscribe(*new)

    def _dispatch(self, message: dict[str, Any]) -> None:
        kind, channel = message["type"], message["channel"]
        if isinstance(channel, bytes):
            channel = channel.decode()
        with self._lock:
            if kind == "subscribe":
                left = self._pending.get(channel, 1) - 1
                if left > 0:
                    self._pending[channel] = left
                    return
                self._pending.pop(channel, None)
                if channel in self._sent:
                    self._confirmed.add(channel)
                    self._confirmed_changed.notify_all()
            elif kind == "message":
                for waiter in self._waiters.get(channel, ()):
                    waiter.woken.set()

    def _reconnected(self, connection: Any) -> None:
        """redis-py re-established the connection and re-sent SUBSCRIBE for its channels."""
        with self._lock:
            self.reconnects += 1
            # redis-py re-subscribes everything it still counts as subscribed, in one command.
            pubsub = self._pubsub
            channels = pubsub.channels if pubsub is not None else {}
            resent = {c.decode() if isinstance(c, bytes) else c for c in channels}
            self._sent = resent
            self._pending = dict.fromkeys(resent, 1)
            self._confirmed.clear()
            self._wake_all()

    def _forget_connection(self) -> None:
        with self._lock:
            self.reconnects += 1
            self._sent.clear()
            self._pending.clear()
            self._confirmed.clear()
            self._wake_all()

    def _wake_all(self) -> None:
        for waiters in self._waiters.values():
            for waiter in waiters:
                waiter.woken.set()
        self._confirmed_changed.notify_all()


_hubs: dict[int, tuple[int, Hub]] = {}
_hubs_lock = threading.Lock()


def hub_for(client: RedisClient) -> Hub:
    """This process's hub for ``client`` (a forked child gets a hub of its own)."""
    with _hubs_lock:
        found = _hubs.get(id(client))
        if found is None or found[0] != os.getpid():
            found = (os.getpid(), Hub(client))
            _hubs[id(client)] = found
        return found[1]


def wait_on(client: RedisClient, channels: Sequence[str], read: Callable[[], T],
            seen: T, timeout: float) -> T:
    """Block until ``read()`` differs from ``seen`` or ``timeout`` passes; returns ``read()``.

    Every change is announced on one of ``channels``; the process's one subscription
    (this module) wakes the waiter, which costs no Redis connection of its own.
    """
    return hub_for(client).wait_on(channels, read, seen, timeout)
