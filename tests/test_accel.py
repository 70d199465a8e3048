"""The mypyc build of the strength bench (``bench/accel.py``) plays exactly the sources' moves."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from bench import accel

ROOT = Path(__file__).resolve().parents[1]
CHECK = ["bench.accel_check", "--matches", "120", "--searches", "2", "--simulations", "200"]


def _run(*args: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_compiled_build_plays_the_same_moves_as_the_sources(tmp_path: Path) -> None:
    plain = _run(*CHECK)
    compiled = _run("bench.accel", "--dir", str(tmp_path), *CHECK)
    assert plain["compiled"] == []
    # Every listed module really ran compiled, so equal digests are not two plain runs.
    assert len(compiled["compiled"]) == len(accel.COMPILED)
    assert compiled["digest"] == plain["digest"]


def test_any_source_edit_gives_a_new_build(tmp_path: Path) -> None:
    for package in accel.PACKAGES:
        (tmp_path / package).mkdir()
        (tmp_path / package / "module.py").write_text("X = 1\n")
    before = accel.source_digest(tmp_path)
    (tmp_path / "worker" / "module.py").write_text("X = 2\n")
    edited = accel.source_digest(tmp_path)
    assert edited != before
    # Byte code is not source: it must not force a rebuild.
    (tmp_path / "shared" / "__pycache__").mkdir()
    (tmp_path / "shared" / "__pycache__" / "module.cpython-311.pyc").write_bytes(b"\0")
    assert accel.source_digest(tmp_path) == edited


def test_a_failed_build_says_how_to_run_plain_and_leaves_no_build(tmp_path: Path) -> None:
    env = {**os.environ, "CC": "false"}  # a C compiler that always fails
    done = subprocess.run([sys.executable, "-m", "bench.accel", "--dir", str(tmp_path),
                           "bench.accel_check"], cwd=ROOT, capture_output=True, text=True,
                          timeout=600, env=env)
    assert done.returncode == 1
    assert "the mypyc build failed" in done.stderr
    assert "python -m bench.accel_check" in done.stderr
    assert list(tmp_path.iterdir()) == []
