"""Languages (docs/languages.md): the request's language, the gettext catalogues of
``translations/`` (Flask-Babel) and the page's JavaScript catalogue.

A request's language is its ``lang`` query parameter when it names one of :data:`LANGUAGES`,
else the first of its ``Accept-Language`` (by quality) that is one of them, else English.
The English text is the message id everywhere: templates and Python mark it with
``_``/``N_``, the page's JavaScript with ``Arena.t`` (``make translations`` extracts all
three).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po
from flask import Flask, Response, has_request_context, request
from flask_babel import Babel

#: The languages served: English first (the message ids and the fallback).
LANGUAGES = ("en", "cs", "fi", "pl")
#: Their names in themselves, for the page's language picker.
LANGUAGE_NAMES = {"en": "English", "cs": "Čeština", "fi": "Suomi", "pl": "Polski"}
TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"


def select_lang() -> str:
    """The language of the current request (English outside one)."""
    if not has_request_context():
        return "en"
    asked = request.args.get("lang") if request.args else None
    if asked in LANGUAGES:
        return str(asked)
    if "HTTP_ACCEPT_LANGUAGE" not in request.environ:
        return "en"
    # By preference, a regional tag counting for its language ("cs-CZ" is Czech): werkzeug's
    # best_match would prefer an exact "en;q=0.5" to it.
    for tag, quality in request.accept_languages:
        primary = tag.split("-")[0].lower()
        if primary in LANGUAGES and quality > 0:  # q=0: "not this one" (RFC 9110 12.4.2)
            return primary
    return "en"


def current_lang() -> str:
    """The request's language, as Flask-Babel chooses it (English outside a request)."""
    if not has_request_context():
        return "en"
    # Flask-Babel's locale is ``select_lang``'s choice parsed into a babel Locale, and its
    # language is that choice again: asked here without the parse (a legal-moves read, the
    # hot path, needs only the code).
    return select_lang()


@cache
def page_messages(lang: str) -> dict[str, str]:
    """The page's catalogue in ``lang``: ``{English text: translation}`` of every message
    extracted from JavaScript (``window.EVO_MESSAGES``, read by ``Arena.t``)."""
    path = TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po"
    if lang == "en" or not path.is_file():
        return {}
    with path.open("rb") as handle:
        catalogue = read_po(handle, locale=lang)
    return {str(m.id): str(m.string) for m in catalogue
            if m.id and isinstance(m.id, str) and m.string and not m.fuzzy
            and any(file.endswith(".js") for file, _ in m.locations)}


def content_language(response: Response, lang: str) -> Response:
    """Marks ``response`` as written in ``lang`` and varying with the asked language."""
    response.headers["Content-Language"] = lang
    response.vary.add("Accept-Language")
    return response


def register(app: Flask) -> None:
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = str(TRANSLATIONS)
    app.config["BABEL_DEFAULT_LOCALE"] = "en"
    Babel(app, locale_selector=select_lang)

    @app.context_processor
    def page_language() -> dict[str, object]:
        lang = current_lang()
        return {"evo_lang": lang, "evo_messages": page_messages(lang),
                "evo_languages": LANGUAGE_NAMES}
