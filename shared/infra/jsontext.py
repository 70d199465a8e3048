"""JSON text on the request path: what a match keeps in Redis and what the API answers.

orjson, not the standard library's ``json``: a person's move encodes and decodes the match's
record, its engine state and two answers, and the standard encoder was the largest single
item of a move's CPU time (about 0.16 ms of 2.2 ms; docs/benchmarks.md). The text is plain
JSON either way, so what was stored by ``json.dumps`` reads back the same.

The text is compact (no spaces after ``,`` and ``:``) and UTF-8 rather than ``\\u`` escapes.
What orjson refuses to write (an integer past 64 bits, a lone surrogate in a string a client
sent) is written by ``json.dumps`` as before. Reading, orjson takes an integer past 64 bits
as a float: nothing the server keeps is that large (seeds are validated below 2**63).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import orjson

# Integer keys become strings, as json.dumps makes them (a record's per-seat maps); a date
# goes to the caller's ``default`` as with json.dumps (Flask writes it as an HTTP date).
_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME


def dumps(value: Any, default: Callable[[Any], Any] | None = None) -> str:
    """``value`` as compact JSON text (``default``: what to write for a type orjson does
    not know, as in ``json.dumps``)."""
    return dumps_bytes(value, default).decode()


def dumps_bytes(value: Any, default: Callable[[Any], Any] | None = None) -> bytes:
    """``value`` as compact JSON, UTF-8 bytes (a response body)."""
    try:
        return orjson.dumps(value, default, _OPTIONS)
    except TypeError:  # orjson.JSONEncodeError is one
        return json.dumps(value, default=default).encode()


def loads(text: str | bytes) -> Any:
    """The value JSON ``text`` holds."""
    return orjson.loads(text)
