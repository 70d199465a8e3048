"""The Evo Arena HTTP API (Flask): ``create_app()`` builds it; gunicorn serves ``api.wsgi:app``."""

from __future__ import annotations

from flask import Flask

from shared.config import Settings
from shared.queue import make_enqueue
from shared.service import MatchService
from shared.store import MatchStore


def create_app(settings: Settings | None = None) -> Flask:
    settings = settings or Settings.from_env()
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = settings.max_body_bytes
    app.json.sort_keys = False  # keep the documented field order
    app.extensions["evo.settings"] = settings
    app.extensions["evo.service"] = MatchService(
        MatchStore.from_url(settings.redis_url), make_enqueue(settings.broker_url),
        settings.idempotency_ttl)

    from api import docs, errors, games, health, matches

    errors.register(app)
    for module in (health, docs, games, matches):
        app.register_blueprint(module.bp)
    return app
