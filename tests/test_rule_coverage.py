"""Every rule id of a registered game's digest is named by at least one test.

The digests live beside the project (``../shared/rules``); when they are not there (a copy of
the repo without its reference folder) the test is skipped with that reason.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shared.games import all_games

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT.parent / "shared" / "rules"
DIGESTS = {"savanna": ("savanna.md", "S"), "evolution": ("evolution.md", "E"),
           "evolution-ns": ("evolution-ns.md", "N"), "darwinning": ("darwinning.md", "D")}
TEST_TEXT = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").rglob("*.py")
                      if p.name != Path(__file__).name)


def rule_ids(text: str, letter: str) -> set[str]:
    """The leaf rule ids of a digest (a section like E-3 counts only if it has no E-3.x)."""
    ids = set(re.findall(rf"\b({letter}-\d+(?:\.\d+)?)\b", text))
    return {i for i in ids if not any(other.startswith(f"{i}.") for other in ids)}


def named(rule_id: str) -> bool:
    """``E-3.1`` is named as such in a docstring or comment, or as ``e3_1`` in a test name."""
    snake = rule_id.lower().replace("-", "").replace(".", "_")
    return bool(re.search(rf"\b{re.escape(rule_id)}(?![.\d])", TEST_TEXT)
                or re.search(rf"def test_{snake}(?![\d])", TEST_TEXT))


@pytest.mark.parametrize("game_id", [g.id for g in all_games() if g.id in DIGESTS])
def test_every_rule_id_has_a_test(game_id: str) -> None:
    name, letter = DIGESTS[game_id]
    digest = RULES / name
    if not digest.exists():
        pytest.skip(f"{digest} is not beside the project")
    ids = rule_ids(digest.read_text(encoding="utf-8"), letter)
    assert ids, f"no rule ids found in {name}"
    missing = sorted(i for i in ids if not named(i))
    assert not missing, f"rule ids of {name} named by no test: {missing}"


def test_every_savanna_scoring_rule_has_a_test() -> None:
    """S-3's table rows #1-#11 are separate rules: each needs a test naming it."""
    for number in range(1, 12):
        assert re.search(rf"S-3\s*#\s*{number}\b|S-3\.{number}\b|s3_{number}_", TEST_TEXT), \
            f"no test names S-3 #{number}"


def test_every_evolution_trait_has_a_test() -> None:
    digest = RULES / "evolution.md"
    if not digest.exists():
        pytest.skip(f"{digest} is not beside the project")
    table = digest.read_text(encoding="utf-8").split("## E-5", 1)[1].split("## E-6", 1)[0]
    traits = re.findall(r"^\| ([A-Z][A-Za-z ]+?)(?: \(|\s*\|)", table, re.MULTILINE)
    traits = [t for t in traits if t != "trait"]
    assert len(traits) >= 15
    test_dir = (ROOT / "tests/games/evolution")
    text = "\n".join(p.read_text(encoding="utf-8") for p in test_dir.rglob("test_*.py"))
    missing = [t for t in traits if f"def test_{t.lower().replace(' ', '_')}" not in text
               and t.lower().replace(" ", "_") not in text]
    assert not missing, f"traits with no test: {missing}"
