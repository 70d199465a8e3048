"""The one place that turns exceptions into RFC 9457 ``application/problem+json`` responses."""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

from flask import Flask, Response, json
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from api.details import translate
from api.i18n import content_language, current_lang
from shared.domain.errors import ServiceError
from shared.infra.store_errors import StoreError, StoreFull, StoreTimeout, StoreUnreachable

log = logging.getLogger(__name__)
PROBLEM = "application/problem+json"


# RFC 9110 reason phrases: with ``type: about:blank`` the title is the status's phrase.
TITLES = {400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
          405: "Method Not Allowed", 409: "Conflict", 410: "Gone", 413: "Content Too Large",
          422: "Unprocessable Content", 429: "Too Many Requests", 500: "Internal Server Error",
          503: "Service Unavailable", 507: "Insufficient Storage"}
#: Seconds a client should wait before retrying when the store is full or unreachable.
RETRY_FULL, RETRY_UNREACHABLE = 30, 5


def problem(status: int, detail: str, **extra: Any) -> Response:
    """A problem response; its ``detail`` in the request's language where the catalogue has
    it (``Content-Language`` says which), its ``type`` and ``title`` always the same."""
    title = TITLES.get(status) or HTTPStatus(status).phrase
    detail, lang = translate(detail, current_lang())
    body = {"type": "about:blank", "title": title, "status": status, "detail": detail, **extra}
    return content_language(Response(json.dumps(body), status=status, mimetype=PROBLEM), lang)


def register(app: Flask) -> None:
    @app.errorhandler(ServiceError)
    def service_error(exc: ServiceError) -> Response:
        response = problem(exc.status, exc.detail, **exc.extra)
        response.headers.update(getattr(exc, "headers", {}))  # e.g. a 429's Retry-After
        return response

    @app.errorhandler(ValidationError)
    def validation_error(exc: ValidationError) -> Response:
        messages = exc.normalized_messages()
        return problem(422, _summary(messages), errors=messages)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Response:
        detail = exc.description or exc.name
        if exc.code == 413:
            detail = f"the body is larger than {app.config['MAX_CONTENT_LENGTH']} bytes"
        response = problem(exc.code or 500, detail)
        if isinstance(exc, MethodNotAllowed) and exc.valid_methods:
            response.headers["Allow"] = ", ".join(exc.valid_methods)
        return response

    @app.errorhandler(StoreError)
    def redis_error(exc: StoreError) -> Response:
        """Told apart: a full store (507), an unreachable one, any other store failure
        (503); each with a Retry-After. Nothing was written: every write is one atomic step."""
        kind, status, retry, detail = store_failure(exc)
        log.error("match store error (%s): %s", kind, exc)
        count_store_error(app, kind)
        response = problem(status, detail)
        response.headers["Retry-After"] = str(retry)
        return response

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> Response:  # never a stack trace to the client
        log.exception("unhandled error")
        return problem(500, "an unexpected error occurred; it has been logged")


def store_failure(exc: StoreError) -> tuple[str, int, int, str]:
    """(kind, status, Retry-After seconds, detail) for a Redis error."""
    if isinstance(exc, StoreFull) or "OOM command not allowed" in str(exc):
        return ("out_of_memory", 507, RETRY_FULL, "the match store is out of memory: it "
                "accepts no writes until space is freed; nothing was changed; retry later")
    if isinstance(exc, StoreUnreachable | StoreTimeout):
        return ("unreachable", 503, RETRY_UNREACHABLE,
                "the match store is unreachable; nothing was changed; retry later")
    return ("error", 503, RETRY_UNREACHABLE,
            "the match store failed the request; nothing was changed; retry later")


def count_store_error(app: Flask, kind: str) -> None:
    counter = app.extensions.get("evo.store_errors")
    if counter is not None:
        counter.labels(kind=kind).inc()


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
