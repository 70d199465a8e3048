"""Safe retries of the requests that hand out seat tokens: creating a match and joining a
seat. A client that lost the answer (a phone between networks) sends the request again with
the same ``Idempotency-Key`` and gets the same match, seat and tokens, never a second match
or a seat it cannot play.

Tokens are never stored in clear, so the answer cannot simply be kept: a token handed out
under a key is derived from that key and a random salt kept with the request's record
(HMAC-SHA256, as long as a fresh token). Only a client holding the key can have it again, and
a copy of Redis alone does not give it. The key is the client's secret here, as no token
guards these requests: it must be long enough not to be guessed (:data:`MIN_KEY_LENGTH`).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from typing import Any

from shared.infra.secrets import hash_secret

#: The shortest key accepted where the key alone tells one client's request from another's.
MIN_KEY_LENGTH = 16


def new_salt() -> str:
    return secrets.token_hex(16)


def seat_token(salt: str, key: str, seat: int) -> str:
    """The token of ``seat`` handed out under ``key``: the same for every retry."""
    digest = hmac.new(bytes.fromhex(salt), f"{seat}:{key}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def fingerprint(*request: Any) -> str:
    """What a key is bound to (a move's key too): the same key with another request is
    refused."""
    return hash_secret(json.dumps(list(request), sort_keys=True, default=str))


def same_request(stored: dict[str, Any], wanted: str) -> bool:
    return hmac.compare_digest(str(stored.get("fingerprint", "")), wanted)
