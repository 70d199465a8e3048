"""A game plugs in through ``Game`` alone: the API, the worker and the search name no game.

Adding an engine must touch nothing outside its own package, data, tests and docs, apart from
its line in ``shared.games.BUILTIN``; so no file under ``api/`` or ``worker/`` may name a
registered game's id or engine module, nor import an engine.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shared.games import BUILTIN, all_games

ROOT = Path(__file__).resolve().parent.parent
SERVICE_DIRS = ("api", "worker")


def _service_files() -> list[Path]:
    return sorted(p for d in SERVICE_DIRS for p in (ROOT / d).rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts)


def _game_words() -> set[str]:
    words = {game.id for game in all_games()} | set(BUILTIN)
    # The module that defines each game class, e.g. shared.games.savanna.
    words |= {type(game).__module__.split(".")[2] for game in all_games()}
    return words


def test_service_files_exist() -> None:
    assert len(_service_files()) > 10  # the check below must have something to read


@pytest.mark.parametrize("word", sorted(_game_words()))
def test_api_and_worker_name_no_game(word: str) -> None:
    pattern = re.compile(rf"(?<![\w-]){re.escape(word)}(?![\w-])", re.IGNORECASE)
    offenders = [f"{path.relative_to(ROOT)}:{number}"
                 for path in _service_files()
                 for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
                 if pattern.search(line)]
    assert not offenders, f"{word!r} is named in {offenders}"


def test_api_and_worker_import_no_engine() -> None:
    offenders = [str(path.relative_to(ROOT)) for path in _service_files()
                 if re.search(r"shared\.games\.\w", path.read_text(errors="replace"))]
    assert not offenders, f"engine modules imported by {offenders}"
