"""Liveness and readiness probes."""

from __future__ import annotations

from flask import Blueprint, Response

from api.context import service, settings
from api.errors import problem
from shared.infra.queue import broker_reachable

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz() -> dict[str, str]:
    """The process is up (no dependency is checked)."""
    return {"status": "ok"}


@bp.get("/readyz")
def readyz() -> dict[str, object] | Response:
    """Redis is reachable and takes writes (a full store is not ready), and so is the broker."""
    checks = {"redis": _redis_ok(), "redis_writable": _redis_writable(),
              "broker": broker_reachable(settings().broker_url)}
    if all(checks.values()):
        return {"status": "ready", "checks": checks}
    detail = ("the match store takes no writes (out of memory or read-only)"
              if checks["redis"] and not checks["redis_writable"]
              else "a dependency is unreachable")
    return problem(503, detail, checks=checks)


def _redis_ok() -> bool:
    try:
        return service().store.ping()
    except Exception:  # any client error means "not ready"
        return False


def _redis_writable() -> bool:
    """A tiny write with a short expiry: refused when Redis is at ``maxmemory``."""
    try:
        return bool(service().store.redis.set("evo:readyz:probe", "1", px=10_000))
    except Exception:  # OOM, read-only replica, unreachable: not ready
        return False
