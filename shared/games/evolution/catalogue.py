"""Evolution's component catalogue (``Game.components()``): its traits and every card.

Views carry a card as its number (``hand``, an animal's ``card`` and ``traits``), the key of
category ``card`` (``0..83`` the first deck, ``84..167`` the second, mixed in with 5-8
players: E-1.3), and a trait as its id (``"fat_tissue"``), the key of category ``trait``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from shared.kernel.catalogue import (
    catalogue,
    component,
    from_template,
    load_texts,
    name_of,
    table_pieces,
    text_of,
)

from .cards import DATA, DECK_SIZE, DECKS_BY_PLAYERS, TRAITS, faces


def build(game_id: str, data_dir: Path, lang: str) -> dict[str, Any]:
    texts = load_texts(data_dir, lang)
    names = {key: name_of(texts, "trait", key, info["name"]) for key, info in TRAITS.items()}
    traits = [component("trait", key, names[key], text_of(texts, "trait", key),
                        numbers={"food": info["food"]},
                        icons=[key, *(["paired"] if info["paired"] else [])])
              for key, info in TRAITS.items()]
    cards = []
    for card in range(DECK_SIZE * max(DECKS_BY_PLAYERS.values())):
        printed = faces(card)
        label = " / ".join(names[t] for t in printed)
        cards.append(component(
            "card", card, label,
            from_template(texts, "card", traits=label, deck=card // DECK_SIZE + 1),
            numbers={"deck": card // DECK_SIZE + 1},
            icons=list(printed), parts=[f"trait:{t}" for t in printed]))
    return catalogue(game_id, lang, texts, traits + cards + table_pieces(DATA["table"], texts),
                     DATA["rules"])
