"""Fixtures of the API tests: the app on the session's real Redis and its test client."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api import create_app
from shared.config import Settings


@pytest.fixture(scope="module")
def app(redis_url: str) -> Flask:
    # The broker is the same test Redis: created matches enqueue bot turns nobody runs here.
    settings = dataclasses.replace(Settings.from_env(), redis_url=redis_url,
                                   broker_url=redis_url)
    return create_app(settings)


@pytest.fixture
def client(app: Flask) -> Iterator[FlaskClient]:
    with app.test_client() as test_client:
        yield test_client
