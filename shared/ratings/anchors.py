"""The anchors: built-in bots whose rating is fixed, so the ladder has fixed points.

Each game's ``anchors.json``, in the game's own folder (``Game.data_dir()``, beside its
``components.json``; a game without one has no anchors), holds the fixed ``mu`` and ``sigma``
of each anchored bot (``bot:random``, ``bot:greedy``, ``bot:ismcts:medium``...). A rated match
never moves an anchor (its stored rating is rewritten to the fixed value and only its match
count grows); the other seats are rated against the anchor's fixed value as OpenSkill would
against any player. Only ``python -m scripts.recalibrate_anchors`` rewrites the files (see
docs/ratings.md); a built-in bot a game's file does not name is rated like an account.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from shared.games import all_games

FILE_NAME = "anchors.json"


@dataclass(frozen=True)
class Anchors:
    """Game id -> player key -> ``{"mu", "sigma"}`` of the anchored bots."""

    games: Mapping[str, Mapping[str, Mapping[str, float]]] = field(default_factory=dict)

    def of(self, game: str) -> Mapping[str, Mapping[str, float]]:
        return self.games.get(game, {})

    def fixed(self, game: str, keys: list[str]) -> dict[str, dict[str, float]]:
        """The fixed rating of each of ``keys`` that is an anchor in ``game``."""
        anchored = self.of(game)
        return {key: {"mu": float(anchored[key]["mu"]), "sigma": float(anchored[key]["sigma"])}
                for key in keys if key in anchored}

    def is_anchor(self, game: str, key: str) -> bool:
        return key in self.of(game)


def path_of(game_id: str) -> Path:
    """Where a game's anchors are kept."""
    return next(g for g in all_games() if g.id == game_id).data_dir() / FILE_NAME


def read_file(path: Path) -> dict[str, dict[str, float]]:
    """Player key -> ``{"mu", "sigma"}`` of one game's file."""
    entry = json.loads(path.read_text(encoding="utf-8"))
    return {key: {"mu": float(r["mu"]), "sigma": float(r["sigma"])}
            for key, r in entry["anchors"].items()}


def read() -> Anchors:
    """Every registered game's anchors (the files ``scripts.recalibrate_anchors`` writes)."""
    found = {}
    for game in all_games():
        path = game.data_dir() / FILE_NAME
        if path.is_file():
            found[game.id] = read_file(path)
    return Anchors(found)


NONE = Anchors()
