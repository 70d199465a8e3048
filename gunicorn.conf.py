"""Gunicorn settings: gevent workers, so a long-poll, an event stream or a slow client costs a
greenlet, not a thread: a thousand watchers or half-sent requests cannot starve a move."""

import os
import traceback
from typing import Any

from gunicorn import glogging
from gunicorn.config import AccessLogFormat

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


def _problem_json_errors() -> None:
    """gunicorn answers a request it cannot read itself, before the app: a request line over
    its limit (414), headers over theirs (431), a malformed request (400). Its page is HTML,
    and the contract promises every error as problem+json (openapi.yaml's UriTooLong and
    HeaderFieldsTooLarge), so its writer is replaced by one that writes the problem. It is
    set here, in the arbiter, before the workers fork: every worker inherits it. With CORS
    open to any origin (the default) it says so too, as every answer of the app does (the
    request's Origin is not known here, so a list of origins gets nothing)."""
    import json

    from gunicorn import util

    # Only the settings module (plain os and dataclasses): the arbiter must import nothing
    # that opens sockets before a gevent worker patches them.
    from shared.infra.config import Settings

    origins = [o.strip() for o in Settings.from_env().cors_origins.split(",")]
    cors = "Access-Control-Allow-Origin: *\r\n" if "*" in origins else ""

    def write_error(sock: object, status_int: int, reason: str, mesg: str) -> None:
        body = json.dumps({"type": "about:blank", "title": reason, "status": status_int,
                           "detail": mesg or reason}).encode()
        head = (f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\n{cors}"
                f"Content-Type: application/problem+json\r\n"
                f"Content-Length: {len(body)}\r\n\r\n").encode("latin-1")
        util.write_nonblock(sock, head + body)  # type: ignore[no-untyped-call]

    util.write_error = write_error


_problem_json_errors()


class LeanAccessLogger(glogging.Logger):  # type: ignore[misc]
    """gunicorn's logger, writing its default access line without building every atom.

    For each request gunicorn's ``atoms()`` makes a dict of some twenty atoms plus one entry
    per request header, response header and WSGI environ variable (forty-odd), then wraps it
    again, to fill nine fields. The access log cost 0.13-0.18 ms of CPU a move (a read and a
    post); writing the line from the nine saves 0.05-0.10 ms of that (docs/benchmarks.md). A
    format other than the default (``--access-logformat``) goes through gunicorn's own code.
    """

    def access(self, resp: Any, req: Any, wsgi: dict[str, Any], request_time: Any) -> None:
        if not self.access_log_enabled:
            return
        if self.cfg.access_log_format != AccessLogFormat.default:
            super().access(resp, req, wsgi, request_time)
            return
        status = resp.status
        if isinstance(status, str):
            status = status.split(None, 1)[0]
        sent = getattr(resp, "sent", None)
        # The default format, '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s"',
        # each text with its quotes escaped as gunicorn's SafeAtoms does (no forged field).
        fields = [wsgi.get("REMOTE_ADDR", "-"), "-", self._get_user(wsgi) or "-",
                  self.now(), f"{wsgi['REQUEST_METHOD']} {wsgi['RAW_URI']} "
                  f"{wsgi['SERVER_PROTOCOL']}", status,
                  str(sent) if sent is not None else "-", wsgi.get("HTTP_REFERER", "-"),
                  wsgi.get("HTTP_USER_AGENT", "-")]
        host, ident, user, when, first, code, size, referer, agent = (
            v.replace('"', '\\"') if isinstance(v, str) else v for v in fields)
        line = f'{host} {ident} {user} {when} "{first}" {code} {size} "{referer}" "{agent}"'
        try:
            self.access_log.info(line)  # no arguments: logging formats nothing more
        except Exception:
            self.error(traceback.format_exc())


logger_class = LeanAccessLogger
