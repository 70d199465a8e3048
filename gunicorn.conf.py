"""Gunicorn settings: gevent workers, so a long-poll, an event stream or a slow client costs a
greenlet, not a thread: a thousand watchers or half-sent requests cannot starve a move."""

import os

workers = int(os.environ.get("WEB_CONCURRENCY", 2))
worker_class = "gevent"  # gunicorn patches the standard library (sockets, select) at start
worker_connections = int(os.environ.get("GUNICORN_CONNECTIONS", 4000))  # per worker
timeout = 30  # the arbiter's heartbeat; greenlets keep it beating while streams idle
graceful_timeout = 10
# Keep a person's connection open while they think between moves (an idle one costs a
# parked greenlet, not a thread).
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", 75))
accesslog = "-"
# gunicorn >= 25 opens an admin socket by default (`gunicornc`: add or kill workers, shut the
# server down) at one path per user, so every instance on a host fights over it and the last
# one started takes it. Off unless a path is given for this instance.
if os.environ.get("GUNICORN_CONTROL_SOCKET"):
    control_socket = os.environ["GUNICORN_CONTROL_SOCKET"]
else:
    control_socket_disable = True

# Prometheus counters of every worker process, added up at scrape time (api/metrics.py): a
# fresh directory per server start, and a dead worker's live gauges dropped.
if "PROMETHEUS_MULTIPROC_DIR" not in os.environ:
    import tempfile

    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="evo-metrics-")


def child_exit(server: object, worker: object) -> None:
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)  # type: ignore[attr-defined]
