"""Fixtures of the API tests: the app on the session's real Redis and its test client."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api import create_app
from shared.infra.config import Settings


@pytest.fixture(scope="module")
def app(redis_url: str) -> Flask:
    # The broker is the same test Redis: created matches enqueue bot turns nobody runs here.
    # Rate limits off here (0): tests/api/test_limits.py tests them with an app of its own.
    # So is the cap on running tournaments (nobody runs them here; test_tournament_limits).
    # No worker answers a hint here either: an asker gives up after 0.3 s, not 8.
    settings = dataclasses.replace(Settings.from_env(), redis_url=redis_url,
                                   broker_url=redis_url, matches_per_minute=0,
                                   joins_per_minute=0, moves_per_minute=0,
                                   bot_seats_per_client=0, tournaments_per_client=0,
                                   hint_wait_seconds=0.3)
    return create_app(settings)


@pytest.fixture
def client(app: Flask) -> Iterator[FlaskClient]:
    with app.test_client() as test_client:
        yield test_client
