"""Building blocks of a game's component catalogue (``Game.components()``).

A catalogue lists every component of a game (card, trait, ability, species board,
environment, card type…) in one shape, so a client draws any game's pieces with one code
path: ``id`` (stable, ``<category>:<key>``), ``category``, ``key`` (exactly the value the
game's views carry for it: a card number, a trait id…), ``name``, ``text`` (its rules in
short), ``numbers`` (named integers: value, food, copies…), ``colour`` (a colour or suit
name, or null), ``icons`` (icon names), ``parts`` (ids of the components it carries: a
card's traits, a species board's abilities) and ``reconstruction`` (the data is ours, not
printed). The view schemas mark every field that holds a key with ``x-component`` (its
category), so a view joins the catalogue on ``(category, key)``.

Names and texts are per language: ``texts.<lang>.json`` beside the engine's data holds the
category names, names the data file does not give (``names``, by component id), one text per
component id (``texts``) and templates for components that share a text (every copy of a
card), filled with the component's numbers and names. A translation is another such file.

The same files word the moves: ``labels`` holds one template per kind of move label
(``str.format`` fields), read through :func:`wording` (``State.move_label(move, lang)``), so
a game's labels are translated beside its components and the API never names a game. A
label that names another seat (``seat`` among its fields) may have a ``<key>_named`` form
with the seat's ``{name}``, used while the seats' names are known (:func:`named_seats`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

Component = dict[str, Any]

#: The seats' names while labels are worded for people who know them, else None (seats by
#: number). A context variable: engines word labels without knowing who sits where
#: (``State.move_label``), and the match service, which knows, wraps its calls.
_SEAT_NAMES: ContextVar[tuple[str, ...] | None] = ContextVar("seat_names", default=None)


@contextmanager
def named_seats(names: Sequence[str]) -> Iterator[None]:
    """Word labels inside the block with the seats' ``names``. Names not all distinct would
    make two seats' labels alike: the seats keep their numbers then."""
    distinct = len({name.casefold() for name in names}) == len(names)
    token = _SEAT_NAMES.set(tuple(names) if distinct else None)
    try:
        yield
    finally:
        _SEAT_NAMES.reset(token)


def load_texts(data_dir: Path, lang: str = "en") -> dict[str, Any]:
    """The engine's ``texts.<lang>.json``: ``{"categories", "names", "texts", "templates"}``."""
    texts: dict[str, Any] = json.loads(
        (data_dir / f"texts.{lang}.json").read_text(encoding="utf-8"))
    return texts


class Wording:
    """A game's words in one language: its move label templates and component names, each
    falling back to English (``texts.en.json``) where the language lacks it."""

    def __init__(self, texts: dict[str, Any], english: dict[str, Any]) -> None:
        self.labels: dict[str, str] = {**english.get("labels", {}), **texts.get("labels", {})}
        self.names: dict[str, str] = {**english.get("names", {}), **texts.get("names", {})}

    def label(self, key: str, **values: Any) -> str:
        """Label template ``key`` filled with ``values``; its ``_named`` form, with the seat's
        name, where the label names a seat and the names are known (:func:`named_seats`)."""
        names = _SEAT_NAMES.get()
        if names is not None and "seat" in values:
            seat, named = values["seat"], self.labels.get(f"{key}_named")
            if named is not None and isinstance(seat, int) and 0 <= seat < len(names):
                return named.format(name=names[seat], **values)
        return self.labels[key].format(**values)

    def name(self, component_id: str, default: str) -> str:
        """The name of component ``component_id`` (``default``: the data file's, English)."""
        return self.names.get(component_id, default)


@cache
def wording(data_dir: Path, lang: str) -> Wording:
    """The words of the engine in ``data_dir`` in ``lang`` (English if it has no such file)."""
    english = load_texts(data_dir, "en")
    own = (data_dir / f"texts.{lang}.json").is_file() and lang != "en"
    return Wording(load_texts(data_dir, lang) if own else english, english)


def component(category: str, key: int | str, name: str, text: str, *,
              numbers: dict[str, int] | None = None, colour: str | None = None,
              icons: list[str] | None = None, parts: list[str] | None = None,
              reconstruction: bool = False) -> Component:
    """One catalogue entry (its id is ``<category>:<key>``)."""
    return {"id": f"{category}:{key}", "category": category, "key": key, "name": name,
            "text": text, "numbers": dict(numbers or {}), "colour": colour,
            "icons": list(icons or []), "parts": list(parts or []),
            "reconstruction": reconstruction}


def name_of(texts: dict[str, Any], category: str, key: int | str, default: str) -> str:
    """The name of component ``<category>:<key>``: the texts file's, else ``default`` (the
    data file's English name)."""
    return str(texts.get("names", {}).get(f"{category}:{key}", default))


def text_of(texts: dict[str, Any], category: str, key: int | str) -> str:
    """The text of component ``<category>:<key>``."""
    return str(texts["texts"][f"{category}:{key}"])


def from_template(texts: dict[str, Any], template: str, **values: Any) -> str:
    """Template ``template`` of the texts file filled with ``values``."""
    return str(texts["templates"][template]).format(**values)


def table_pieces(table: dict[str, dict[str, Any]], texts: dict[str, Any],
                 numbers: dict[str, dict[str, int]] | None = None) -> list[Component]:
    """Components of category ``table`` (food bank, tokens, tracks…) from the ``table`` entry
    of the game's data (``{id: {"colour": ..., "reconstruction": ...}}``, both optional),
    named by the texts file; ``numbers`` per id where the data gives some elsewhere."""
    return [component("table", key, name_of(texts, "table", key, key),
                      text_of(texts, "table", key), numbers=(numbers or {}).get(key),
                      colour=entry.get("colour"), icons=[key],
                      reconstruction=entry.get("reconstruction", False))
            for key, entry in table.items()]


def catalogue(game_id: str, lang: str, texts: dict[str, Any], components: list[Component],
              note: str) -> dict[str, Any]:
    """The whole catalogue: the game, the language, its categories and components."""
    used = list(dict.fromkeys(c["category"] for c in components))
    return {"game": game_id, "lang": lang,
            "reconstruction": any(c["reconstruction"] for c in components),
            "note": note,
            "categories": [{"id": cat, "name": texts["categories"][cat]} for cat in used],
            "components": components}
