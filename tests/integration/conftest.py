"""The real stack for integration tests: gunicorn serving the API and Celery worker processes,
both talking to the session's real redis-server (no eager mode, no mocked queue)."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import requests

from scripts.localredis import free_port
from scripts.stack import ROOT, UNLIMITED, start_api, start_worker, wait_healthy
from shared.infra.queue import BOT_QUEUE
from tests.integration import browsers
from tests.integration.page_language import LOCALES

HERE = Path(__file__).resolve().parent


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test of this folder is an integration test, so ``-m "not integration"`` (``make
    test-fast``) leaves it out. A conftest's ``pytestmark`` marks nothing: the four files
    without their own marker (flood, guards, rated end, schemathesis) ran in the fast set."""
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.integration)


@pytest.fixture(scope="session")
def redis_url(redis_url: str) -> str:
    """The stack's own database on the session's redis-server. Unit tests in the same xdist
    worker flush database 0 and build matches there; the stack's workers and their periodic
    sweeps must neither lose their data to that flush nor play those matches' bot turns."""
    assert redis_url.endswith("/0")
    return redis_url[:-1] + "1"


def stack_env(redis_url: str, broker_url: str | None = None) -> dict[str, str]:
    """The stack's settings: the match store on ``redis_url``, which is also the broker
    unless ``broker_url`` names another (e.g. RabbitMQ's ``amqp://``)."""
    env = dict(os.environ)
    env.update(REDIS_URL=redis_url, BROKER_URL=broker_url or redis_url, BOT_STALE_AFTER="2",
               BOT_LEASE_SECONDS="3", PYTHONPATH=str(ROOT), WEBHOOK_ALLOW="127.0.0.0/8",
               ACCOUNTS_PER_MINUTE="1000", TOURNAMENTS_PER_MINUTE="1000",
               TOURNAMENTS_PER_CLIENT="1000",
               FINISH_RETRY_AFTER="1", **UNLIMITED)
    # Notification webhooks retried within seconds, not an hour (docs/notifications.md).
    env.update(NOTIFY_RETRY_BASE_SECONDS="0.5", NOTIFY_RETRY_MAX_SECONDS="2",
               NOTIFY_MAX_ATTEMPTS="30")
    # A person's turn budget shorter than the default 5 s: even a `hard` chain's first
    # decision is then shrunk (half of 3 s), so the tests see it bind at once.
    env["TURN_BUDGET_SECONDS"] = TURN_BUDGET_SECONDS
    return env


TURN_BUDGET_SECONDS = "3"


class Worker:
    """A real Celery worker process (prefork pool) consuming ``queue``; the one of people's
    matches (``bots``) embeds the beat of the sweeps."""

    def __init__(self, redis_url: str, tmp: Path, queue: str = BOT_QUEUE,
                 broker_url: str | None = None) -> None:
        self.env = stack_env(redis_url, broker_url)
        self.tmp = tmp
        self.queue = queue
        self.process: subprocess.Popen[bytes] | None = None
        self.log = tmp / "worker.log"
        self.started_at = 0.0  # time.monotonic() of the last start

    def start(self) -> None:
        self.started_at = time.monotonic()
        with open(self.log, "ab") as log:
            # Only the worker of people's matches runs the beat (the periodic sweeps).
            schedule = self.tmp / "beat-schedule" if self.queue == BOT_QUEUE else None
            self.process = start_worker(self.env, schedule, log, own_session=True,
                                        queue=self.queue)

    def kill(self) -> None:
        """SIGKILL the worker and its pool children at once (a crash, not a shutdown)."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()


@contextmanager
def running_api(env: dict[str, str], tmp: Path, workers: int = 2, graceful: bool = False
                ) -> Iterator[str]:
    """The API under gunicorn (``workers`` processes) on a free port, with ``env``; its URL.
    Stopped with ``stop_api`` once its tests are done (``graceful``: gunicorn's graceful stop,
    as a deployment stops it)."""
    port = free_port()
    with open(tmp / "gunicorn.log", "wb") as log:
        process = start_api(env, f"127.0.0.1:{port}", log, workers=workers)
        url = f"http://127.0.0.1:{port}"
        try:
            wait_healthy(url, process)
            yield url
        finally:
            stop_api(process, graceful)


def stop_api(process: subprocess.Popen[bytes], graceful: bool = False) -> None:
    """Stop a test's gunicorn at once (SIGQUIT, gunicorn's quick shutdown), as its tests are
    done; or, ``graceful``, with SIGTERM.

    SIGTERM's graceful stop (what a deployment wants) lets a gevent worker finish every
    connection it holds, up to the graceful timeout (10 s, gunicorn.conf.py). It counts idle
    kept-alive connections too, which end only at the 75 s keep-alive (a client's pool the
    tests still hold), and event streams, which notice a gone client at their next write. So
    the stop took the whole 10 s whenever one was left. (A sync worker keeps no connection
    alive, and a gthread worker cuts kept-alive ones to 2 s when stopping: only gevent waits.)
    """
    process.send_signal(signal.SIGTERM if graceful else signal.SIGQUIT)
    process.wait(timeout=15)


@pytest.fixture(scope="session")
def api_url(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The API under gunicorn on a free port."""
    with running_api(stack_env(redis_url), tmp_path_factory.mktemp("api")) as url:
        yield url


