"""Gunicorn settings: threaded workers so long-polls and event streams don't block others."""

import os

workers = int(os.environ.get("WEB_CONCURRENCY", 2))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", 32))
timeout = 120  # an SSE stream may idle between keep-alives; gthread keeps the worker alive
graceful_timeout = 10
# Keep a person's connection open while they think between moves (gthread holds idle ones).
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", 75))
accesslog = "-"
