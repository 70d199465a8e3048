"""The complexity bound's checker (``scripts/check_complexity.py``) on a made-up tree."""

from __future__ import annotations

from pathlib import Path

from scripts.check_complexity import too_complex


def _chain(name: str, branches: int) -> str:
    """A function of complexity ``branches + 1``: an ``if kind == ...`` chain."""
    lines = [f"def {name}(kind):"]
    lines += [f"    if kind == {k}:\n        return {k}" for k in range(branches)]
    return "\n".join([*lines, "    return -1", ""])


def test_a_function_above_the_limit_is_listed_and_one_at_it_is_not(tmp_path: Path) -> None:
    (tmp_path / "shared" / "games").mkdir(parents=True)
    (tmp_path / "shared" / "games" / "views.py").write_text(
        _chain("label", 19) + "\n\nclass State:\n" + "\n".join(
            "    " + line for line in _chain("explain", 25).splitlines()).replace(
            "(kind)", "(self, kind)") + "\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(_chain("test_big", 30))  # not production
    assert list(too_complex(tmp_path)) == [("shared/games/views.py", 44, "State.explain", 26)]
    assert [f[2] for f in too_complex(tmp_path, limit=20 - 1)] == ["label", "State.explain"]
