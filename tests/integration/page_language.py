"""What a Chromium test checks of a match page played in a language (docs/languages.md): the
page says it is in that language, the board's words, the components' names and the move
list's labels come from that language's catalogues, in a translated language no English word
is left, and no word (longer in Czech) reaches past the phone's edge or is cut off at a box's.

The expected words are read from the catalogues themselves (``translations/<lang>/.../
messages.po`` and each game's ``texts.<lang>.json``), never copied into the tests.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from babel.messages.pofile import read_po
from playwright.sync_api import Page

from api.i18n import TRANSLATIONS
from tests.integration.browsers import PHONE

if TYPE_CHECKING:
    from tests.integration.conftest import Client

#: The languages the full matches are played in, and the browser locale asking for each.
LOCALES = {"en": "en-US", "cs": "cs-CZ"}
LANGS = tuple(LOCALES)
GAMES = Path(__file__).resolve().parents[2] / "shared" / "games"
_PLACEHOLDER = re.compile(r"\{\w+\}|%\(\w+\)s")
_WORD = re.compile(r"[^\W\d_]{3,}")  # three letters or more ("a", "to", "no" are Czech too)

#: Per game, things of the board always drawn, each with the page string it shows (a
#: placeholder stands for any text): their translation must be what is shown.
BOARD_STRINGS: dict[str, list[tuple[str, str]]] = {
    "savanna": [(".sv-player .muted", "{count} cards in hand"), (".sv-player h3", " (you)")],
    "evolution": [(".ev-player .muted", "{hand} cards in hand · {discard} discarded"),
                  (".ev-player h3", " (you)")],
    "darwinning": [(".dw-chain h3", "Food chain (low to high)"),
                   (".dw-board .dw-stat", "Population"), (".dw-board .dw-stat", "Bites")],
    "evolution-ns": [(".ns-meta", "Cards in hand: {n}"), (".ns-player .ns-stat", "Body size"),
                     (".ns-player .ns-stat", "Population")],
}
#: Per game, the elements that show a component's name (the catalogue's, in the language).
NAMES = {"savanna": ".sv-card-name, .sv-cell-name",
         "evolution": ".ev-bank-name, .ev-trait:not(.ev-paired)",
         "darwinning": ".dw-ability, .dw-env", "evolution-ns": ".ns-trait, .ns-hole strong"}
#: The page's own headings: template strings.
PAGE_STRINGS = [("#board-heading", "Board")]


@cache
def messages(lang: str) -> dict[str, str]:
    """``{English text: translation}`` of every gettext message (templates, page scripts)."""
    if lang == "en":
        return {}
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        catalogue = read_po(handle, locale=lang)
    return {str(m.id): str(m.string) for m in catalogue
            if m.id and isinstance(m.id, str) and m.string and not m.fuzzy}


def t(lang: str, text: str) -> str:
    """``text`` as the page shows it in ``lang`` (``Arena.t``, ``_()``)."""
    return messages(lang).get(text, text)


@cache
def texts_of(game: str, lang: str) -> dict[str, Any]:
    """A game's ``texts.<lang>.json``: names, rules texts, label templates."""
    path = GAMES / game.replace("-", "_") / f"texts.{lang}.json"
    found: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return found


def game_texts(lang: str) -> list[dict[str, Any]]:
    """Every game's ``texts.<lang>.json``."""
    return [texts_of(path.parent.name, lang) for path in sorted(GAMES.glob(f"*/texts.{lang}.json"))]


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _words(texts: Iterable[str]) -> set[str]:
    return {w.lower() for text in texts for w in _WORD.findall(_PLACEHOLDER.sub(" ", text))}


@cache
def english_only_words(lang: str) -> frozenset[str]:
    """Words of the English texts (page strings, component names and texts, move labels)
    that no text of ``lang`` uses: any of them on a page in ``lang`` was left untranslated."""
    english = _words([*messages(lang), *_strings(game_texts("en"))])
    translated = _words([*messages(lang).values(), *_strings(game_texts(lang))])
    return frozenset(english - translated)


def _pattern(template: str) -> re.Pattern[str]:
    parts = _PLACEHOLDER.split(template)
    return re.compile(".+?".join(re.escape(part) for part in parts))


#: How many times a check reads the page and the API again to find them at one version.
_SAME_VERSION_TRIES = 10

_SHOWN = """([pairs, names, screen]) => ({
  lang: document.documentElement.lang,
  version: document.body.dataset.version,
  texts: pairs.map(([selector]) => [...document.querySelectorAll(selector)]
    .map(e => e.textContent)),
  names: [...document.querySelectorAll(names)].map(e => e.textContent.trim()),
  moves: document.getElementById('moves-card').hidden ? null
    : [...document.querySelectorAll('#moves button.move')].map(b => b.textContent),
  width: document.documentElement.scrollWidth,
  wide: [...document.querySelectorAll('main *')]
    .filter(e => e.getBoundingClientRect().right > screen + 0.5)
    .map(e => e.outerHTML.slice(0, 80)),
  clipped: [...document.querySelectorAll('#board *')].filter(e => {
    const style = getComputedStyle(e);
    const cuts = (overflow) => overflow === 'hidden' || overflow === 'clip';
    return !e.matches('.visually-hidden')
      && ((cuts(style.overflowX) && e.scrollWidth > e.clientWidth + 1)
        || (cuts(style.overflowY) && e.scrollHeight > e.clientHeight + 1));
  }).map(e => `${e.className}: ${e.textContent.trim()}`),
  page: ['#status', 'main', '#announce'].map(s => document.querySelector(s))
    .map(e => e.innerText).join(' '),
})"""


