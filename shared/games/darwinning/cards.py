"""The components of Darwinning!: cards, species boards, abilities (docs/rules/darwinning.md D-1).

Everything is loaded from ``components.json`` beside it. Card ids are the indices of its
``cards`` list: ``0..89`` the ability cards (values 1-15, three colours, two copies), ``90``
and ``91`` the jokers (D-1.2). Species boards and card icons are a RECONSTRUCTION (the
rulebooks do not print them), so a user who owns the printed game can replace the data file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

_DATA_PATH: Final = Path(__file__).resolve().parent / "components.json"
DATA: Final[dict[str, Any]] = json.loads(_DATA_PATH.read_text(encoding="utf-8"))

ENVIRONMENTS: Final[tuple[str, ...]] = tuple(e["id"] for e in DATA["environments"])
ENV_INDEX: Final[dict[str, int]] = {e: i for i, e in enumerate(ENVIRONMENTS)}
COLOURS: Final[tuple[str, ...]] = tuple(DATA["colours"])
ABILITY_NAMES: Final[dict[int, str]] = {a["number"]: a["name"] for a in DATA["abilities"]}
ABILITY_FOOD: Final[dict[int, int]] = {a["number"]: a["food"] for a in DATA["abilities"]
                                        if a["food"]}
ABILITY_REACH: Final[dict[int, int]] = {a["number"]: a["reach"] for a in DATA["abilities"]
                                         if a["reach"]}

CARD_NAMES: Final[tuple[str, ...]] = tuple(c["id"] for c in DATA["cards"])
CARD_COUNT: Final[int] = len(CARD_NAMES)
VALUE: Final[tuple[int, ...]] = tuple(c["value"] for c in DATA["cards"])
#: Colour index (0 acorn, 1 blueberry, 2 flower); -1 for a joker (named when played, D-4.5).
COLOUR: Final[tuple[int, ...]] = tuple(
    -1 if c["colour"] is None else COLOURS.index(c["colour"]) for c in DATA["cards"])
JOKERS: Final[frozenset[int]] = frozenset(i for i, c in enumerate(COLOUR) if c < 0)
#: Upgrade icon per card (D-1.2): food-chain movement, eggs, environment index; 0/-1 if none.
CHAIN: Final[tuple[int, ...]] = tuple(
    c["icon"]["amount"] if c["icon"] and c["icon"]["kind"] == "chain" else 0
    for c in DATA["cards"])
EGGS: Final[tuple[int, ...]] = tuple(
    c["icon"]["amount"] if c["icon"] and c["icon"]["kind"] == "eggs" else 0
    for c in DATA["cards"])
ENV_ICON: Final[tuple[int, ...]] = tuple(
    ENV_INDEX[c["icon"]["environment"]] if c["icon"] and c["icon"]["kind"] == "environment"
    else -1 for c in DATA["cards"])

SPECIES: Final[tuple[dict[str, Any], ...]] = tuple(DATA["species"])
SPECIES_ENVS: Final[tuple[dict[int, int], ...]] = tuple(
    {ENV_INDEX[e]: food for e, food in s["environments"].items()} for s in SPECIES)

ENVS_PER_ERA: Final[dict[int, tuple[int, ...]]] = {
    int(k): tuple(v) for k, v in DATA["environments_per_era"].items()}
HAND_SIZE: Final[int] = DATA["hand_size"]
KEEP: Final[int] = DATA["keep"]
SECRET_DISCARD: Final[int] = DATA["secret_discard"]
DUMMY_CARDS: Final[int] = DATA["dummy_cards"]
SLOTS: Final[int] = DATA["ability_slots"]
ZERO_SLOT: Final[int] = DATA["zero_point_slot"]
PRINTED_SLOTS: Final[tuple[int, ...]] = tuple(DATA["printed_slots"])
FOOD_ADAPTED: Final[int] = DATA["food"]["adapted_environment"]
FOOD_EATEN: Final[int] = DATA["food"]["eaten_species"]
FOOD_SYMBIOSIS: Final[int] = DATA["food"]["symbiosis"]
SCORE_LOW: Final[int] = DATA["score"]["ability_low"]
SCORE_HIGH: Final[int] = DATA["score"]["ability_high"]
SCORE_HIGH_FROM: Final[int] = DATA["score"]["high_from"]
SMALL_ANIMAL_UP_TO: Final[int] = DATA["small_animal_bonus_up_to"]
TWO_PLAYER_BITES: Final[int] = DATA["bite_tokens_two_players"]

# Ability numbers (card value = ability, D-10).
PHEROMONES: Final = 1
SYMBIOSIS: Final = 2
HERD: Final = 3
HARD_SHELL: Final = 4
COMMUNICATION: Final = 5
TEETH: Final = 6
FOOD_STORAGE: Final = 7
MUTATION: Final = 8
POISON: Final = 9
TOOLS: Final = 10
CAMOUFLAGE: Final = 11
IRON_STOMACH: Final = 12
BIGGER_BRAIN: Final = 13
METAMORPHOSIS: Final = 14
SOCIETY: Final = 15

assert CARD_COUNT == 92 and len(JOKERS) == 2, "D-1.2: 90 ability cards and 2 jokers"
assert len(SPECIES) == 13 and len(ENVIRONMENTS) == 10, "D-1.1, D-1.3"
assert sorted(VALUE[c] for c in range(CARD_COUNT) if c not in JOKERS) == sorted(
    v for v in range(1, 16) for _ in range(6))


def card_label(card: int) -> str:
    """``"7 acorn"``; ``"joker"`` for a joker."""
    if card in JOKERS:
        return "joker"
    return f"{VALUE[card]} {COLOURS[COLOUR[card]]}"


def icon_label(card: int) -> str:
    if CHAIN[card]:
        return f"food chain +{CHAIN[card]}"
    if EGGS[card]:
        return f"{EGGS[card]} egg{'s' if EGGS[card] > 1 else ''}"
    if ENV_ICON[card] >= 0:
        return ENVIRONMENTS[ENV_ICON[card]]
    return "no icon"
