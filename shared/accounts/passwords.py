"""Passwords of person accounts: Argon2id (``argon2-cffi``'s defaults, RFC 9106's second
recommended choice), never stored or logged in clear.

A sign-in under a name no person holds still verifies against a dummy hash, so the answer
takes as long as for a wrong password: its timing does not tell which names exist.
"""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from shared.domain.errors import Unprocessable

MIN_LENGTH = 8
#: Longer passwords are refused: Argon2 takes any length, but a megabyte-long one is work
#: for nothing.
MAX_LENGTH = 256

_HASHER = PasswordHasher()
# The hash a sign-in for an unknown name is checked against (made once per process).
_DUMMY = _HASHER.hash("not any account's password")


def check_password(password: str) -> str:
    """``password`` if it may be one (8 to 256 characters), else a 422."""
    if not MIN_LENGTH <= len(password) <= MAX_LENGTH:
        raise Unprocessable(f"the password must be {MIN_LENGTH} to {MAX_LENGTH} characters",
                            field="password")
    return password


def hash_password(password: str) -> str:
    return _HASHER.hash(password)


def verify(stored: str | None, password: str) -> bool:
    """Whether ``password`` matches ``stored`` (None: no such person; the dummy hash is
    verified anyway, so the time taken is the same)."""
    try:
        return _HASHER.verify(stored or _DUMMY, password) and stored is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def needs_rehash(stored: str) -> bool:
    """Whether ``stored`` was made with weaker parameters than today's (rehashed at the next
    good sign-in)."""
    return _HASHER.check_needs_rehash(stored)