@pytest.fixture(scope="session")
def worker(redis_url: str, tmp_path_factory: pytest.TempPathFactory,
           compiled_build: Path) -> Iterator[Worker]:
    running = Worker(redis_url, tmp_path_factory.mktemp("worker"))
    running.start()
    try:
        yield running
    finally:
        running.stop()


class Client:
    """A tiny HTTP client of the public API, as a third-party developer would write one."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.http = requests.Session()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the kept-alive connections (they hold a stopping gunicorn worker)."""
        self.http.close()

    def call(self, method: str, path: str, token: str | None = None, **kwargs: Any
             ) -> requests.Response:
        headers = kwargs.pop("headers", {})
        if token:
            headers["Authorization"] = f"Bearer {token}"
        return self.http.request(method, f"{self.base}{path}", headers=headers, timeout=70,
                                 **kwargs)

    def create(self, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
        """Create a match; an account's ``token`` (its key) takes that account's seats."""
        response = self.call("POST", "/v1/matches", token, json=body)
        assert response.status_code == 201, response.text
        return response.json()

    def match(self, match_id: str, token: str | None = None, **params: Any) -> dict[str, Any]:
        response = self.call("GET", f"/v1/matches/{match_id}", token, params=params)
        assert response.status_code == 200, response.text
        return response.json()

    def waiting_clients(self) -> float:
        """Long-polls and streams waiting in the API's notifiers, over all its processes."""
        text = self.call("GET", "/metrics").text
        return sum(float(line.split()[-1]) for line in text.splitlines()
                   if line.startswith("evo_waiting_clients"))

    def wait_finished(self, match_id: str, timeout: float) -> dict[str, Any]:
        """Long-poll until the match is over (fails after ``timeout`` seconds)."""
        deadline = time.monotonic() + timeout
        match = self.match(match_id)
        while match["status"] != "finished":
            assert time.monotonic() < deadline, f"match not finished: {match['status']}, " \
                                                f"v{match['version']}"
            match = self.match(match_id, version=match["version"], wait=5)
        return match


@pytest.fixture
def client(api_url: str) -> Iterator[Client]:
    with Client(api_url) as opened:
        yield opened


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium, once per test module (tests/integration/browsers.py)."""
    yield from browsers.chromium()


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A phone-sized page of its own context; a page error fails the test. A test
    parametrized with ``lang`` gets a browser asking for that language (page_language.py)."""
    lang = request.getfixturevalue("lang") if "lang" in request.fixturenames else None
    yield from browsers.phone_page(browser, LOCALES[lang] if lang else None)
