"""Liveness and readiness probes."""

from __future__ import annotations

from flask import Blueprint, Response

from api.context import monitoring
from api.errors import problem

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz() -> dict[str, str]:
    """The process is up (no dependency is checked)."""
    return {"status": "ok"}


@bp.get("/readyz")
def readyz() -> dict[str, object] | Response:
    """Redis is reachable and takes writes (a full store is not ready), and so is the broker."""
    checks = monitoring().readiness()
    if all(checks.values()):
        return {"status": "ready", "checks": checks}
    detail = ("the match store takes no writes (out of memory or read-only)"
              if checks["redis"] and not checks["redis_writable"]
              else "a dependency is unreachable")
    return problem(503, detail, checks=checks)

