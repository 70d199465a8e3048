"""Ecosystem: Savanna's component catalogue (``Game.components()``): the eleven card types.

Views carry a card as its type (``"grass"``), the catalogue's key of category ``card``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from shared.kernel.catalogue import (
    catalogue,
    component,
    load_texts,
    name_of,
    table_pieces,
    text_of,
)

from .scoring import DATA


def build(game_id: str, data_dir: Path, lang: str) -> dict[str, Any]:
    texts = load_texts(data_dir, lang)
    # Every type is a reconstruction: the description gives no counts (S-1.1).
    cards = [component("card", kind, name_of(texts, "card", kind, kind),
                       text_of(texts, "card", kind), numbers={"copies": copies},
                       colour=DATA["suits"][kind], icons=[kind], reconstruction=True)
             for kind, copies in DATA["deck"].items()]
    table = table_pieces(DATA["table"], texts, {"savanna": dict(DATA["grid"])})
    return catalogue(game_id, lang, texts, cards + table, DATA["_comment"])