def english_words(text: str, lang: str, proper: Iterable[str]) -> list[str]:
    """The English-only words of ``text`` (``proper`` names taken out first)."""
    for name in sorted(proper, key=len, reverse=True):
        text = text.replace(name, " ")
    english = english_only_words(lang)
    return sorted({w for w in _WORD.findall(text) if w.lower() in english})


class LanguageCheck:
    """Checks a seat's match page in ``lang`` as the match goes on (``check``): the page's
    ``lang`` attribute; the board's words (``BOARD_STRINGS``) as the catalogue translates
    them; the components named as the game's catalogue names them in ``lang`` (the API's,
    which must hold the names of ``texts.<lang>.json``); the move list's labels the API's in
    ``lang``; nothing past the phone's right edge nor cut off at a box's; and, in a
    translated language, no English word left on the page nor in what it announces to a
    screen reader (proper names aside)."""

    def __init__(self, client: Client, game: str, lang: str, match_id: str, token: str) -> None:
        self.client, self.game, self.lang = client, game, lang
        self.match_id, self.token = match_id, token
        self.headers = {"Accept-Language": LOCALES[lang]}
        catalogue = client.call("GET", f"/v1/games/{game}/components", headers=self.headers)
        assert catalogue.headers["Content-Language"] == lang, catalogue.headers
        self.names = {c["name"] for c in catalogue.json()["components"]}
        assert set(texts_of(game, lang)["names"].values()) <= self.names, "names not served"
        # Proper names stay as they are: the players' own and the game's (its title, and its
        # id as the page's title words it).
        self.proper = [s["name"] for s in client.match(match_id)["seats"]] + [
            client.call("GET", f"/v1/games/{game}").json()["name"],
            re.sub(r"\b\w", lambda m: m[0].upper(), game.replace("_", " "))]
        self.checks = 0  # how many times the page was checked
        self.labels_compared = 0  # how many of them compared the move list with the API's

    def moves(self) -> dict[str, Any] | None:
        """The seat's legal moves as the API words them in the language (None once the
        match is over)."""
        answer = self.client.call("GET", f"/v1/matches/{self.match_id}/moves", self.token,
                                  headers=self.headers)
        if answer.status_code != 200:
            return None
        assert answer.headers["Content-Language"] == self.lang, answer.headers
        moves: dict[str, Any] = answer.json()
        return moves

    def _shown(self, page: Page) -> dict[str, Any]:
        shown: dict[str, Any] = page.evaluate(
            _SHOWN, [PAGE_STRINGS + BOARD_STRINGS[self.game], NAMES[self.game], PHONE["width"]])
        return shown

    def _compare_labels(self, page: Page, now: dict[str, Any], moves: dict[str, Any] | None,
                        asked: bool) -> None:
        """The page's move list against the API's labels, both at one version. A bot may
        move between reading the page and asking the API (a random one answers at once), so
        where this check asked the API itself it reads both again until their versions agree:
        the comparison is still made in full, at one moment."""
        for _ in range(_SAME_VERSION_TRIES):
            if not moves or now["moves"] is None:
                return  # the match is over, or the seat owes nothing now: no list to compare
            if now["version"] == str(moves["version"]):
                # One button a choice: moves of one label (copies of a card) share one.
                labels = list(dict.fromkeys(m["label"] for m in moves["moves"]))
                assert now["moves"] == labels, (now["moves"], labels)
                self.labels_compared += 1
                return
            if not asked:
                return  # the caller's answer is of its own moment
            page.wait_for_timeout(100)  # the page may be a step behind the API
            now, moves = self._shown(page), self.moves()

    def check(self, page: Page, moves: dict[str, Any] | None = None) -> None:
        """The page as it is now (``moves``: the API's answer in the language, if the
        caller has it at the page's version; else asked for here)."""
        asked = moves is None
        moves = moves or self.moves()
        now = self._shown(page)
        pairs = PAGE_STRINGS + BOARD_STRINGS[self.game]
        self.checks += 1
        assert now["lang"] == self.lang, f"the page says it is in {now['lang']!r}"
        for (selector, text), texts in zip(pairs, now["texts"], strict=True):
            wanted = t(self.lang, text)
            assert self.lang == "en" or wanted != text, f"{text!r} has no {self.lang} translation"
            assert any(_pattern(wanted).search(found) for found in texts), (selector, wanted, texts)
        assert now["names"] and set(now["names"]) <= self.names, (
            sorted(set(now["names"]) - self.names)[:5])
        self._compare_labels(page, now, moves, asked)
        # Longer words (Czech's are) still fit the phone: nothing reaches past its edge.
        assert now["width"] <= PHONE["width"] and now["wide"] == [], (now["width"], now["wide"][:3])
        assert now["clipped"] == [], f"words cut off at a box's edge: {now['clipped'][:3]}"
        if self.lang != "en":
            left = english_words(now["page"], self.lang, self.proper)
            assert left == [], f"English left on the page: {left}\n{now['page']}"
