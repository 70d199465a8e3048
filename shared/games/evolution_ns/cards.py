"""The trait deck of Evolution (North Star): 129 cards with food numbers (N-1.1).

Everything is loaded from ``components.json`` beside it (a RECONSTRUCTION: the rulebook
summary prints no card list; replace the file to use another). Card instance ids are fixed:
card ``cid`` is trait ``TRAIT_OF[cid]`` with food number ``FOOD_OF[cid]``, in data order.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

_DATA_PATH: Final = Path(__file__).resolve().parent / "components.json"
DATA: Final[dict[str, Any]] = json.loads(_DATA_PATH.read_text(encoding="utf-8"))

TRAITS: Final[dict[str, dict[str, Any]]] = DATA["traits"]
TRAIT_NAMES: Final[dict[str, str]] = {key: info["name"] for key, info in TRAITS.items()}
TRAIT_OF: Final[tuple[str, ...]] = tuple(
    key for key, info in TRAITS.items() for _ in range(info["copies"]))
FOOD_OF: Final[tuple[int, ...]] = tuple(
    food for info in TRAITS.values() for food in info["food"])
DECK_SIZE: Final[int] = len(TRAIT_OF)
HAND_BASE: Final[int] = DATA["hand_base"]
MAX_VALUE: Final[int] = DATA["max_value"]
MAX_TRAITS: Final[int] = DATA["max_traits"]
MAX_TRAITS_2P: Final[int] = DATA["max_traits_two_players"]
TWO_PLAYER_REMOVED: Final[int] = DATA["two_player_removed"]
HARD_SHELL_BONUS: Final[int] = DATA["hard_shell_bonus"]
INTELLIGENCE_FOOD: Final[int] = DATA["intelligence_plant_food"]
QUICK_FORCED_PLAYERS: Final[int] = DATA["quick_forced_players"]

assert all(info["copies"] == len(info["food"]) for info in TRAITS.values())
assert len(FOOD_OF) == DECK_SIZE

#: Traits that protect a target and that Intelligence may negate (N-5.12); Warning Call is
#: named by the side of the neighbour that carries it.
NEGATABLE: Final[tuple[str, ...]] = ("burrowing", "climbing", "defensive_herding",
                                      "hard_shell", "horns", "symbiosis", "warning_call_left",
                                      "warning_call_right")


def card_label(card: int) -> str:
    """``"Horns (food 3)"``."""
    return f"{TRAIT_NAMES[TRAIT_OF[card]]} (food {FOOD_OF[card]:+d})" if FOOD_OF[card] < 0 \
        else f"{TRAIT_NAMES[TRAIT_OF[card]]} (food {FOOD_OF[card]})"
