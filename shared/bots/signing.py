"""Webhook signatures: every call carries ``Evo-Signature: t=<unix seconds>,v1=<hex>``.

``v1`` is HMAC-SHA256, keyed with the account's webhook secret (the whole ``whsec_…`` string,
UTF-8), of the timestamp, a full stop and the request body exactly as sent:
``f"{t}.".encode() + body``. A receiver recomputes it, compares in constant time and refuses
a timestamp more than ``TOLERANCE_SECONDS`` away from its clock (a replayed call). The
secret is shown to the account's owner once, at registration or when rotated
(``POST /v1/me/webhook-secret``); docs/bots.md has the receiver's side in Python and Node.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time

HEADER = "Evo-Signature"
PREFIX = "whsec_"
TOLERANCE_SECONDS = 300


def new_secret() -> str:
    return PREFIX + secrets.token_urlsafe(32)


def signature(secret: str, body: bytes, timestamp: int) -> str:
    """The ``Evo-Signature`` header's value for ``body`` sent at ``timestamp``."""
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"t={timestamp},v1={digest.hexdigest()}"


def sign(secret: str, body: bytes) -> dict[str, str]:
    """The headers that sign ``body`` now."""
    return {HEADER: signature(secret, body, int(time.time()))}


def verify(secret: str, header: str, body: bytes, now: float | None = None,
           tolerance: float = TOLERANCE_SECONDS) -> bool:
    """The receiver's check (the one docs/bots.md shows): the header is well formed, its
    timestamp within ``tolerance`` of ``now`` and one of its ``v1`` values the body's MAC."""
    fields = [part.split("=", 1) for part in header.split(",") if "=" in part]
    stamps = [value for key, value in fields if key.strip() == "t"]
    if len(stamps) != 1 or not (stamps[0].strip().isascii() and stamps[0].strip().isdigit()):
        return False
    timestamp = int(stamps[0])
    if abs((time.time() if now is None else now) - timestamp) > tolerance:
        return False
    expected = signature(secret, body, timestamp).rsplit("=", 1)[1]
    return any(hmac.compare_digest(expected.encode(), value.strip().encode())
               for key, value in fields if key.strip() == "v1")
