"""A game plugs in through ``Game`` alone: the API, the worker and the search name no game.

Adding an engine must touch nothing outside its own package, data, tests and docs, apart from
its line in ``shared.games.BUILTIN``; so no file of the services (``api/``, ``worker/`` and
every ``shared/`` package but the games and the kernel, which defines ``Game``) may name a
registered game's id or engine module, nor import an engine (``shared.games.schemas``, the
contract's schemas, is no engine).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shared.games import BUILTIN, all_games

ROOT = Path(__file__).resolve().parent.parent
# A bot's turn, hints and the match service live under shared/ since the layout: checking
# api/ and worker/ alone would leave the search and the bots unread.
SERVICE_DIRS = ("api", "worker", "shared/search", "shared/bots", "shared/matches",
                "shared/tournaments", "shared/ratings", "shared/accounts", "shared/infra",
                "shared/domain", "shared/services.py")


def _service_files() -> list[Path]:
    files = []
    for name in SERVICE_DIRS:
        top = ROOT / name
        files += [top] if top.is_file() else list(top.rglob("*"))
    return sorted(p for p in files if p.is_file() and "__pycache__" not in p.parts)


def _game_words() -> set[str]:
    words = {game.id for game in all_games()} | set(BUILTIN)
    # The module that defines each game class, e.g. shared.games.savanna.
    words |= {type(game).__module__.split(".")[2] for game in all_games()}
    return words


def test_service_files_exist() -> None:
    files = _service_files()
    assert len(files) > 10  # the check below must have something to read
    for name in SERVICE_DIRS:  # every place named still exists (a move would drop it)
        assert any(p == ROOT / name or ROOT / name in p.parents for p in files), name


@pytest.mark.parametrize("word", sorted(_game_words()))
def test_the_services_name_no_game(word: str) -> None:
    pattern = re.compile(rf"(?<![\w-]){re.escape(word)}(?![\w-])", re.IGNORECASE)
    offenders = [f"{path.relative_to(ROOT)}:{number}"
                 for path in _service_files()
                 for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
                 if pattern.search(line)]
    assert not offenders, f"{word!r} is named in {offenders}"


def test_the_services_import_no_engine() -> None:
    offenders = [str(path.relative_to(ROOT)) for path in _service_files()
                 if re.search(r"shared\.games\.(?!schemas\b)\w",
                              path.read_text(errors="replace"))]
    assert not offenders, f"engine modules imported by {offenders}"
