"""The documentation against the code: the README is a front door, every environment variable
the code reads is documented exactly once (and nothing unread), the generated benchmark tables
are what their records give, and the docs name only paths that exist."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from bench import report

ROOT = Path(__file__).resolve().parent.parent
CONFIGURATION = ROOT / "docs" / "configuration.md"
#: Where the code that reads the environment lives (the benches and tests set it, not read it).
ENV_SOURCES = ["api", "worker", "shared", "scripts", "evo_arena", "gunicorn.conf.py"]
#: The docs this project writes (docs/rules/ is the rules references, checked by their own test).
DOCS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md",
        *sorted(p for p in (ROOT / "docs").glob("*.md"))]
ENV_NAME = re.compile(r"^[A-Z][A-Z0-9_]+$")


def _python_files() -> list[Path]:
    files: list[Path] = []
    for name in ENV_SOURCES:
        path = ROOT / name
        files += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return files


def _is_environ(node: ast.expr) -> bool:
    """``os.environ``, or a local copy of it named ``env`` / ``environ`` (scripts/run.py)."""
    if isinstance(node, ast.Attribute):
        return node.attr == "environ" and isinstance(node.value, ast.Name) \
            and node.value.id == "os"
    return isinstance(node, ast.Name) and node.id in {"env", "environ"}


def env_reads(source: str) -> set[str]:
    """The environment variables a module reads: ``os.environ.get(X)``, ``os.environ[X]``,
    ``os.getenv(X)``, ``X in os.environ`` (and the same on a copy named ``env``), where ``X``
    is a string or a module-level string constant (``SWITCH = "EVO_COMPILED"``)."""
    tree = ast.parse(source)
    constants = {target.id: node.value.value for node in tree.body
                 if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
                 and isinstance(node.value.value, str)
                 for target in node.targets if isinstance(target, ast.Name)}

    def name_of(node: ast.expr) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.Name):
            return constants.get(node.id)
        return None

    found: set[str | None] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args and isinstance(node.func, ast.Attribute):
            func = node.func
            if (func.attr in {"get", "pop", "setdefault"} and _is_environ(func.value)) or (
                    func.attr == "getenv" and isinstance(func.value, ast.Name)
                    and func.value.id == "os"):
                found.add(name_of(node.args[0]))
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) \
                and _is_environ(node.value):
            found.add(name_of(node.slice))
        elif isinstance(node, ast.Compare) and len(node.ops) == 1 \
                and isinstance(node.ops[0], (ast.In, ast.NotIn)) \
                and _is_environ(node.comparators[0]):
            found.add(name_of(node.left))
    return {name for name in found if name and ENV_NAME.match(name)}


def code_variables() -> set[str]:
    names: set[str] = set()
    for path in _python_files():
        names |= env_reads(path.read_text(encoding="utf-8"))
    return names


def documented_variables(text: str) -> list[str]:
    """The variable of every table row of the doc whose first cell is a `NAME`."""
    return re.findall(r"^\| `([A-Z][A-Z0-9_]+)` \|", text, flags=re.M)


def test_the_scan_finds_reads_of_every_form() -> None:
    source = '''
import os
SWITCH = "EVO_X"
a = os.environ.get("A_ONE", 1)
b = os.environ["B_TWO"]
c = os.getenv("C_THREE")
if "D_FOUR" not in os.environ:
    pass
env = dict(os.environ)
e = env.get("E_FIVE")
f = os.environ.get(SWITCH)
env["WRITTEN"] = "x"
g = request.environ.get("wsgi.input")
'''
    assert env_reads(source) == {"A_ONE", "B_TWO", "C_THREE", "D_FOUR", "E_FIVE", "EVO_X"}


def test_every_environment_variable_is_documented_exactly_once() -> None:
    read = code_variables()
    assert {"REDIS_URL", "PORT", "WEB_CONCURRENCY", "EVO_COMPILED"} <= read  # the scan works
    documented = documented_variables(CONFIGURATION.read_text(encoding="utf-8"))
    twice = sorted({name for name in documented if documented.count(name) > 1})
    assert not twice, f"documented more than once in docs/configuration.md: {twice}"
    missing = sorted(read - set(documented))
    assert not missing, f"read by the code but not in docs/configuration.md: {missing}"
    unread = sorted(set(documented) - read)
    assert not unread, f"in docs/configuration.md but read by no code: {unread}"


@pytest.mark.parametrize("name", sorted(report.TABLES))
def test_generated_benchmark_tables_match_their_records(name: str) -> None:
    """docs/benchmarks.md's table is what `python -m bench.report` makes of bench/results/."""
    text = report.DOC.read_text(encoding="utf-8")
    assert report.committed(text, name) == report.TABLES[name](), \
        f"the {name} table of docs/benchmarks.md is out of date: run python -m bench.report"


