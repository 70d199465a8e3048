"""Calls to webhooks: to the address that was checked, within one deadline, a bounded answer.

``post`` parses the URL (:mod:`shared.infra.webhook_target`, the parser the registration
check uses), resolves its host now and checks every address, then connects to a checked
address itself: pinned, so no second lookup can answer differently (DNS rebinding). The Host
header is the URL's; for https the certificate is verified against the URL's host name, which
is also the SNI. No redirect is followed (a 3xx is an answer like any other).

One deadline bounds the whole exchange: connecting, the TLS handshake, sending and every read
each get only the time left, so a server that drips a byte a second holds the call no longer
than the deadline. The answer is read to at most ``max_bytes`` (and its headers to
``HEADER_BYTES``): a flood costs that much memory, no more. The name lookup is bounded by the
same deadline.
"""

from __future__ import annotations

import http.client
import io
import socket
import ssl
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

import certifi

from shared.infra.webhook_target import (
    Address,
    Network,
    RefusedTarget,
    Resolver,
    Target,
    parse,
    resolve,
)

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

#: Room for the status line and headers of an answer, on top of its body's cap.
HEADER_BYTES = 16 * 1024


class CallFailed(Exception):
    """The call got no answer to use; the message (for the server's log only) says why."""


@dataclass(frozen=True)
class Answer:
    status: int
    body: bytes


def post(url: str, body: bytes, headers: Mapping[str, str], *, seconds: float,
         allowed: Sequence[Network], max_bytes: int,
         resolver: Resolver = socket.getaddrinfo) -> Answer:
    """POST ``body`` to ``url``, pinned to a checked address, all of it within ``seconds``.

    :class:`CallFailed` for a refused URL or address, no connection, a deadline passed, an
    answer over ``max_bytes`` or anything else that is not a whole HTTP answer.
    """
    end = time.monotonic() + seconds
    try:
        target = parse(url)
        addresses = _in_time(end, lambda: resolve(target, allowed, resolver))
    except RefusedTarget as exc:
        raise CallFailed(f"refused: {exc}") from None
    connection = _PinnedConnection(target, addresses, end, max_bytes + HEADER_BYTES)
    try:
        connection.request("POST", target.path, body=body, headers={
            "Host": target.netloc, "Content-Type": "application/json",
            "Accept-Encoding": "identity", "Connection": "close",
            "User-Agent": "evo-arena-webhook", **headers})
        response = connection.getresponse()
        data = response.read(max_bytes + 1)
    except (OSError, http.client.HTTPException) as exc:  # timeouts and TLS errors included
        raise CallFailed(f"{type(exc).__name__}: {exc}"[:200]) from None
    finally:
        connection.close()
        connection.release()
    if len(data) > max_bytes:
        raise CallFailed(f"the answer is longer than {max_bytes} bytes")
    return Answer(response.status, data)


def _in_time(end: float, lookup: Callable[[], list[Address]]) -> list[Address]:
    """``lookup()``'s answer, if it comes before ``end``: a name server that answers slowly
    (the webhook's owner may run it) cannot hold the call either. The lookup left behind
    ends on its own (the system resolver's timeout) in its daemon thread."""
    box: list[list[Address] | BaseException] = []

    def run() -> None:
        try:
            box.append(lookup())
        except BaseException as exc:  # handed to the caller's thread as it is
            box.append(exc)

    thread = threading.Thread(target=run, daemon=True, name="webhook-lookup")
    thread.start()
    thread.join(max(0.0, end - time.monotonic()))
    if not box:
        raise CallFailed("the host did not resolve within the deadline")
    if isinstance(box[0], BaseException):
        raise box[0]
    return box[0]


class _PinnedConnection(http.client.HTTPConnection):
    """An HTTP(S) connection to one of the checked addresses (the first that takes it), never
    to whatever the URL's host would resolve to by then."""

    def __init__(self, target: Target, addresses: Sequence[Address], end: float,
                 limit: int) -> None:
        super().__init__(str(addresses[0]), target.port)
        self.target, self.addresses, self.end, self.limit = target, addresses, end, limit
        self.raw: socket.socket | None = None

    def connect(self) -> None:
        raw = self._first_to_answer()
        try:
            if self.target.scheme == "https":
                context = ssl.create_default_context(cafile=certifi.where())
                raw.settimeout(_left(self.end))  # the whole handshake, not each read
                raw = context.wrap_socket(raw, server_hostname=self.target.host)
        except BaseException:
            raw.close()
            raise
        # http.client only sends (sendall), reads (makefile) and closes: the wrapper does each
        # within the time left.
        self.raw = raw
        self.sock = cast(socket.socket, _DeadlineSocket(raw, self.end, self.limit))

    def _first_to_answer(self) -> socket.socket:
        """A connection to the first of the checked addresses that takes one (a name may
        have an IPv6 address this host cannot reach, then an IPv4 one that it can)."""
        failure: OSError = ConnectionError("no address")
        for address in self.addresses:
            try:
                return socket.create_connection((str(address), self.target.port),
                                                timeout=_left(self.end))
            except TimeoutError:
                raise
            except OSError as exc:
                failure = exc
        raise failure

    def release(self) -> None:
        """Close the socket (http.client's own ``close`` leaves it to the answer's reader)."""
        if self.raw is not None:
            self.raw.close()
            self.raw = None


def _left(end: float) -> float:
    left = end - time.monotonic()
    if left <= 0:
        raise TimeoutError("the deadline passed")
    return left


class _DeadlineSocket:
    """A socket whose every send and read gets only the time left until ``end``, and which
    reads ``limit`` bytes at most."""

    def __init__(self, sock: socket.socket, end: float, limit: int) -> None:
        self.sock, self.end, self.left_to_read = sock, end, limit

    def sendall(self, data: bytes) -> None:
        self.sock.settimeout(_left(self.end))  # sendall's timeout is for all of it
        self.sock.sendall(data)

    def makefile(self, mode: str = "rb") -> io.BufferedReader:
        return io.BufferedReader(_DeadlineReader(self))

    def recv_into(self, buffer: memoryview) -> int:
        if self.left_to_read <= 0:
            raise CallFailed("the answer is too long")
        self.sock.settimeout(_left(self.end))
        count = self.sock.recv_into(buffer[:self.left_to_read])
        self.left_to_read -= count
        return count

    def close(self) -> None:
        """Nothing: http.client closes the connection while the answer is still to be read
        (``_PinnedConnection.release`` closes the socket once the call is over)."""


class _DeadlineReader(io.RawIOBase):
    def __init__(self, sock: _DeadlineSocket) -> None:
        super().__init__()
        self.sock = sock

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: WriteableBuffer) -> int:
        return self.sock.recv_into(memoryview(buffer).cast("B"))
