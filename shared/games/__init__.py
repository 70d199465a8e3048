"""The game catalogue: every registered engine, by id."""

from __future__ import annotations

import functools
import importlib

from shared.kernel.protocol import Game

# Engine modules (under shared.games) that register themselves when imported: adding a game
# is adding its line here (and nothing else outside its own package, data, tests and docs).
BUILTIN = (
    "savanna",
    "evolution",
    "evolution_ns",
    "darwinning",
)
_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    _GAMES[game.id] = game
    return game


def get_game(game_id: str) -> Game:
    """The registered game ``game_id``; ``KeyError`` if unknown."""
    _load_builtin()
    return _GAMES[game_id]


def all_games() -> list[Game]:
    _load_builtin()
    return [_GAMES[key] for key in sorted(_GAMES)]


@functools.cache  # once: every request asks for its game, and an import lookup is not free
def _load_builtin() -> None:
    # Imported on first use so that importing one engine never loads the others' data.
    for module in BUILTIN:
        importlib.import_module(f"shared.games.{module}")
