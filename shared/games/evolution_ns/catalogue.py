"""Evolution (North Star)'s component catalogue (``Game.components()``): traits and cards.

Views carry a card as its number (``hand``, a species' ``traits``, ``food_card``…), the key
of category ``card`` (``0..128``, data order: N-1.1); a card's trait is its ``parts``.
The card list is a RECONSTRUCTION (components.json says so), and so says the catalogue.
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

from .cards import DATA, DECK_SIZE, FOOD_OF, TRAIT_OF, TRAITS


def build(game_id: str, data_dir: Path, lang: str) -> dict[str, Any]:
    texts = load_texts(data_dir, lang)
    names = {key: name_of(texts, "trait", key, info["name"]) for key, info in TRAITS.items()}
    traits = [component("trait", key, names[key], text_of(texts, "trait", key),
                        numbers={"copies": info["copies"]},
                        colour="carnivore" if key == "carnivore" else "trait",
                        icons=[key], reconstruction=True)
              for key, info in TRAITS.items()]
    cards = [component("card", card, names[TRAIT_OF[card]],
                       from_template(texts, "card", trait=names[TRAIT_OF[card]],
                                     food=FOOD_OF[card]),
                       numbers={"food": FOOD_OF[card]},
                       colour="carnivore" if TRAIT_OF[card] == "carnivore" else "trait",
                       icons=[TRAIT_OF[card]], parts=[f"trait:{TRAIT_OF[card]}"],
                       reconstruction=True)
             for card in range(DECK_SIZE)]
    most = DATA["max_value"]  # body size and population (N-1.2)
    table = table_pieces(DATA["table"], texts,
                         {"species_board": {"body_max": most, "population_max": most}})
    return catalogue(game_id, lang, texts, traits + cards + table, DATA["rules"])
