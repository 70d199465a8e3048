"""The Evo Arena HTTP API (Flask): ``create_app()`` builds it; gunicorn serves ``api.wsgi:app``."""

from __future__ import annotations

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from api.json_provider import FastJSONProvider
from shared import services
from shared.infra.config import Settings


def create_app(settings: Settings | None = None) -> Flask:
    settings = settings or Settings.from_env()
    app = Flask(__name__)
    app.json = FastJSONProvider(app)
    app.config["MAX_CONTENT_LENGTH"] = settings.max_body_bytes
    app.extensions["evo.settings"] = settings
    built = services.build(settings)
    app.extensions["evo.service"] = built.matches
    app.extensions["evo.accounts"] = built.accounts
    app.extensions["evo.invitations"] = built.invitations
    app.extensions["evo.tournaments"] = built.tournaments
    app.extensions["evo.monitoring"] = built.monitoring
    app.extensions["evo.limiter"] = built.limiter
    app.extensions["evo.bot_cap"] = built.bot_cap
    app.extensions["evo.replays"] = built.replays
    app.extensions["evo.notifications"] = built.notifications
    app.extensions["evo.pools"] = built.pools

    from api import (
        accounts,
        docs,
        errors,
        games,
        guards,
        health,
        i18n,
        invitations,
        matches,
        me,
        metrics,
        notifications,
        pages,
        people,
        pools,
        ratings,
        replays,
        tournaments,
        web,
    )

    errors.register(app)
    i18n.register(app)
    metrics.register(app)
    guards.register(app)
    web.register(app)
    for module in (health, docs, pages, games, matches, accounts, me, invitations,
                   tournaments, ratings, replays, notifications, pools, people):
        app.register_blueprint(module.bp)
    app.register_blueprint(docs.try_it)
    if settings.proxy_hops > 0:
        # Behind a load balancer every request comes from it: the client's own address (for
        # the per-address limits) is in X-Forwarded-For, written by the trusted hops only.
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=settings.proxy_hops,  # type: ignore[method-assign]
                                x_proto=settings.proxy_hops)
    return app
