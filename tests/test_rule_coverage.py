"""Every rule of the repository's rules references (docs/rules/<game id>.md) is named by a test.

A test names a rule with a ``@pytest.mark.rule("S-2.6", ...)`` marker (on a test function, a
test class, a module's ``pytestmark`` or a ``pytest.param(..., marks=...)``) or by its name
(``test_s2_6_...``). The test files are parsed, not searched as text, so a rule id mentioned
in a comment or a docstring names nothing. Every registered game must have its reference;
docs/rules/README.md describes the format. The repository stands alone: no file in it may
point at a folder beside it.
"""

from __future__ import annotations

import ast
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from shared.games import all_games

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules"
TITLE = re.compile(r"^# .+ — rules reference$")
PREFIX = re.compile(r"^Rule id prefix: ([A-Z])$", re.MULTILINE)
TEST_NAME = re.compile(r"^test_([a-z])(\d+(?:_\d+)*)(?:_|$)")


def rule_ids(text: str, letter: str) -> set[str]:
    """The leaf rule ids of a reference: ``S-3`` counts only if there is no ``S-3.x``."""
    ids = set(re.findall(rf"(?<![\w-])({letter}-\d+(?:\.\d+)*)(?![\w-]|\.\d)", text))
    return {i for i in ids if not any(other.startswith(f"{i}.") for other in ids)}


def _is_rule_marker(node: ast.expr) -> bool:
    """``pytest.mark.rule`` (or ``mark.rule``) as the callee of a call."""
    return (isinstance(node, ast.Attribute) and node.attr == "rule"
            and isinstance(node.value, ast.Attribute) and node.value.attr == "mark")


def _marker_ids(node: ast.AST | None, where: str) -> Iterator[str]:
    """The ids of every rule-marker call inside ``node`` (a decorator, a marks= value)."""
    if node is None:
        return
    for call in ast.walk(node):
        if isinstance(call, ast.Call) and _is_rule_marker(call.func):
            for arg in call.args:
                if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                    raise ValueError(f"{where}: a rule marker takes string literals only")
                yield arg.value


def ids_named_in(source: str, where: str = "<test>") -> set[str]:
    """The rule ids a test module's tests name, by marker or by test name."""
    tree = ast.parse(source)
    named: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            is_test = (node.name.startswith("test") if not isinstance(node, ast.ClassDef)
                       else node.name.startswith("Test"))
            if not is_test:
                continue
            for decorator in node.decorator_list:
                named.update(_marker_ids(decorator, where))
            match = TEST_NAME.match(node.name)
            if match:
                named.add(f"{match[1].upper()}-{match[2].replace('_', '.')}")
        elif isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets):
            named.update(_marker_ids(node.value, where))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "param"):
            for keyword in node.keywords:
                if keyword.arg == "marks":
                    named.update(_marker_ids(keyword.value, where))
    return named


def named_rule_ids() -> set[str]:
    named: set[str] = set()
    for path in sorted((ROOT / "tests").rglob("*.py")):
        if path.name != Path(__file__).name:
            named |= ids_named_in(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    return named


def references() -> list[str]:
    """Game ids with a reference or a registered engine (each needs both checks)."""
    documented = {p.stem for p in RULES.glob("*.md") if p.name != "README.md"}
    return sorted(documented | {game.id for game in all_games()})


@pytest.mark.parametrize("game_id", references())
def test_every_rule_id_is_named_by_a_test(game_id: str) -> None:
    path = RULES / f"{game_id}.md"
    assert path.exists(), f"no docs/rules/{game_id}.md: game {game_id!r} has no rules reference"
    text = path.read_text(encoding="utf-8")
    assert TITLE.match(text.splitlines()[0]), \
        f"docs/rules/{game_id}.md must start with '# <Game name> — rules reference'"
    prefix = PREFIX.search(text)
    assert prefix, f"docs/rules/{game_id}.md has no line 'Rule id prefix: X'"
    ids = rule_ids(text, prefix[1])
    assert ids, f"no rule ids found in docs/rules/{game_id}.md"
    missing = sorted(ids - named_rule_ids(), key=lambda i: [int(n) for n in i[2:].split(".")])
    assert not missing, f"rule ids of docs/rules/{game_id}.md named by no test: {missing}"


def test_the_index_lists_every_reference() -> None:
    index = (RULES / "README.md").read_text(encoding="utf-8")
    for game_id in references():
        assert f"({game_id}.md)" in index, f"docs/rules/README.md does not list {game_id}.md"


def test_rule_ids_count_only_when_a_test_itself_names_them() -> None:
    source = '''
import pytest

# S-9.1 in a comment names nothing
@pytest.mark.rule("S-9.2", "S-9.3")
def test_marked() -> None:
    """S-9.4 in a docstring names nothing."""

@pytest.mark.rule("S-9.5")
class TestGroup:
    def test_inner(self) -> None: ...

@pytest.mark.parametrize("x", [
    pytest.param(1, marks=pytest.mark.rule("S-9.6")),
    pytest.param(2, marks=[pytest.mark.slow, pytest.mark.rule("S-9.7")])])
def test_params(x: int) -> None: ...

def test_s9_8_by_name() -> None: ...

@pytest.mark.rule("S-9.9")
def helper() -> None: ...  # not a test
'''
    assert ids_named_in(source) == {"S-9.2", "S-9.3", "S-9.5", "S-9.6", "S-9.7", "S-9.8"}
    assert ids_named_in('pytestmark = [pytest.mark.rule("S-9.10")]') == {"S-9.10"}
    with pytest.raises(ValueError, match="string literals"):
        ids_named_in('@pytest.mark.rule(*IDS)\ndef test_x() -> None: ...')
    text = "- **S-1.1** a\n- **S-2** b\n| S-3.1 | c |\n## S-3 d\nsee S-3.1; S-3.x, XS-4"
    assert rule_ids(text, "S") == {"S-1.1", "S-2", "S-3.1"}


# -- the repository stands alone ---------------------------------------------------------------

# Spelled in pieces, so that this file does not name them itself.
OUTSIDE = ("../" + "shared", "/work" + "/", "shared/" + "seeds", "shared/" + "rules")
SKIPPED_DIRS = {".git", ".venv", "var", "__pycache__", ".pytest_cache", ".ruff_cache"}


def repository_files() -> list[Path]:
    """Tracked files and new ones git does not ignore; without git, a walk of the tree."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=ROOT,
            capture_output=True, check=True).stdout.decode().split("\0")
        return [ROOT / name for name in listed if name and (ROOT / name).is_file()]
    except (OSError, subprocess.CalledProcessError):
        return [p for p in ROOT.rglob("*") if p.is_file()
                and not SKIPPED_DIRS & set(p.relative_to(ROOT).parts)]


def test_no_file_points_outside_the_repository() -> None:
    offenders = []
    for path in repository_files():
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # binary
        found = [needle for needle in OUTSIDE if needle in text]
        if found:
            offenders.append(f"{path.relative_to(ROOT)}: {', '.join(found)}")
    assert not offenders, "files pointing outside the repository:\n" + "\n".join(offenders)
