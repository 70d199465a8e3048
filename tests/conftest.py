"""Shared fixtures: a real Redis server (started per test session on a free port)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from scripts.localredis import free_port, start_redis


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real redis-server for this test session (no fakeredis)."""
    port = free_port()
    process = start_redis(Path(tmp_path_factory.mktemp("redis")), port, appendonly=False)
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture
def redis_client(redis_url: str) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    client.flushdb()
    yield client
    client.close()


@pytest.fixture(scope="session")
def compiled_build() -> Path:
    """The compiled build of the current sources (``shared/accel.py``), which the worker runs.

    ``make test`` builds it before pytest starts; this builds it if missing (about a minute),
    so the integration worker and ``tests/test_accel.py`` always test the build.
    """
    from shared import accel

    return accel.build()
