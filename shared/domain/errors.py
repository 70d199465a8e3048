"""Domain errors raised by the service layer; the API maps each to a problem+json status."""

from __future__ import annotations

import math
from typing import Any


class ServiceError(Exception):
    """Base: ``status`` is the HTTP status of the problem; the message is its detail."""

    status = 400

    def __init__(self, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.detail = detail
        self.extra = extra


class NotFound(ServiceError):
    status = 404


class Unauthorized(ServiceError):
    status = 401


class Forbidden(ServiceError):
    status = 403


class Conflict(ServiceError):
    status = 409


class UnderWay(Conflict):
    """409: an earlier request with the same Idempotency-Key is still being handled; the
    same request sent again after ``Retry-After`` gets its answer."""

    def __init__(self) -> None:
        super().__init__("a request with this Idempotency-Key is still being handled; send "
                         "it again in a moment", retry_after=1)
        self.headers = {"Retry-After": "1"}


class Gone(ServiceError):
    """The match existed but what was asked is no longer kept or can no longer be served."""

    status = 410


class Unprocessable(ServiceError):
    status = 422


class TooManyRequests(ServiceError):
    """Rate-limited: ``retry_after`` whole seconds, in the body and the ``Retry-After`` header."""

    status = 429

    def __init__(self, detail: str, retry_after: float) -> None:
        seconds = max(1, math.ceil(retry_after))
        super().__init__(detail, retry_after=seconds)
        self.headers = {"Retry-After": str(seconds)}


class Unavailable(TooManyRequests):
    """A dependency (the bot workers) did not answer in time; retry after ``retry_after``."""

    status = 503
