"""The cards of Evolution: the deck, trait data and the food-bank dice.

Rules: docs/rules/evolution.md, rules E-1.1 (the 84-card deck), E-1.3 and E-3.2.

Everything here is loaded from ``components.json`` beside it; card instance ids are fixed:
card ``cid`` of a match has the faces ``faces(cid)`` (ids ``0..83`` for one deck, ``84..167``
for the second deck mixed in with 5-8 players, E-1.3).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

_DATA_PATH: Final = Path(__file__).resolve().parent / "components.json"
DATA: Final[dict[str, Any]] = json.loads(_DATA_PATH.read_text(encoding="utf-8"))

TRAITS: Final[dict[str, dict[str, Any]]] = DATA["traits"]
TRAIT_NAMES: Final[dict[str, str]] = {key: info["name"] for key, info in TRAITS.items()}
#: Extra food each trait adds to an animal's requirement (E-3.3) and to its score (E-4.1).
FOOD_EXTRA: Final[dict[str, int]] = {key: info["food"] for key, info in TRAITS.items()
                                     if info["food"]}
PAIRED: Final[frozenset[str]] = frozenset(key for key, info in TRAITS.items() if info["paired"])

#: Faces of the cards of one deck, in card-id order (E-1.1).
DECK_FACES: Final[tuple[tuple[str, ...], ...]] = tuple(
    tuple(entry["traits"]) for entry in DATA["deck"] for _ in range(entry["copies"]))
DECK_SIZE: Final[int] = len(DECK_FACES)
HAND_SIZE: Final[int] = DATA["hand_size"]
SCORE_ANIMAL: Final[int] = DATA["score"]["animal"]
SCORE_TRAIT: Final[int] = DATA["score"]["trait"]
FOOD_BANK: Final[dict[int, tuple[int, int]]] = {
    int(k): (v["dice"], v["plus"]) for k, v in DATA["food_bank"].items()}
DECKS_BY_PLAYERS: Final[dict[int, int]] = {int(k): v for k, v in DATA["decks_by_players"].items()}

assert DECK_SIZE == 84, "E-1.1: the base deck has 84 cards"
assert all(t in TRAITS for faces in DECK_FACES for t in faces)


def faces(card: int) -> tuple[str, ...]:
    """The trait(s) printed on card instance ``card``."""
    return DECK_FACES[card % DECK_SIZE]


def card_count(players: int) -> int:
    """Cards in play for ``players`` seats: one deck up to 4, two mixed for 5-8 (E-1.3)."""
    return DECK_SIZE * DECKS_BY_PLAYERS[players]


def card_label(card: int) -> str:
    """``"Grazing / Fat Tissue"`` for a two-trait card."""
    return " / ".join(TRAIT_NAMES[t] for t in faces(card))
