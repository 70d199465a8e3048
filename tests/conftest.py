"""Shared fixtures: a real Redis server (started per test session on a free port), and a real
Redis Cluster (3 masters, 3 replicas) for the tests that run against both; and a check that
``--dist loadgroup`` does group."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from scripts.localcluster import LocalCluster, start_cluster
from scripts.localredis import free_port, start_redis
from shared.infra.redis_client import RedisClient, connect

#: On an xdist worker, the node ids of the tests ``--dist loadgroup`` failed to group.
UNGROUPED = pytest.StashKey[set[str]]()


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests that ``--dist loadgroup`` would not group. xdist keeps an
    ``xdist_group``'s tests on one worker (one RabbitMQ node, one cluster, one tournament
    worker) by suffixing their node ids with ``@<group>``; with pytest 9.2 the suffix no longer
    takes (pytest-xdist issue 1386), and the groups were silently spread over the workers."""
    if getattr(config.option, "loadgroup", False):  # set on an xdist worker
        config.stash[UNGROUPED] = {item.nodeid for item in items
                                   if item.get_closest_marker("xdist_group")
                                   and "@" not in item.nodeid}


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.nodeid in item.config.stash.get(UNGROUPED, set()):
        pytest.fail("--dist loadgroup did not group this test: this pytest and pytest-xdist "
                    "do not work together (pin them as constraints.txt does)", pytrace=False)


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
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    """A real Redis Cluster on loopback ports (started once per xdist worker that needs it)."""
    cluster = start_cluster(Path(tmp_path_factory.mktemp("cluster")))
    try:
        yield cluster
    finally:
        cluster.stop()


# The match store's contract holds on both: a test taking ``store_client`` runs on each. The
# cluster's runs share one xdist group, so one worker starts the cluster; they are ``slow``
# (starting six nodes), so ``make test-fast`` runs the single Redis only.
STORES = [pytest.param("redis", id="redis"),
          pytest.param("cluster", id="cluster",
                       marks=[pytest.mark.xdist_group("redis-cluster"), pytest.mark.slow])]


@pytest.fixture(params=STORES)
def store_client(request: pytest.FixtureRequest, redis_url: str) -> Iterator[RedisClient]:
    """An empty match store: the session's single Redis, or the session's Redis Cluster."""
    if request.param == "cluster":
        client = connect("", request.getfixturevalue("redis_cluster").nodes)
        client.flushall()
    else:
        client = connect(redis_url)
        client.flushdb()
    yield client
    client.close()


@pytest.fixture(scope="session")
def compiled_build() -> Path:
    """The compiled build of the current sources (``shared/infra/accel.py``), which the worker runs.

    ``make test`` builds it before pytest starts; this builds it if missing (about a minute),
    so the integration worker and ``tests/test_accel.py`` always test the build.
    """
    from shared.infra import accel

    return accel.build()
