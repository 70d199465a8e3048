"""One attempt of a notification's webhook delivery, and the back-off between attempts.

The call goes through :mod:`shared.infra.outbound` (the URL checked again after resolution,
the connection pinned to a checked address, one deadline for all of it, a bounded answer)
and is signed as bot webhooks are (:mod:`shared.bots.signing`, with the account's webhook
secret). Each request names its delivery (``Evo-Delivery``): a repeat of a delivery (a
retry after a lost answer, a redelivery) carries the same id, so the receiver drops it.
What the call met goes to the server's log only; the delivery log says the HTTP status, or
``null`` when there was no answer, so a webhook cannot be used to look around the network.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from shared.bots import signing
from shared.infra import outbound
from shared.infra.webhook_target import Network

log = logging.getLogger(__name__)

DELIVERY_HEADER = "Evo-Delivery"
EVENT_HEADER = "Evo-Event"
ATTEMPT_HEADER = "Evo-Attempt"
#: Bytes of a receiver's answer read (the answer is not used but for its status).
ANSWER_BYTES = 4096


@dataclass(frozen=True)
class DeliveryPolicy:
    allowed: Sequence[Network]  # non-public networks a webhook may target anyway
    timeout: float = 10.0  # seconds one attempt may take, all of it
    retry_base: float = 15.0  # seconds before the first retry, doubled after each
    retry_max: float = 1920.0  # the longest wait between two attempts
    max_attempts: int = 9  # attempts before a delivery is given up (15 s … 32 min: ~1 h)

    def delay(self, attempts: int) -> float:
        """Seconds to wait after ``attempts`` failed attempts."""
        return float(min(self.retry_max, self.retry_base * 2 ** max(0, attempts - 1)))


def attempt(note: dict[str, Any], state: dict[str, Any], url: str, secret: str,
            policy: DeliveryPolicy, account_id: str) -> tuple[dict[str, Any], float | None]:
    """Make attempt number ``state["attempts"]`` + 1 of ``note``'s delivery to ``url``:
    the new state, and the seconds until the next attempt (None: no more)."""
    made = int(state["attempts"]) + 1
    status: int | None = None
    if url:
        body = json.dumps(note, separators=(",", ":")).encode()
        headers = {**signing.sign(secret, body), DELIVERY_HEADER: note["id"],
                   EVENT_HEADER: note["kind"], ATTEMPT_HEADER: str(made)}
        try:
            status = outbound.post(url, body, headers, seconds=policy.timeout,
                                   allowed=policy.allowed, max_bytes=ANSWER_BYTES).status
        except outbound.CallFailed as exc:
            log.info("notification %s of account %s, attempt %s: %s", note["id"], account_id,
                     made, exc)
    now = time.time()
    new = {**state, "attempts": made, "last_status": status, "last_attempt_at": now}
    if not url:
        return {**new, "state": "no_webhook", "next_attempt_at": None}, None
    if status is not None and 200 <= status < 300:
        return {**new, "state": "delivered", "next_attempt_at": None}, None
    if made >= int(state.get("budget", policy.max_attempts)):
        return {**new, "state": "failed", "next_attempt_at": None}, None
    wait = policy.delay(made)
    return {**new, "state": "pending", "next_attempt_at": now + wait}, wait
