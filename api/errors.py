"""The one place that turns exceptions into RFC 9457 ``application/problem+json`` responses."""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, json
from marshmallow import ValidationError
from redis.exceptions import RedisError
from werkzeug.exceptions import HTTPException

from shared.errors import ServiceError

log = logging.getLogger(__name__)
PROBLEM = "application/problem+json"


def problem(status: int, title: str, detail: str, **extra: Any) -> Response:
    body = {"type": "about:blank", "title": title, "status": status, "detail": detail, **extra}
    return Response(json.dumps(body), status=status, mimetype=PROBLEM)


def register(app: Flask) -> None:
    @app.errorhandler(ServiceError)
    def service_error(exc: ServiceError) -> Response:
        return problem(exc.status, exc.title, exc.detail, **exc.extra)

    @app.errorhandler(ValidationError)
    def validation_error(exc: ValidationError) -> Response:
        messages = exc.normalized_messages()
        return problem(422, "Invalid request", _summary(messages), errors=messages)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Response:
        detail = exc.description or exc.name
        if exc.code == 413:
            detail = f"the body is larger than {app.config['MAX_CONTENT_LENGTH']} bytes"
        response = problem(exc.code or 500, exc.name, detail)
        if exc.code == 405 and exc.valid_methods:
            response.headers["Allow"] = ", ".join(exc.valid_methods)
        return response

    @app.errorhandler(RedisError)
    def redis_error(exc: RedisError) -> Response:
        log.error("redis unavailable: %s", exc)
        return problem(503, "Service unavailable", "the match store is unreachable; retry "
                       "later")

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> Response:  # never a stack trace to the client
        log.exception("unhandled error")
        return problem(500, "Internal server error", "an unexpected error occurred; it has "
                       "been logged")


def _summary(messages: Any, prefix: str = "") -> str:
    """Flatten marshmallow's nested messages into one readable sentence."""
    if isinstance(messages, dict):
        parts = [_summary(value, f"{prefix}{key}." if prefix or key != "_schema" else "")
                 for key, value in messages.items()]
        return "; ".join(parts)
    if isinstance(messages, list) and all(isinstance(m, str) for m in messages):
        return f"{prefix.rstrip('.') or 'body'}: {' '.join(messages)}"
    if isinstance(messages, list):
        return "; ".join(_summary(m, prefix) for m in messages)
    return f"{prefix.rstrip('.')}: {messages}"
