"""Prometheus metrics at ``/metrics`` (prometheus_client).

Per request: counts and latencies by route template and status. Moves accepted over the API
and store errors by kind are counted here; the bot queues' lengths and the worker's counters
(bot moves, search times, sweeps; ``shared.infra.stats``) are read from Redis at scrape time.

Under gunicorn every worker process counts on its own; ``gunicorn.conf.py`` sets
``PROMETHEUS_MULTIPROC_DIR`` so that a scrape (served by any one worker) adds them all up.
"""

from __future__ import annotations

import functools
import logging
import os
import time
from collections.abc import Iterator
from typing import Any

from flask import Flask, Response, g, request
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily
from prometheus_client.metrics_core import Metric
from prometheus_client.registry import Collector

from shared.infra import notifier, stats
from shared.infra.monitoring import Monitoring

log = logging.getLogger(__name__)

REQUESTS = Counter("evo_http_requests_total", "HTTP requests by route template and status",
                   ["method", "route", "status"])
LATENCY = Histogram("evo_http_request_duration_seconds",
                    "Time to the response's first byte, by route template",
                    ["method", "route"],
                    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10))
MOVES = Counter("evo_moves_accepted_total",
                "Moves answered as accepted over the API (a replayed keyed answer too)")
WAITING = Gauge("evo_waiting_clients", "Long-polls and event streams waiting for a change "
                "(all share their process's one Redis subscription)",
                multiprocess_mode="livesum")
STORE_ERRORS = Counter("evo_store_errors_total", "Redis errors answered as 503/507, by kind",
                       ["kind"])


# A metric's child per label values, looked up once: ``labels()`` checks and converts its
# arguments on every call, and these two run on every request.
@functools.cache
def _latency(method: str, route: str) -> Any:
    return LATENCY.labels(method, route)


@functools.cache
def _requests(method: str, route: str, status: int) -> Any:
    return REQUESTS.labels(method, route, str(status))


class WorkerStats(Collector):
    """Bot queue lengths and the worker's counters, read at scrape time (through the
    monitoring service: the store's Redis, the broker's)."""

    def __init__(self, app: Flask) -> None:
        self.app = app

    def collect(self) -> Iterator[Metric]:
        monitoring: Monitoring = self.app.extensions["evo.monitoring"]
        try:
            lengths = monitoring.queue_lengths()
            counters = monitoring.worker_counters()
        except Exception as exc:  # a scrape must answer even when the store does not
            log.warning("metrics: could not read the worker's counters: %s", exc)
            return
        queue = GaugeMetricFamily("evo_bot_queue_length", "Tasks waiting in a Celery queue",
                                  labels=["queue"])
        for name, length in lengths.items():
            queue.add_metric([name], length)
        yield queue
        yield CounterMetricFamily("evo_bot_moves_total", "Moves accepted from the worker",
                                  value=counters.get("bot_moves", 0))
        sweeps = CounterMetricFamily("evo_sweeps_total", "Periodic sweeps run", labels=["sweep"])
        for name in ("bot_turns", "deadlines"):
            sweeps.add_metric([name], counters.get(f"sweeps_{name}", 0))
        yield sweeps
        buckets = [(str(bound), counters.get(f"search_le_{bound}", 0))
                   for bound in stats.SEARCH_BUCKETS]
        buckets.append(("+Inf", counters.get("search_count", 0)))
        yield HistogramMetricFamily("evo_bot_search_seconds", "Time a bot spent choosing a move",
                                    buckets=buckets,
                                    sum_value=counters.get("search_seconds_sum", 0))


def register(app: Flask) -> None:
    app.extensions["evo.store_errors"] = STORE_ERRORS
    app.extensions["evo.moves_accepted"] = MOVES
    worker_stats = WorkerStats(app)
    if WAITING.inc not in notifier.waiting_hooks:  # once per process, however many apps
        notifier.waiting_hooks.append(WAITING.inc)

    @app.before_request
    def start_timer() -> None:
        g.metrics_started = time.perf_counter()

    @app.after_request
    def observe(response: Response) -> Response:
        started = g.pop("metrics_started", None)
        # The route's template, never the raw path: ids would make unbounded label sets.
        route = request.url_rule.rule if request.url_rule is not None else "unmatched"
        if started is not None:
            _latency(request.method, route).observe(time.perf_counter() - started)
        _requests(request.method, route, response.status_code).inc()
        return response

    @app.get("/metrics")
    def metrics() -> Response:
        registry = CollectorRegistry()
        registry.register(worker_stats)
        if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            multiprocess.MultiProcessCollector(registry)  # every gunicorn worker's counts
            text = generate_latest(registry)
        else:  # one process (tests, flask run): its own counts
            text = generate_latest(REGISTRY) + generate_latest(registry)
        return Response(text, mimetype=CONTENT_TYPE_LATEST)
