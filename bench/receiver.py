"""A notification webhook receiver on loopback, as an app's backend would run one.

Each path is one account's webhook (``secrets[path]`` is its signing secret). A request is
answered with ``check(secret, signature, body, delivery)``'s status (by default 200 when the
``Evo-Signature`` verifies, else 401) and kept in ``got`` with the time it arrived; waiters
on ``changed`` are woken. ``down()`` closes the port and ``up()`` opens the same one again.
Used by the notification tests and ``bench/bench_notify.py``.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from shared.bots import signing

#: ``check(secret, signature header, body, delivery id) -> HTTP status``.
Check = Callable[[str, str, bytes, str], int]


def signed(secret: str, header: str, body: bytes, delivery: str) -> int:
    """200 for a body signed with ``secret``, 401 otherwise."""
    return 200 if signing.verify(secret, header, body) else 401


class Receiver:
    """Keeps every request: ``{"path", "header", "body", "delivery", "status", "good",
    "note" (the parsed body if good, else None), "arrived" (epoch seconds)}``."""

    def __init__(self, check: Check = signed) -> None:
        self.check = check
        self.secrets: dict[str, str] = {}  # path -> the account's webhook secret
        self.got: list[dict[str, Any]] = []
        self.changed = threading.Condition()
        self.port = 0
        self.server: ThreadingHTTPServer | None = None
        self.up()

    def up(self) -> None:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                arrived = time.time()
                header = self.headers.get(signing.HEADER, "")
                delivery = self.headers.get("Evo-Delivery", "")
                status = receiver.check(receiver.secrets.get(self.path, "-"), header, body,
                                        delivery)
                good = status < 300
                with receiver.changed:
                    receiver.got.append({
                        "path": self.path, "header": header, "body": body,
                        "delivery": delivery, "status": status, "good": good,
                        "note": json.loads(body) if good else None, "arrived": arrived})
                    receiver.changed.notify_all()
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.port = self.server.server_address[1]
        # A short poll: shutdown() waits up to one interval (0.5 s by default).
        threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True).start()

    def down(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            self.server = None

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def notes(self, path: str) -> list[dict[str, Any]]:
        """The notifications that reached ``path`` and passed the check."""
        with self.changed:
            return [call["note"] for call in self.got if call["path"] == path and call["good"]]

    def refused(self) -> int:
        """How many requests failed the check."""
        with self.changed:
            return sum(not call["good"] for call in self.got)

    def wait_for(self, found: Callable[[], Any], seconds: float) -> Any:
        """``found()``'s first truthy answer, re-asked at each request; TimeoutError after
        ``seconds``."""
        with self.changed:
            answer = self.changed.wait_for(found, seconds)
        if not answer:
            raise TimeoutError(f"nothing found within {seconds} s")
        return answer
