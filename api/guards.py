"""Checks every request passes before any route runs: ids, query parameters, body size.

* A match or tournament id must look like one (``ID_PATTERNS``): anything else names no
  match, so it is a 404 before Redis is asked (an id like ``{id}:tok`` would otherwise read
  another key of the match).
* Query parameters the contract does not declare for the operation are refused (422), read
  from ``openapi.yaml`` itself so the server and the contract cannot drift apart.
* A body longer than the limit is a 413 whether or not it declares its length (a chunked
  body is read up to the limit and no further).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from flask import Flask, request
from werkzeug.exceptions import RequestEntityTooLarge

from api.docs import spec
from shared.domain.errors import NotFound, Unprocessable

# Match ids: 16 hex digits, or a tournament's id and its slot number.
MATCH_ID = re.compile(r"[0-9a-f]{16}(-[0-9]{1,6})?")
TOURNAMENT_ID = re.compile(r"[0-9a-f]{16}")
INVITATION_ID = re.compile(r"(match|tournament)-[0-9a-f]{16}")
ID_PATTERNS = {"match_id": (MATCH_ID, "match"), "tournament_id": (TOURNAMENT_ID, "tournament"),
               "invitation_id": (INVITATION_ID, "invitation")}
_RULE_ARG = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")


@lru_cache(maxsize=1)
def declared_query_parameters() -> dict[tuple[str, str], frozenset[str]]:
    """(method, path template) -> the query parameters ``openapi.yaml`` declares for it."""
    contract = spec()
    shared = contract.get("components", {}).get("parameters", {})

    def resolve(param: dict[str, Any]) -> dict[str, Any]:
        ref = param.get("$ref", "")
        return shared[ref.rsplit("/", 1)[-1]] if ref else param

    out = {}
    for path, item in contract["paths"].items():
        common = [resolve(p) for p in item.get("parameters", [])]
        for method, operation in item.items():
            if method == "parameters" or not isinstance(operation, dict):
                continue
            params = common + [resolve(p) for p in operation.get("parameters", [])]
            out[(method.upper(), path)] = frozenset(p["name"] for p in params
                                                    if p.get("in") == "query")
    return out


def check_ids() -> None:
    for name, value in (request.view_args or {}).items():
        if name in ID_PATTERNS:
            pattern, what = ID_PATTERNS[name]
            if not (isinstance(value, str) and pattern.fullmatch(value)):
                raise NotFound(f"no {what} with id {value!r}")


def check_query() -> None:
    # The raw query string first: most requests have none, and parsing one costs a MultiDict.
    if not request.environ.get("QUERY_STRING") or request.url_rule is None or not request.args:
        return
    template = _RULE_ARG.sub(r"{\1}", request.url_rule.rule)
    method = "GET" if request.method == "HEAD" else request.method
    allowed = declared_query_parameters().get((method, template))
    if allowed is None:  # a route the contract does not describe (static files, docs)
        return
    unknown = sorted(set(request.args) - allowed)
    if unknown:
        raise Unprocessable(f"unknown query parameter(s): {', '.join(unknown)}",
                            errors={name: ["Unknown field."] for name in unknown})


def check_body_size(limit: int) -> None:
    """413 for a body over ``limit`` bytes, read from the stream when no length is declared."""
    if request.method in ("GET", "HEAD") or request.content_length is not None:
        return  # werkzeug refuses a declared length over MAX_CONTENT_LENGTH itself
    # The raw input: werkzeug's own stream stops quietly at the limit, so a truncated body
    # would reach the JSON parser as a 400 instead of a 413.
    raw = request.environ.get("wsgi.input")
    if raw is None:
        return
    body = raw.read(limit + 1)
    if len(body) > limit:
        raise RequestEntityTooLarge()
    # Cache what was read so request.get_data() (and the JSON parser) see the whole body.
    request._cached_data = body


def register(app: Flask) -> None:
    limit = app.config["MAX_CONTENT_LENGTH"]

    @app.before_request
    def guard() -> None:
        check_ids()
        check_query()
        if limit:
            check_body_size(limit)
