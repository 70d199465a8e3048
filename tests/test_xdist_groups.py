"""``--dist loadgroup`` keeps each ``xdist_group`` on one worker (``tests/xdist_groups.py``):
the groups exist so that a group's costly shared fixtures start once, not on every worker."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUITE = '''
import pytest

@pytest.mark.xdist_group("first")
@pytest.mark.parametrize("i", range(4))
def test_first(i):
    pass

@pytest.mark.xdist_group("second")
@pytest.mark.parametrize("i", range(4))
def test_second(i):
    pass

@pytest.mark.parametrize("i", range(4))
def test_anywhere(i):
    pass
'''


def test_each_group_runs_on_one_worker(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text(
        "from tests.xdist_groups import pytest_collection_modifyitems  # noqa: F401\n")
    (tmp_path / "test_grouped.py").write_text(SUITE)
    # Only xdist among the installed plugins: a quick start of the three processes.
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    env.pop("PYTEST_ADDOPTS", None)  # the outer run's options (a --basetemp) are not its own
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "xdist", "-n", "2",
                           "--dist", "loadgroup", "-v", "-p", "no:cacheprovider",
                           str(tmp_path)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    ran = re.findall(r"\[(gw\d)\] .*PASSED \S+::(test_\w+)\[\d\]", done.stdout)
    assert len(ran) == 12, done.stdout
    workers: dict[str, set[str]] = {}
    for worker, test in ran:
        workers.setdefault(test, set()).add(worker)
    assert len(workers["test_first"]) == 1 and len(workers["test_second"]) == 1, workers