def test_readme_is_a_front_door() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 250
    first_block = lines[lines.index("```sh") + 1:]
    first_block = first_block[:first_block.index("```")]
    assert next(line for line in lines[1:] if line.strip()) == "```sh", \
        "after its title, the README starts with the two commands"
    assert [line.split()[:2] for line in first_block] == [["make", "run"], ["make", "test"]]


#: Paths of the layout before the reorganisation (commit 8625cbb) that must not come back.
OLD_PATHS = ["shared/store.py", "shared/service.py", "shared/protocol.py", "worker/search",
             "worker/turns.py", "shared/data/", "worker/carryover.py", "worker/bots.py",
             "worker/hints.py", "worker/deadlines.py", "worker/fallback.py",
             "worker/webhooks.py", "worker/store_retry.py", "shared/accel.py",
             "shared/queue.py", "shared/notifier.py", "shared/config.py",
             "shared/protocol_state.py", "shared/account_store.py",
             "shared/tournament_store.py", "shared/ratings.py", "shared/accounts.py",
             "shared/moves.py", "shared/hints.py", "shared/redis_client.py",
             "shared/schemas/"]


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_docs_name_no_old_path(doc: Path) -> None:
    """(That no file points outside the repository is tests/test_rule_coverage.py's.)"""
    text = doc.read_text(encoding="utf-8")
    old = [path for path in OLD_PATHS if path in text]
    assert not old, f"{doc.name} names paths of the old layout: {old}"


#: A path in backticks or a link target, under one of the repository's top-level folders.
PATH = re.compile(r"[`(]((?:api|worker|shared|tests|bench|scripts|docs|deploy|evo_arena)"
                  r"/[\w./-]*)[`)#]")


#: Written on a parallel branch of the same change (the Redis key space table): linked before
#: it lands. Remove the entry once docs/keys.md is in the tree.
PENDING = {ROOT / "docs" / "keys.md"}


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_paths_the_docs_name_exist(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    base = doc.parent
    missing = []
    for path in sorted(set(PATH.findall(text))):
        if not ((ROOT / path).exists() or (base / path).exists() or ROOT / path in PENDING):
            missing.append(path)
    for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", text):  # relative links
        if not ((base / target).exists() or (base / target).resolve() in PENDING):
            missing.append(target)
    assert not missing, f"{doc.name} names paths that do not exist: {missing}"


def _anchors(path: Path) -> set[str]:
    """GitHub's anchors of a Markdown file's headings: lower case, punctuation dropped,
    spaces to hyphens."""
    anchors = set()
    for heading in re.findall(r"^#+ (.+)$", path.read_text(encoding="utf-8"), flags=re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        anchors.add(slug)
    return anchors


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_links_to_sections_find_them(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.S)  # code blocks hold no links
    broken = []
    for target, anchor in re.findall(r"\]\(([^)#:]*)#([^)]+)\)", text):
        path = (doc.parent / target) if target else doc
        if path.resolve() in PENDING and not path.exists():
            continue
        if anchor not in _anchors(path):
            broken.append(f"{target}#{anchor}")
    assert not broken, f"{doc.name} links to sections that do not exist: {broken}"
