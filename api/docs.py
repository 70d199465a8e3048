"""The OpenAPI contract and a human-readable docs page (placeholder until the docs land)."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response

bp = Blueprint("docs", __name__)
SPEC_PATH = Path(__file__).resolve().parent.parent / "openapi.yaml"


@bp.get("/openapi.yaml")
def openapi_yaml() -> Response:
    return Response(SPEC_PATH.read_text(encoding="utf-8"), mimetype="application/yaml")
