"""Every message exists in every language (docs/languages.md): the gettext messages of the API,
the templates and the page's JavaScript (``Arena.t``), and each game's component catalogue and
move label templates (``texts.<lang>.json``)."""

from __future__ import annotations

import json
import random
import re
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from api.i18n import LANGUAGES, TRANSLATIONS
from shared.games import all_games

ROOT = Path(__file__).resolve().parent.parent
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
#: ``Arena.t("...")`` in the page's scripts, found without Babel (so a call Babel's
#: configuration misses is caught too).
# ``Arena.t("...")``, or ``t("...")`` where a board took ``const { t } = Arena``.
ARENA_T = re.compile(r"""(?:Arena\.t|(?<![\w$.])t)\(\s*(["'])((?:\\.|(?!\1).)*)\1""")


def js_string(body: str) -> str:
    """A JavaScript string literal's text: its escapes decoded, any other character (``»``,
    ``…``) kept as written (``unicode_escape`` alone would read UTF-8 bytes as Latin-1)."""
    return re.sub(r"\\u([0-9a-fA-F]{4})|\\(.)",
                  lambda m: chr(int(m[1], 16)) if m[1] else m[2], body)


def extracted() -> set[str]:
    """The message ids ``make translations`` extracts from the sources as they are now."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    keywords = {**DEFAULT_KEYWORDS, "N_": None, "Arena.t": None, "t": None}
    out = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=keywords):
        out.add(message if isinstance(message, str) else message[0])
    return out


def page_scripts() -> Iterator[Path]:
    yield from sorted((ROOT / "api" / "static").glob("*.js"))
    yield from sorted((ROOT / "shared" / "games").glob("*/board.js"))


def catalogue(lang: str) -> dict[str, str]:
    """``{msgid: msgstr}`` of the language's messages.po, fuzzy entries left out."""
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        po = read_po(handle, locale=lang)
    return {str(m.id): str(m.string) for m in po if m.id and not m.fuzzy and m.string}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_gettext_message_is_translated(lang: str) -> None:
    messages = extracted()
    assert "Create match" in messages and "no match with id %(id)s" in messages
    translated = catalogue(lang)
    missing = sorted(messages - set(translated))
    assert not missing, f"{lang}: untranslated (run make translations, then translate): {missing}"
    for msgid in messages:  # the same placeholders, or formatting fails at run time
        for pattern in (r"%\((\w+)\)s", r"\{(\w+)\}"):
            assert set(re.findall(pattern, msgid)) == set(
                re.findall(pattern, translated[msgid])), (lang, msgid)


def test_every_page_string_is_extracted() -> None:
    messages = extracted()
    found = {js_string(match[1]) for path in page_scripts()
             for match in ARENA_T.findall(path.read_text(encoding="utf-8"))}
    assert found, "the page wraps its strings in Arena.t"
    assert not found - messages, sorted(found - messages)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_compiled_catalogues_match_their_sources(lang: str) -> None:
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.mo").open("rb") as handle:
        compiled = {str(m.id): str(m.string) for m in read_mo(handle) if m.id}
    assert compiled == catalogue(lang), "stale .mo: run make translations"


def texts(game_dir: Path, lang: str) -> dict[str, Any]:
    path = game_dir / f"texts.{lang}.json"
    assert path.is_file(), path
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_game_text_and_label_template_is_translated(lang: str) -> None:
    for game in all_games():
        english, own = texts(game.data_dir(), "en"), texts(game.data_dir(), lang)
        assert own["lang"] == lang
        for part in ("categories", "texts", "templates", "labels"):
            for key, value in english.get(part, {}).items():
                assert own[part].get(key), (game.id, lang, part, key)
                assert fields(own[part][key]) == fields(value), (game.id, lang, part, key)
        assert english.get("labels"), f"{game.id}: its move labels come from templates"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_component_is_named_and_described_in_every_language(lang: str) -> None:
    for game in all_games():
        english = {c["id"]: c for c in game.components("en")["components"]}
        own = game.components(lang)
        named = texts(game.data_dir(), lang)["names"]
        assert own["lang"] == lang and {c["id"] for c in own["components"]} == set(english)
        for component in own["components"]:
            original = english[component["id"]]
            assert component["name"] and component["text"], (game.id, component["id"])
            # Named in the language's file ("Zebra" is Czech too), or a card named by the
            # components it carries (its traits), then worded differently.
            composed = bool(component["parts"]) and component["name"] != original["name"]
            assert component["id"] in named or composed, (game.id, lang, component["id"])
            assert component["text"] != original["text"], (game.id, lang, component["id"])


def test_every_move_label_is_worded_in_every_language() -> None:
    """Random play of each game labels every legal move in every language: each label is
    filled (no template left) and a translation differs from the English."""
    for game in all_games():
        rng = random.Random(7)
        state = game.new_state(game.min_players, {}, rng)
        worded = {lang: 0 for lang in LANGUAGES}
        for _ in range(60):
            if state.is_over():
                break
            seat = state.to_move()[0]
            for move in state.legal_moves(seat):
                english = state.move_label(move)
                for lang in LANGUAGES:
                    label = state.move_label(move, lang)
                    assert label and "{" not in label, (game.id, lang, label)
                    worded[lang] += label != english or lang == "en"
            state.apply(seat, state.random_move(seat, rng), rng)
        assert all(worded.values()), (game.id, worded)
