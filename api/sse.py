"""Server-sent event streams: one event per change, keep-alive comments, a bounded life."""

from __future__ import annotations

import json
import time
import zlib
from collections.abc import Callable, Iterator
from typing import Any

from flask import Response, stream_with_context

from api import web
from api.context import settings

KEEP_ALIVE_SECONDS = 15.0


def event(name: str, ident: int | str | None, data: dict[str, Any]) -> str:
    head = f"id: {ident}\n" if ident is not None else ""
    return f"{head}event: {name}\ndata: {json.dumps(data)}\n\n"


def stream(first: Iterator[str], wait: Callable[[float], Iterator[str] | None]) -> Response:
    """An event stream: the ``first`` events, then whatever each ``wait(seconds)`` yields
    (None ends the stream; nothing yielded sends a keep-alive), for ten times the longest
    long-poll (clients reconnect; ``EventSource`` does so by itself)."""
    limit = settings().max_wait_seconds * 10

    def generate() -> Iterator[str]:
        yield "retry: 2000\n\n"
        yield from first
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            events = wait(KEEP_ALIVE_SECONDS)
            if events is None:
                return
            sent = False
            for chunk in events:
                sent = True
                yield chunk
            if not sent:
                yield ": keep-alive\n\n"

    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no", "Vary": "Accept-Encoding"}
    text = generate()
    body: Iterator[str] | Iterator[bytes] = text
    if web.accepts_gzip():
        headers["Content-Encoding"] = "gzip"
        body = _gzipped(text)
    return Response(stream_with_context(body), mimetype="text/event-stream", headers=headers)


def _gzipped(chunks: Iterator[str]) -> Iterator[bytes]:
    """One gzip stream, flushed after every event so each arrives at once."""
    packer = zlib.compressobj(6, zlib.DEFLATED, 31)  # wbits 31: a gzip header and trailer
    for chunk in chunks:
        yield packer.compress(chunk.encode()) + packer.flush(zlib.Z_SYNC_FLUSH)
    yield packer.flush()
