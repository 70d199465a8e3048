"""Webhook bots on the real stack (gunicorn, Redis, a Celery worker): a bot that checks every
call's signature plays a whole match and refuses forged calls; a webhook that drips its
answer costs its seat no more than the move deadline; refused URLs are refused at
registration. The webhooks listen on 127.0.0.1 (the stack allows ``127.0.0.0/8``)."""

from __future__ import annotations

import json
import random
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
import requests

from shared.bots import signing
from tests.integration.conftest import Client, Worker

pytestmark = [pytest.mark.integration]

# A seat's moves in a 2-player Savanna match (docs/rules/savanna.md, S-2.2 and S-2.6).
MOVES_PER_SEAT = 40


class VerifyingBot:
    """A push bot that checks ``Evo-Signature`` with its secret before anything else
    (docs/bots.md): ``401`` if it fails, else a random legal move. Each call is recorded with
    its raw header and body, and whether it passed."""

    def __init__(self) -> None:
        self.secret = ""
        self.calls: list[dict[str, Any]] = []
        bot = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                header = self.headers.get(signing.HEADER, "")
                good = signing.verify(bot.secret, header, body)
                bot.calls.append({"header": header, "body": body, "good": good})
                if good:
                    move = random.choice(json.loads(body)["moves"])["id"]
                    self.answer(200, {"move_id": move})
                else:
                    self.answer(401, {"error": "bad signature"})

            def answer(self, status: int, data: dict[str, Any]) -> None:
                raw = json.dumps(data).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/evo"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def post(self, header: str, body: bytes) -> int:
        """A call as someone else could make it (the test's forgeries)."""
        return requests.post(self.url, data=body, timeout=10, headers={
            signing.HEADER: header, "Content-Type": "application/json"}).status_code


@pytest.fixture
def verifying_bot() -> Iterator[VerifyingBot]:
    bot = VerifyingBot()
    yield bot
    bot.server.shutdown()
    bot.server.server_close()


def register(client: Client, name: str, webhook: str) -> dict[str, Any]:
    response = client.call("POST", "/v1/accounts", json={"name": name, "webhook": webhook})
    assert response.status_code == 201, response.text
    return response.json()


def log_of(client: Client, match_id: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = client.call(
        "GET", f"/v1/matches/{match_id}/events").json()["events"]
    return events


def test_a_verifying_bot_plays_the_signed_calls_and_refuses_forged_ones(
        client: Client, worker: Worker, verifying_bot: VerifyingBot) -> None:
    account = register(client, "Verifier", verifying_bot.url)
    verifying_bot.secret = account["webhook_secret"]
    match = client.create({"game": "savanna", "seed": 11, "move_deadline": 10, "seats": [
        {"kind": "account", "account": account["id"]},
        {"kind": "bot", "bot": {"kind": "random"}}]}, account["key"])
    client.wait_finished(match["id"], timeout=120)
    # At least a call a move: one asked while the random bot moved is asked again.
    assert len(verifying_bot.calls) >= MOVES_PER_SEAT
    assert all(call["good"] for call in verifying_bot.calls)
    mine = [e for e in log_of(client, match["id"]) if e.get("seat") == 0 and "move" in e]
    assert len(mine) == MOVES_PER_SEAT and all(e["bot"]["kind"] == "webhook" for e in mine)

    # Forged calls: the receiver's check says no to each.
    real = verifying_bot.calls[-1]
    body, now = real["body"], int(time.time())
    assert verifying_bot.post(real["header"], body) == 200  # the real one, replayed at once
    forged = {"wrong secret": (signing.signature("whsec_guessed", body, now), body),
              "stale": (signing.signature(verifying_bot.secret, body, now - 600), body),
              "tampered body": (real["header"], body.replace(b'"seat":0', b'"seat":1')),
              "unsigned": ("", body)}
    assert body != forged["tampered body"][1]
    for why, (header, sent) in forged.items():
        assert verifying_bot.post(header, sent) == 401, why
    assert [call["good"] for call in verifying_bot.calls[-5:]] == [True] + [False] * 4


class DrippingHook:
    """A webhook that accepts, then sends its answer a byte every 0.2 s for a minute."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.server.getsockname()[1]}/drip"
        self.stop = threading.Event()
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            threading.Thread(target=self.drip, args=(conn,), daemon=True).start()

    def drip(self, conn: socket.socket) -> None:
        with conn:
            try:
                conn.recv(65536)
                for _ in range(300):
                    if self.stop.is_set():
                        return
                    conn.sendall(b"H")
                    time.sleep(0.2)
            except OSError:
                return

    def close(self) -> None:
        self.stop.set()
        self.server.close()


def test_a_dripping_webhook_costs_its_seat_the_deadline_only(client: Client,
                                                             worker: Worker) -> None:
    hook = DrippingHook()
    try:
        account = register(client, "Dripper", hook.url)
        started = time.monotonic()
        match = client.create({"game": "savanna", "seed": 12, "move_deadline": 1, "seats": [
            {"kind": "account", "account": account["id"]},
            {"kind": "bot", "bot": {"kind": "random"}}]}, account["key"])
        while True:
            timeouts = [e for e in log_of(client, match["id"])
                        if e.get("seat") == 0 and "timeout" in e]
            if timeouts or time.monotonic() - started > 30:
                break
            time.sleep(0.1)
        elapsed = time.monotonic() - started
    finally:
        hook.close()
    assert timeouts and timeouts[0]["timeout"] == {"reason": "no valid answer"}
    # The 1 s deadline, the worker picking the task up and the fallback move (the old
    # per-read timeout held the seat as long as the drip lasted: a minute).
    assert elapsed < 1 + 5


@pytest.mark.parametrize("webhook", ["http://127.0.0.1:6379\\@8.8.8.8/",
                                     "http://8.8.8.8@127.0.0.1:6379/",
                                     "http://2130706433:6379/", "http://0x7f.1:6379/"])
def test_ambiguous_webhook_urls_are_refused_at_registration(client: Client,
                                                            webhook: str) -> None:
    response = client.call("POST", "/v1/accounts", json={"name": "Sneaky", "webhook": webhook})
    assert response.status_code == 422 and response.json()["field"] == "webhook"
