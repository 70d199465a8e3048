"""Errors' human ``detail`` in the request's language (docs/languages.md).

The services word their errors in English (they know no request). A detail is translated
here, at the edge: either it is a message id of the catalogue as it stands, or it matches
one of the :data:`DETAILS` templates, whose ``%(name)s`` parts are read back from the English
text and put into the translated template (each part translated in turn, so ``seat 1:
<reason>`` translates its reason too; a reason the catalogue lacks leaves the whole detail
English). A detail no template matches stays English, and the response says so
(``Content-Language: en``). A problem's ``type`` and ``title`` never change.
"""

from __future__ import annotations

import re
from functools import cache

from babel.support import NullTranslations
from flask_babel import get_translations


def N_(message: str) -> str:  # the name Babel's extractor looks for
    """Marks ``message`` for extraction (``make translations``) without translating it."""
    return message


#: The services' and the API's error details with variable parts, as message templates.
DETAILS: tuple[str, ...] = (
    N_("no match with id %(id)s"),
    N_("no game with id %(id)s"),
    N_("no tournament with id %(id)s"),
    N_("unknown game %(game)s"),
    N_("seat %(seat)s owes no decision now"),
    N_("seat %(seat)s owes no move now (%(reason)s)"),
    N_("seat %(seat)s is not open"),
    N_("seat %(seat)s: %(reason)s"),
    N_("no account with id %(id)s"),
    N_("unknown bot kind %(kind)s; known: %(known)s"),
    N_("unknown level %(level)s; known: %(known)s"),
    N_("bot kind %(kind)s has no levels or budgets"),
    N_("%(game)s takes %(least)s-%(most)s seats, not %(seats)s"),
    N_("match %(id)s has ended and only its result and log are kept: read it with "
       "GET /v1/matches/%(same)s"),
    N_("match %(id)s has no seat for this account"),
    N_("the match is %(status)s"),
    N_("this match is %(status)s: its open seats can no longer be joined"),
    N_("seat must be between 0 and %(last)s"),
    N_("stale version %(quoted)s: the match is at version %(version)s; read it again"),
    N_("malformed move: %(reason)s"),
    N_("illegal move: %(reason)s"),
    N_("one hint search per seat every %(every)s s; retry in %(retry)s s"),
    N_("no bot worker answered within %(wait)s s; the search goes on: ask again"),
    N_("unknown query parameter(s): %(names)s"),
    N_("query parameter(s) given more than once: %(names)s"),
    N_("the body is not valid JSON: %(reason)s"),
    N_("at most %(count)s such requests a minute per token; retry in %(retry)s s"),
    N_("at most %(count)s such requests a minute per address; retry in %(retry)s s"),
    N_("at most %(cap)s bot seats (account seats count too) in live matches per address; "
       "you have %(live)s: retry when one ends"),
    N_("Idempotency-Key must be 1-%(most)s printable characters"),
    N_("the body is larger than %(limit)s bytes"),
    N_("the tournament is %(status)s"),
    N_("the name %(name)s is taken: account names are unique, whatever their case"),
    N_("card %(card)s is not in your hand"),
    N_("cards %(cards)s are not in your hand"),
    N_("unknown move type %(type)s"),
    N_("no invitation with id %(id)s"),
    # What a person meets signing up, signing in and in quick play (the lobby shows them).
    N_("the password must be %(least)s to %(most)s characters"),
    N_("the name must be 1 to %(most)s characters"),
    N_("the name may not contain the control or format character %(char)s"),
    N_("already waiting in pool %(pool)s: leave it first"),
    N_("already matched into match %(id)s"),
)

#: Details without variable parts (werkzeug's and the services'), for extraction.
PLAIN: tuple[str, ...] = (
    N_("The requested URL was not found on the server. If you entered the URL manually "
       "please check your spelling and try again."),
    N_("The method is not allowed for the requested URL."),
    N_("the token does not belong to any seat of this match"),
    N_("this call needs a seat token: send 'Authorization: Bearer <token>'"),
    N_("this call needs an account key: send 'Authorization: Bearer <api key>'"),
    N_("the key belongs to no account"),
    N_("the key was revoked"),
    N_("this match has no open seat left"),
    N_("another move was accepted first; read the match again"),
    N_("the match is waiting for its open seats to be joined or its invited accounts to "
       "accept"),
    N_("this Idempotency-Key was already used for a different request"),
    N_("too many concurrent changes; try again"),
    N_("too many concurrent joins; try again"),
    N_("hints are off in tournament and rated matches"),
    N_("the match moved on while the hint was searched; ask again"),
    N_("a rated match needs every seat to be a bot or an account"),
    N_("the body must be JSON with 'Content-Type: application/json'"),
    N_("the body must be a JSON object"),
    N_("the body is nested too deeply"),
    N_("the Authorization header must be 'Bearer <token>'"),
    N_("an unexpected error occurred; it has been logged"),
    N_("the match is over"),
    N_("over"),
    N_("running"),
    N_("waiting"),
    N_("finished"),
    N_("aborted"),
    N_("cancelled"),
    N_("the match store is unreachable; nothing was changed; retry later"),
    N_("the match store failed the request; nothing was changed; retry later"),
    N_("no person account has this name and password"),
    N_("the name may not start or end with a space"),
    N_("the current password is wrong"),
    N_("the refresh token is unknown or has expired: sign in again"),
    N_("this refresh token was used already: its session is ended, sign in again"),
    N_("the account of this refresh token is gone"),
    N_("the token belongs to no account (or has expired)"),
    N_("this call needs an access token: send 'Authorization: Bearer <access token>'"),
    N_("no quick-play ticket: join a pool first"),
    N_("joining another pool at the same moment"),
)

_PART = re.compile(r"%\((\w+)\)s")
#: The parts of a template that are words (a reason), not values (ids, numbers, names): a
#: detail is translated only if they are too.
PROSE = frozenset({"reason"})


@cache
def _patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    """Each template as a regular expression capturing its parts by name."""
    out = []
    for template in DETAILS:
        pieces = _PART.split(template)  # literal, name, literal, name, ..., literal
        regex = "".join(re.escape(piece) if i % 2 == 0 else f"(?P<{piece}>.+?)"
                        for i, piece in enumerate(pieces))
        out.append((re.compile(f"{regex}$", re.DOTALL), template))
    return tuple(out)


def translate(detail: str, lang: str) -> tuple[str, str]:
    """``detail`` in ``lang`` and the language it is actually in (English when untranslated)."""
    if lang == "en":
        return detail, "en"
    text = _translate(get_translations(), detail, depth=2)
    return (text, lang) if text is not None else (detail, "en")


def _translate(translations: NullTranslations, text: str, depth: int) -> str | None:
    """The translation of ``text``, or None when the catalogue has none."""
    exact = translations.gettext(text)
    if exact != text:
        return exact
    for regex, template in _patterns():
        match = regex.match(text)
        if match is None:
            continue
        translated = translations.gettext(template)
        if translated == template:
            return None
        parts = {}
        for name, value in match.groupdict().items():
            part = _translate(translations, value, depth - 1) if depth else None
            if part is None and name in PROSE:
                return None  # half a translation would mislabel the whole in Content-Language
            parts[name] = part or value
        return translated % parts
    return None
