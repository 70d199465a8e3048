"""The Redis key space is documented in one table (``docs/keys.md``), and each key prefix is
spelled by its owner module only (one door per store): every ``"evo:...`` string in the
sources names a prefix of the table, and appears in the module the table names for it."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("api", "worker", "shared", "scripts", "evo_arena")
#: A string literal (plain, f-, r- or b-string) that starts with a key of ours: its prefix is
#: the first segment after ``evo:`` (``evo:m:{id}:log`` -> ``m``, ``evo:active`` -> ``active``).
LITERAL = re.compile(r"""(?<![\w`])[rRbBfF]{0,2}["']evo:([A-Za-z_]+)""")
#: A row of the table: its key pattern and its owner module (both in backticks).
ROW = re.compile(r"^\|\s*`evo:([A-Za-z_]+)[^`]*`\s*\|[^|]*\|\s*`([^`]+)`")


def documented() -> dict[str, set[str]]:
    """Prefix -> the owner modules ``docs/keys.md`` names for it."""
    owners: dict[str, set[str]] = defaultdict(set)
    for line in (ROOT / "docs" / "keys.md").read_text().splitlines():
        found = ROW.match(line)
        if found:
            owners[found.group(1)].add(found.group(2))
    return owners


def spelled() -> dict[str, set[str]]:
    """Prefix -> the source files (relative paths) whose code spells a key of it."""
    where: dict[str, set[str]] = defaultdict(set)
    for top in SOURCES:
        for path in sorted((ROOT / top).rglob("*.py")):
            for prefix in LITERAL.findall(path.read_text()):
                where[prefix].add(path.relative_to(ROOT).as_posix())
    return where


def test_the_table_names_one_owner_per_prefix() -> None:
    owners = documented()
    assert {"m", "active", "a", "ak", "an", "akeys", "t", "r", "stats", "rl", "bots"} <= set(
        owners)
    assert {p: o for p, o in owners.items() if len(o) != 1} == {}
    for prefix, (owner,) in ((p, tuple(o)) for p, o in owners.items()):
        assert (ROOT / owner).is_file(), f"evo:{prefix}: no module {owner}"


def test_every_key_prefix_in_the_code_is_documented() -> None:
    missing = sorted(set(spelled()) - set(documented()))
    assert missing == [], f"key prefixes missing from docs/keys.md: {missing}"


def test_each_prefix_is_spelled_by_its_owner_only() -> None:
    owners = documented()
    strays = {f"evo:{prefix}": sorted(files - owners[prefix])
              for prefix, files in spelled().items() if files - owners.get(prefix, files)}
    assert strays == {}, f"keys spelled outside their owner module: {strays}"


def test_every_documented_prefix_is_spelled_by_its_owner() -> None:
    where = spelled()
    stale = sorted(f"evo:{p}" for p, owner in documented().items() if not owner & where[p])
    assert stale == [], f"docs/keys.md names keys its owner no longer spells: {stale}"


def test_every_key_of_an_account_is_in_the_table() -> None:
    """The accounts store spells its keys as ``evo:a:{id}`` plus a suffix: each one is a row
    (``evo:a:<id>:invitations`` among them)."""
    source = (ROOT / "shared" / "accounts" / "store.py").read_text()
    suffixes = set(re.findall(r"_key\([a-z_]+, \"(:[a-z]+)\"\)", source))
    table = (ROOT / "docs" / "keys.md").read_text()
    assert ":invitations" in suffixes and ":matches" in suffixes
    missing = sorted(s for s in suffixes if f"`evo:a:<id>{s}`" not in table)
    assert missing == [], f"account keys missing from docs/keys.md: {missing}"
