"""The complexity bound: no production function or method above cyclomatic complexity 20.

Counts as ``radon cc`` does (radon's own visitor, closures included in their function) over
every Python file of the production packages, prints each function above the bound with its
file, line and complexity, and exits 1 if there is any. Run by ``make lint``::

    python -m scripts.check_complexity
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Final

from radon.complexity import cc_visit  # type: ignore[import-untyped]
from radon.visitors import Function  # type: ignore[import-untyped]

ROOT: Final = Path(__file__).resolve().parent.parent
#: The production packages (tests and benches are not bound).
PACKAGES: Final = ("api", "worker", "shared", "scripts", "evo_arena")
#: The highest cyclomatic complexity a function may have.
LIMIT: Final = 20


def too_complex(root: Path = ROOT, limit: int = LIMIT) -> Iterator[tuple[str, int, str, int]]:
    """``(file, line, name, complexity)`` of every function or method above ``limit``."""
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            for block in cc_visit(path.read_text(encoding="utf-8")):
                if isinstance(block, Function) and block.complexity > limit:
                    yield (str(path.relative_to(root)), block.lineno, block.fullname,
                           block.complexity)


def main() -> int:
    found = list(too_complex())
    for path, line, name, complexity in found:
        print(f"{path}:{line}: {name} has cyclomatic complexity {complexity} (limit {LIMIT})")
    if found:
        print(f"{len(found)} function(s) above complexity {LIMIT}: split them (dispatch "
              "tables, small helpers)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
