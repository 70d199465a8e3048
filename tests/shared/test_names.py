"""One rule for names (``shared.domain.names``), and the contract's pattern spells it."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
import yaml

from shared.domain.names import name_problem

ROOT = Path(__file__).resolve().parents[2]


def contract_patterns() -> list[str]:
    """Every name pattern of the contract's request bodies (seats, joins, accounts, …)."""
    spec = yaml.load((ROOT / "openapi.yaml").read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    # An API key's name (NewApiKey) is an identifier with a pattern of its own, not a name.
    found = [prop["pattern"] for title, schema in spec["components"]["schemas"].items()
             for name, prop in schema.get("properties", {}).items()
             if name == "name" and "pattern" in prop and title != "NewApiKey"]
    # A seat's and an entrant's name is the named schema ``SeatName`` (referenced).
    found += [schema["pattern"] for title, schema in spec["components"]["schemas"].items()
              if title.endswith("Name") and "pattern" in schema]
    assert len(found) >= 5
    return found


@pytest.mark.parametrize("name", ["a\u202eb", "\u2066x\u2069", "a\u200bb", "x\x00", "\x7f",
                                  "a\u2029b", "\U000e0001x", "   ", "\u3000", ""])
def test_refused(name: str) -> None:
    assert name_problem(name) is not None


@pytest.mark.parametrize("name", ["Seat 0", "Žluťoučký kůň", "مرحبا", "東京 🦒", " a "])
def test_accepted(name: str) -> None:
    assert name_problem(name) is None


def test_the_contract_pattern_agrees_with_the_server_on_every_bmp_character() -> None:
    """So a generated client refuses exactly what the server refuses (the pattern spells the
    Basic Multilingual Plane; Python's Unicode database decides the categories)."""
    for pattern in set(contract_patterns()):
        compiled = re.compile(pattern)
        for code in range(0x10000):
            char = chr(code)
            for name in (char, f"a{char}b"):
                agrees = (compiled.fullmatch(name) is not None) == (name_problem(name) is None)
                assert agrees, (f"U+{code:04X} ({unicodedata.category(char)}) in {name!r}: "
                                "the contract's name pattern and name_problem disagree")
