"""Webhook turns against a real Redis and a webhook on loopback: every call is signed with
the account's secret (as docs/bots.md tells a receiver to check, in Python and in Node), the
secret is rotated, and a failed call leaves only "no valid answer" on the public match log."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from shared.accounts.service import AccountService
from shared.bots import signing, webhooks
from shared.bots.webhooks import WebhookPolicy
from shared.infra.webhook_target import parse_networks
from shared.matches.service import MatchService
from shared.matches.store import MatchStore
from shared.services import match_service
from tests.shared.test_service import Recorder

ROOT = Path(__file__).resolve().parents[2]
LOOPBACK = parse_networks("127.0.0.0/8")
SECRET = "whsec_test-secret"


def doc_block(language: str) -> str:
    """The verification snippet of docs/bots.md in ``language``."""
    text = (ROOT / "docs/bots.md").read_text(encoding="utf-8")
    blocks = re.findall(rf"```{language}\n(.*?)```", text, re.S)
    return str(next(block for block in blocks if "function verified" in block
                    or "def verified" in block))


def forgeries(body: bytes) -> dict[str, tuple[str, bytes]]:
    """Header and body of calls a receiver must refuse, by what is wrong with them."""
    # Stale and future stamps well past the 300 s tolerance: a receiver started a few seconds
    # later (node on a loaded machine) must still find them outside it.
    now = int(time.time())
    return {"wrong secret": (signing.signature("whsec_guess", body, now), body),
            "stale": (signing.signature(SECRET, body, now - 900), body),
            "from the future": (signing.signature(SECRET, body, now + 900), body),
            "tampered body": (signing.signature(SECRET, body, now), body + b" "),
            "no v1": (f"t={now}", body), "no t": (signing.signature(SECRET, body, now)
                                                 .split(",", 1)[1], body),
            "not hex": (f"t={now},v1=zz\u00e9", body)}


def test_a_signature_is_the_hmac_of_the_timestamp_and_the_body() -> None:
    body = b'{"match":"m1","moves":[]}'
    header = signing.signature(SECRET, body, 1764800000)
    expected = hmac.new(SECRET.encode(), b"1764800000." + body, hashlib.sha256).hexdigest()
    assert header == f"t=1764800000,v1={expected}"
    assert signing.verify(SECRET, signing.sign(SECRET, body)[signing.HEADER], body)
    for why, (forged, sent) in forgeries(body).items():
        assert not signing.verify(SECRET, forged, sent), why


def test_the_python_verification_in_the_docs_agrees() -> None:
    namespace: dict[str, Any] = {}
    exec(doc_block("python"), namespace)  # the docs' own code, run as a reader would
    verified: Callable[[str, str, bytes], bool] = namespace["verified"]
    body = b'{"seat":1}'
    assert verified(SECRET, signing.sign(SECRET, body)[signing.HEADER], body)
    for why, (forged, sent) in forgeries(body).items():
        assert not verified(SECRET, forged, sent), why


@pytest.mark.skipif(shutil.which("node") is None, reason="no Node.js here")
def test_the_javascript_verification_in_the_docs_agrees() -> None:
    body = b'{"seat":1,"view":{"name":"\xc3\xa9"}}'
    cases = [("real", signing.sign(SECRET, body)[signing.HEADER], body),
             *((why, forged, sent) for why, (forged, sent) in forgeries(body).items())]
    script = doc_block("js") + (
        "const cases = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));\n"
        f"console.log(JSON.stringify(cases.map(([why, h, b]) => [why, verified("
        f"{json.dumps(SECRET)}, h, Buffer.from(b, 'base64'))])));\n")
    given = json.dumps([[why, header, base64.b64encode(sent).decode()]
                        for why, header, sent in cases])
    run = subprocess.run(["node", "-e", script], input=given, capture_output=True, text=True,
                         timeout=30, check=True)
    assert dict(json.loads(run.stdout)) == {why: why == "real" for why, _, _ in cases}


class VerifyingBot(ThreadingHTTPServer):
    """A webhook on loopback that checks each call's signature (401 if wrong), then answers
    ``answer(body)`` (a legal move by default)."""

    def __init__(self) -> None:
        self.secret = ""
        self.calls: list[tuple[bool, dict[str, Any]]] = []
        self.signed: list[tuple[str, bytes]] = []  # each call's Evo-Signature and body
        self.status, self.reply = 200, b""
        bot = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                header = self.headers.get("Evo-Signature", "")
                bot.signed.append((header, body))
                good = signing.verify(bot.secret, header, body)
                bot.calls.append((good, json.loads(body)))
                data = bot.reply or json.dumps(
                    {"move_id": json.loads(body)["moves"][0]["id"]}).encode()
                self.send_response(bot.status if good else 401)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        super().__init__(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server_address[1]}/evo"
        # A short poll: shutdown() waits up to one interval (0.5 s by default).
        threading.Thread(target=self.serve_forever, args=(0.02,), daemon=True).start()


@pytest.fixture
def bot() -> Iterator[VerifyingBot]:
    server = VerifyingBot()
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture
def services(store_client: Any) -> tuple[MatchService, AccountService]:
    matches = match_service(MatchStore(store_client), Recorder())
    return matches, AccountService(matches.accounts, matches, LOOPBACK)


def webhook_match(matches: MatchService, account_id: str) -> Any:
    record, _ = matches.create_match("savanna", {}, 3, [
        {"kind": "account", "account": account_id}, {"kind": "human"}], move_deadline=5,
        accepted=[account_id])  # created with the account's key
    return record


def seat_0_to_move(matches: MatchService, match_id: str) -> Any:
    """The match once seat 0 (the webhook's) has a move to make: seat 1 plays till then."""
    record = matches.load(match_id)
    while not matches.legal_moves(record, 0):
        move = matches.legal_moves(record, 1)[0]["move"]
        matches.submit_move(match_id, 1, record.version, move)
        record = matches.load(match_id)
    return record


def last_timeout(matches: MatchService, match_id: str) -> dict[str, Any]:
    return [e for e in matches.entries(match_id) if "timeout" in e][-1]


def test_a_webhook_turn_is_signed_with_the_accounts_secret_and_rotation_takes_over(
        services: tuple[MatchService, AccountService], bot: VerifyingBot) -> None:
    matches, accounts = services
    account, _ = accounts.create("Hooky", bot.url)
    bot.secret = accounts.new_webhook_secret(account["id"])
    policy = WebhookPolicy(LOOPBACK, 5)
    record = webhook_match(matches, account["id"])
    assert webhooks.play_turn(matches, record, 0, policy, 5) == "played"
    assert [good for good, _ in bot.calls] == [True]
    old = bot.secret
    bot.secret = accounts.new_webhook_secret(account["id"])
    assert bot.secret != old and bot.secret.startswith("whsec_")
    record = seat_0_to_move(matches, record.id)
    assert webhooks.play_turn(matches, record, 0, policy, 5) == "played"
    assert [good for good, _ in bot.calls] == [True, True]
    bot.secret = old  # a receiver still holding the old secret refuses the new calls
    record = seat_0_to_move(matches, record.id)
    assert webhooks.play_turn(matches, record, 0, policy, 5) == "timeout"
    assert [good for good, _ in bot.calls] == [True, True, False]
    assert last_timeout(matches, record.id)["timeout"] == {"reason": "no valid answer"}


def test_an_account_without_a_secret_gets_one_at_its_first_call(
        services: tuple[MatchService, AccountService], bot: VerifyingBot) -> None:
    """Accounts registered before calls were signed: their calls are signed too, with a
    secret their owner learns by rotating it."""
    matches, accounts = services
    account, _ = accounts.create("Older", bot.url)
    record = webhook_match(matches, account["id"])
    assert webhooks.play_turn(matches, record, 0, WebhookPolicy(LOOPBACK, 5), 5) == "timeout"
    bot.secret = matches.webhook_secret(account["id"], "whsec_unused")
    assert bot.secret.startswith("whsec_") and bot.secret != "whsec_unused"
    assert not bot.calls[0][0] and signing.verify(bot.secret, *bot.signed[0])  # made for it
    record = seat_0_to_move(matches, record.id)
    assert webhooks.play_turn(matches, record, 0, WebhookPolicy(LOOPBACK, 5), 5) == "played"


@pytest.mark.parametrize("failure", ["refused", "status", "not json", "illegal", "too long"])
def test_the_public_log_says_only_no_valid_answer(
        failure: str, services: tuple[MatchService, AccountService], bot: VerifyingBot) -> None:
    matches, accounts = services
    account, _ = accounts.create("Leaky", bot.url)
    bot.secret = accounts.new_webhook_secret(account["id"])
    allowed = [] if failure == "refused" else LOOPBACK  # registered, then the policy changed
    bot.status = 500 if failure == "status" else 200
    bot.reply = {"status": b"redis_version:7.2.4 internal banner", "not json": b"+PONG\r\n",
                 "illegal": b'{"move_id": "INTERNAL-BANNER"}',
                 "too long": b'{"move_id": "' + b"x" * 70_000 + b'"}'}.get(failure, b"")
    record = webhook_match(matches, account["id"])
    started = time.monotonic()
    assert webhooks.play_turn(matches, record, 0, WebhookPolicy(allowed, 5), 5) == "timeout"
    assert time.monotonic() - started < 5
    assert len(bot.calls) == (0 if failure == "refused" else 1)
    entry = last_timeout(matches, record.id)
    assert entry["timeout"] == {"reason": "no valid answer"}
    shown = json.dumps(matches.events(matches.load(record.id), None))
    for leak in ("127.0.0.1", "HTTP", "redis_version", "PONG", "INTERNAL", "xxxx", "refused"):
        assert leak not in shown, leak


def test_the_webhook_is_kept_as_the_check_read_it(
        services: tuple[MatchService, AccountService]) -> None:
    matches, accounts = services
    account, _ = accounts.create("Shouty", "HTTP://127.0.0.1.:8080?x=1#frag")
    assert account["webhook"] == "http://127.0.0.1:8080/?x=1"
    assert (matches.account(account["id"]) or {})["webhook"] == "http://127.0.0.1:8080/?x=1"
