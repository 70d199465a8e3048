"""Account names: what a name may be, and the form two names are told apart in.

A name is unique case-insensitively: two names are the same when their NFKC forms casefold
alike (``"Bender"``, ``"BENDER"`` and the same in full-width letters are one name). Control
and format characters (Unicode categories Cc and Cf: bidi overrides such as U+202E, zero-width
joiners, soft hyphens) are refused, so a name cannot be drawn as another one, and so are
leading and trailing spaces.
"""

from __future__ import annotations

import hashlib
import unicodedata

from shared.domain.errors import Unprocessable

REFUSED_CATEGORIES = ("Cc", "Cf", "Cs", "Co", "Cn")  # control, format, surrogate, private, none
MAX_LENGTH = 40


def check_name(name: str) -> str:
    """``name`` if it may be an account's name; otherwise a 422 that says why."""
    if not 1 <= len(name) <= MAX_LENGTH:
        raise Unprocessable(f"the name must be 1 to {MAX_LENGTH} characters", field="name")
    if name != name.strip() or not name.strip():
        raise Unprocessable("the name may not start or end with a space", field="name")
    for char in name:
        if unicodedata.category(char) in REFUSED_CATEGORIES:
            raise Unprocessable(f"the name may not contain the control or format character "
                                f"U+{ord(char):04X}", field="name")
    return name


def folded(name: str) -> str:
    """The form in which two names are the same name (NFKC, then casefold, then NFKC again:
    casefolding can undo a normal form)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def name_digest(name: str) -> str:
    """The name index's key part: the folded name's sha256 (no name text in a key)."""
    return hashlib.sha256(folded(name).encode()).hexdigest()
