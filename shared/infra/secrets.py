"""Secrets (seat tokens, account keys, owner tokens) are kept only as their hash."""

from __future__ import annotations

import hashlib


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()
