"""The game catalogue: every registered engine, by id."""

from __future__ import annotations

from shared.protocol import Game

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


def _load_builtin() -> None:
    # Imported lazily so that importing one engine never pulls in the others' data.
    if _GAMES:
        return
    import importlib

    for module in _BUILTIN:
        try:
            importlib.import_module(f"shared.games.{module}")
        except ModuleNotFoundError as exc:  # an engine not yet written
            if exc.name != f"shared.games.{module}":
                raise


_BUILTIN = ("savanna", "evolution")
