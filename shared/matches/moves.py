"""The shape a move must have before any engine sees it.

A move is a legal-move id (a short string) or a flat JSON object: a string ``type`` and a few
fields whose values are scalars or short lists of scalars (a cheap guard for any game). Then
the object must be one of its game's move types, as the game's schema declares it
(``Game.schemas()``, the same schemas the contract's per-game move types come from). Every
engine's legal moves pass both (``tests/shared/test_move_fuzz.py`` and
``tests/shared/test_game_schemas.py`` check it over random play), so a body that does not is
refused here with one clear reason, never handed to an engine.
"""

from __future__ import annotations

import math
from typing import Any

from shared.games.schemas import move_type_problem
from shared.kernel.protocol import Game

MAX_FIELDS = 16
MAX_NAME = 40
MAX_STRING = 200
MAX_LIST = 64
MAX_INT = 2**53  # beyond this a JSON number is not exact in every client


def move_shape_problem(move: Any) -> str | None:
    """Why ``move`` cannot be a move of any game; None if its shape is acceptable."""
    if isinstance(move, str):
        return None if 0 < len(move) <= MAX_STRING else \
            f"a move id is 1-{MAX_STRING} characters"
    if not isinstance(move, dict):
        return "a move is an object or a move id"
    if len(move) > MAX_FIELDS:
        return f"a move has at most {MAX_FIELDS} fields"
    if not isinstance(move.get("type"), str):
        return "the move type ('type') must be a string"
    for name, value in move.items():
        if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME:
            return f"a move's field names are 1-{MAX_NAME} characters"
        items = value if isinstance(value, list) else [value]
        if isinstance(value, list) and len(value) > MAX_LIST:
            return f"{name}: a list of at most {MAX_LIST} values"
        for item in items:
            problem = _scalar_problem(item)
            if problem is not None:
                return f"{name}: {problem}"
    return None


def move_problem(game: Game, move: Any) -> str | None:
    """Why ``move`` cannot be a move of ``game``; None if its shape is one of the game's."""
    found = move_shape_problem(move)
    if found is not None or isinstance(move, str):
        return found
    return move_type_problem(game.id, move)


def _scalar_problem(value: Any) -> str | None:
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return None if -MAX_INT <= value <= MAX_INT else "integers are within ±2^53"
    if isinstance(value, float):
        return None if math.isfinite(value) and abs(value) <= MAX_INT else \
            "numbers are finite and within ±2^53"
    if isinstance(value, str):
        return None if len(value) <= MAX_STRING else \
            f"strings are at most {MAX_STRING} characters"
    return "values are strings, numbers, booleans, null or flat lists of them"
