"""The Darwinning! and Evolution (North Star) engines play exactly the moves they played
before their speed-up: seeded random matches and seeded searches against digests recorded on
the engines before it (``tests/games/engine_fingerprint.py`` says how to re-record)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shared.games import get_game
from tests.games.engine_fingerprint import GAMES, match_digest, search_digest

RECORDED = json.loads((Path(__file__).parent / "fixtures" / "engine_fingerprints.json")
                      .read_text())


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_seeded_random_matches_are_unchanged(game_id: str) -> None:
    assert match_digest(get_game(game_id)) == RECORDED[game_id]["matches"]


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_seeded_searches_are_unchanged(game_id: str) -> None:
    assert search_digest(get_game(game_id)) == RECORDED[game_id]["searches"]
