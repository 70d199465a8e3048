"""The anchors: built-in bots whose rating is fixed, so the ladder has fixed points.

``anchors.json`` (next to this module) holds, per game, the fixed ``mu`` and ``sigma`` of
each anchored bot (``bot:random``, ``bot:greedy``, ``bot:ismcts:medium``...). A rated match
never moves an anchor (its stored rating is rewritten to the fixed value and only its match
count grows); the other seats are rated against the anchor's fixed value as OpenSkill would
against any player. Only ``python -m scripts.recalibrate_anchors`` rewrites the file (see
docs/ratings.md); a built-in bot the file does not name for a game is rated like an account.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ANCHORS_FILE = Path(__file__).with_name("anchors.json")


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


def read(path: Path = ANCHORS_FILE) -> Anchors:
    """The anchors of ``path`` (the file ``scripts.recalibrate_anchors`` writes)."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return Anchors({game: {key: {"mu": float(r["mu"]), "sigma": float(r["sigma"])}
                           for key, r in entry["anchors"].items()}
                    for game, entry in data["games"].items()})


NONE = Anchors()
