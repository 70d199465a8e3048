"""Liveness and readiness probes."""

from __future__ import annotations

from flask import Blueprint, Response

from api.context import service, settings
from api.errors import problem
from shared.queue import broker_reachable

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz() -> dict[str, str]:
    """The process is up (no dependency is checked)."""
    return {"status": "ok"}


@bp.get("/readyz")
def readyz() -> dict[str, object] | Response:
    """Redis and the broker are reachable."""
    checks = {"redis": _redis_ok(), "broker": broker_reachable(settings().broker_url)}
    if all(checks.values()):
        return {"status": "ready", "checks": checks}
    return problem(503, "a dependency is unreachable", checks=checks)


def _redis_ok() -> bool:
    try:
        return service().store.ping()
    except Exception:  # any client error means "not ready"
        return False
