"""What a person's name may hold (seat, account, entrant and tournament names).

A name is shown to other people (the lobby, the match page, leaderboards, standings), so it
must read as what it is: valid Unicode, not only spaces, and none of the characters that are
invisible or reorder the text around them. That is every character of the Unicode general
categories Cc (controls: C0, DEL, C1) and Cf (format: the bidirectional overrides, embeddings
and isolates U+202A-U+202E and U+2066-U+2069, the marks U+200E/U+200F, zero-width spaces and
joiners, the soft hyphen, U+FEFF, the tag characters), and the line and paragraph separators
(Zl, Zp). A right-to-left override would make "evil\u202egnp.exe" read as another name.
One rule for every route: the API's schemas call :func:`name_problem`.
"""

from __future__ import annotations

import unicodedata

#: Categories refused anywhere in a name (see the module's docstring).
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def name_problem(value: str) -> str | None:
    """Why ``value`` cannot be a name (a sentence for a person); None if it can be one.
    The length is the caller's (its limit differs between names)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "Must be valid Unicode text."
    for char in value:
        category = unicodedata.category(char)
        if category in REFUSED_CATEGORIES:
            return (f"Must be text without control, format or bidirectional characters "
                    f"(U+{ord(char):04X} is {category}).")
    if not value.strip():
        return "Must be text without control characters, not only spaces."
    return None
