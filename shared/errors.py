"""Domain errors raised by the service layer; the API maps each to a problem+json status."""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """Base: ``status`` and ``title`` name the HTTP problem; the message is the detail."""

    status = 400
    title = "Bad request"

    def __init__(self, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.detail = detail
        self.extra = extra


class NotFound(ServiceError):
    status, title = 404, "Not found"


class Unauthorized(ServiceError):
    status, title = 401, "Unauthorized"


class Forbidden(ServiceError):
    status, title = 403, "Forbidden"


class Conflict(ServiceError):
    status, title = 409, "Conflict"


class Unprocessable(ServiceError):
    status, title = 422, "Unprocessable content"


class Unavailable(ServiceError):
    status, title = 503, "Service unavailable"
