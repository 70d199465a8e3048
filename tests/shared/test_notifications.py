"""Notifications against a real Redis (docs/notifications.md): one delivery id per piece of
news, the stream read after an id, attempts made once each (a repeated task does nothing),
the back-off, and the receivers of the docs (Python and Node) run as a reader would."""

from __future__ import annotations

import base64
import json
import re
import secrets
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
import redis

from scripts.localredis import free_port
from shared.bots import signing
from shared.infra.webhook_target import parse_networks
from shared.notifications.delivery import DeliveryPolicy
from shared.notifications.service import NotificationService
from shared.notifications.store import NotificationStore
from tests.shared.test_webhook_signing import SECRET, forgeries

ROOT = Path(__file__).resolve().parents[2]
POLICY = DeliveryPolicy(parse_networks("127.0.0.0/8"), timeout=2, retry_base=15,
                        retry_max=1920, max_attempts=3)


def service(client: redis.Redis, sent: list[tuple[str, str, int, float]]
            ) -> NotificationService:
    return NotificationService(NotificationStore(client, keep=5),  # type: ignore[arg-type]
                               lambda *args: sent.append(args), lambda _: SECRET, POLICY,
                               lambda url: url)


def test_the_same_news_is_one_notification_and_the_stream_reads_after_an_id(
        redis_client: redis.Redis) -> None:
    sent: list[tuple[str, str, int, float]] = []
    notes, account = service(redis_client, sent), secrets.token_hex(8)
    start = notes.last_id(account)
    first = notes.notify(account, "your_turn", {"match": "m", "seat": 0}, key="m:0:3")
    assert notes.notify(account, "your_turn", {"match": "m", "seat": 0}, key="m:0:3") == first
    second = notes.notify(account, "match_over", {"match": "m"}, key="over:m")
    assert [n["id"] for _, n in notes.after(account, start)] == [first, second]
    (middle, _), _ = notes.after(account, start)
    assert [n["id"] for _, n in notes.after(account, middle)] == [second]
    assert sent == []  # no webhook: nothing to send
    assert [d["state"] for d in notes.deliveries(account, 10)] == ["no_webhook"] * 2
    for n in range(6):  # the log and the stream keep the newest 5
        notes.notify(account, "challenge", {"id": n})
    assert len(notes.deliveries(account, 10)) == 5 and len(notes.after(account, "0-0")) == 5
    with pytest.raises(ValueError):
        notes.notify(account, "spam", {})


def test_an_attempt_is_made_once_and_a_failure_is_retried_with_back_off(
        redis_client: redis.Redis) -> None:
    sent: list[tuple[str, str, int, float]] = []
    notes, account = service(redis_client, sent), secrets.token_hex(8)
    notes.set_webhook(account, f"http://127.0.0.1:{free_port()}/down")  # nobody listens
    ident = notes.notify(account, "your_turn", {"match": "m"}, key="k")
    assert sent == [(account, ident, 0, 0.0)]
    assert notes.deliver(account, ident, 1) == "skipped"  # not the attempt that is due
    before = time.time()
    assert notes.deliver(account, ident, 0) == "pending"
    assert notes.deliver(account, ident, 0) == "skipped"  # the task again: already made
    (entry,) = notes.deliveries(account, 10)
    assert (entry["attempts"], entry["last_status"]) == (1, None)
    assert before + 15 <= entry["next_attempt_at"] <= time.time() + 15
    assert sent[-1] == (account, ident, 1, 15.0)
    assert notes.deliver(account, ident, 1) == "pending" and sent[-1][3] == 30.0
    assert notes.deliver(account, ident, 2) == "failed" and len(sent) == 3
    assert notes.redeliver(account, ident)["state"] == "pending"  # three more attempts
    assert sent[-1] == (account, ident, 3, 0.0)


def test_the_back_off_doubles_up_to_its_cap_for_about_an_hour() -> None:
    policy = DeliveryPolicy(())
    waits = [policy.delay(n) for n in range(1, policy.max_attempts)]
    assert waits == [15, 30, 60, 120, 240, 480, 960, 1920]
    assert 3000 < sum(waits) < 4500


def doc_block(language: str) -> str:
    text = (ROOT / "docs/notifications.md").read_text(encoding="utf-8")
    return str(next(block for block in re.findall(rf"```{language}\n(.*?)```", text, re.S)
                    if "accept" in block))


def test_the_python_receiver_of_the_docs_checks_and_drops_repeats() -> None:
    namespace: dict[str, Any] = {}
    exec(doc_block("python"), namespace)  # the docs' own code, run as a reader would
    accept = namespace["accept"]
    body = b'{"id":"n_1","kind":"your_turn"}'
    good = signing.sign(SECRET, body)[signing.HEADER]
    assert accept(SECRET, good, body, "n_1") == 200
    assert accept(SECRET, good, body, "n_1") == 200 and namespace["seen"] == {"n_1"}
    for why, (forged, sent) in forgeries(body).items():
        assert accept(SECRET, forged, sent, "n_2") == 401, why
    assert len(doc_block("python").strip().splitlines()) <= 14


@pytest.mark.skipif(shutil.which("node") is None, reason="no Node.js here")
def test_the_javascript_receiver_of_the_docs_checks() -> None:
    body = b'{"id":"n_1","data":{"name":"\xc3\xa9"}}'
    cases = [("real", signing.sign(SECRET, body)[signing.HEADER], body),
             *((why, forged, sent) for why, (forged, sent) in forgeries(body).items())]
    script = doc_block("js") + (
        "const cases = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));\n"
        f"console.log(JSON.stringify(cases.map(([why, h, b]) => [why, accept("
        f"{json.dumps(SECRET)}, h, Buffer.from(b, 'base64'), 'n_1')])));\n")
    given = json.dumps([[why, header, base64.b64encode(sent).decode()]
                        for why, header, sent in cases])
    run = subprocess.run(["node", "-e", script], input=given, capture_output=True, text=True,
                         timeout=30, check=True)
    assert dict(json.loads(run.stdout)) == {why: 200 if why == "real" else 401
                                            for why, _, _ in cases}


def test_the_sweep_sends_again_a_retry_whose_task_was_lost(redis_client: redis.Redis) -> None:
    sent: list[tuple[str, str, int, float]] = []
    notes, account = service(redis_client, sent), secrets.token_hex(8)
    notes.set_webhook(account, f"http://127.0.0.1:{free_port()}/down")
    ident = notes.notify(account, "match_over", {"match": "m"}, key="over:m")
    broker_up = notes.send
    notes.send = None  # the retry's task is lost (the broker away when it was to be sent)
    assert notes.deliver(account, ident, 0) == "pending" and len(sent) == 1
    notes.send = broker_up
    now = time.time()
    assert notes.sweep(now) == 0  # not overdue yet: the retry's own task may still come
    assert notes.sweep(now + 15 + POLICY.timeout + 31) == 1
    assert sent[-1] == (account, ident, 1, 0.0)
    assert notes.sweep(now + 15 + POLICY.timeout + 31) == 0  # held off: the task just sent
    assert notes.deliver(account, ident, 1) == "pending"  # the swept task makes its attempt
