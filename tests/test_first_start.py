"""A first start does not keep a newcomer waiting (``scripts/run.py``, ``make run``): the API
answers while the compiled build is still being made, and once it is ready the workers are
replaced by workers running it.

The build is a stand-in (``EVO_ACCEL_BUILD``) that waits for the test to open a gate, then
puts a copy of the real build (``compiled_build``) where this stack keeps its builds
(``EVO_ACCEL_DIR``): a real build takes minutes, and ``tests/test_accel.py`` tests it.
Loopback only: Redis, the API and the workers on free ports of 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import pytest
import requests

from scripts.localredis import free_port
from scripts.supervise import Child, Supervisor, stop_child
from shared.infra import accel

# It starts `make run`'s whole stack (Redis, gunicorn, Celery): an integration test, left out
# of `make test-fast`.
pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[1]
IN_PROGRESS = "worker runs the plain sources; compiled build in progress"
READY = "compiled build ready: workers restarted on it"
PLAIN_BOOT = "compiled build: none for these sources"
#: The build's stand-in: wait for the gate, then publish the build as ``accel.build`` does
#: (complete under another name, then renamed into place).
STAND_IN = """
import shutil, sys, time
from pathlib import Path
gate, source, target = map(Path, sys.argv[1:])
while not gate.exists():
    time.sleep(0.1)
partial = target.with_name(target.name + '.part')
shutil.copytree(source, partial, symlinks=True)
partial.rename(target)
"""


def _wait(what: str, condition: Callable[[], object], timeout: float,
          log: Path) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} within {timeout:g} s; make run's output:\n"
                                 + log.read_text(errors="replace")[-4000:])
        time.sleep(0.2)


def _healthy(base: str) -> bool:
    try:
        return requests.get(f"{base}/healthz", timeout=1).status_code == 200
    except requests.RequestException:
        return False


def _pids(var: Path) -> dict[str, int]:
    try:
        state = json.loads((var / "supervisor.json").read_text())
    except (OSError, ValueError):  # not written yet, or being replaced
        return {}
    return {name: child["pid"] for name, child in state.items()}


def _maps(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return ""


def _maps_folder(pid: int, folder: Path) -> bool:
    """Whether the process has mapped a file of ``folder`` (a compiled module of the build)."""
    return str(folder) in _maps(pid)


def _gone(pid: int) -> bool:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return True
    return fields[0] == "Z"  # exited, not yet reaped


@dataclass
class Run:
    """``python -m scripts.run`` and where to look at it."""

    process: subprocess.Popen[bytes]
    base: str  # the API's URL
    var: Path  # EVO_VAR: supervisor.json
    log: Path  # everything make run prints
    gate: Path  # the build's stand-in finishes once this exists
    target: Path  # where the build of these sources lands


@pytest.fixture
def run(tmp_path: Path, compiled_build: Path) -> Iterator[Run]:
    """``python -m scripts.run`` on loopback ports with the build's stand-in; stopped after."""
    var, builds = tmp_path / "var", tmp_path / "accel"
    var.mkdir()
    builds.mkdir()
    gate, target = tmp_path / "gate", builds / compiled_build.name  # same sources, same digest
    port = free_port()
    env = {name: value for name, value in os.environ.items()
           if name not in {"REDIS_URL", "BROKER_URL", "REDIS_CLUSTER_NODES", accel.SWITCH}}
    env.update({accel.DIR_VARIABLE: str(builds)})
    env.update(EVO_VAR=str(var), HOST="127.0.0.1", PORT=str(port), REDIS_PORT=str(free_port()),
               BOT_WORKERS="1", WORKER_CONCURRENCY="1", TOURNAMENT_CONCURRENCY="1",
               WEB_CONCURRENCY="1",
               EVO_ACCEL_BUILD=shlex.join([sys.executable, "-c", STAND_IN, str(gate),
                                           str(compiled_build), str(target)]))
    log = tmp_path / "run.log"
    with open(log, "wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "scripts.run"], cwd=ROOT, env=env,
                                   stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    try:
        yield Run(process, f"http://127.0.0.1:{port}", var, log, gate, target)
    finally:
        process.send_signal(signal.SIGTERM)  # the supervisor stops every child and the build
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


def test_make_run_serves_before_the_build_and_then_runs_the_workers_on_it(run: Run) -> None:
    def output() -> str:
        return run.log.read_text(errors="replace")

    # The API answers while the build is still being made (its stand-in waits for the gate).
    _wait("/healthz answered 200", lambda: _healthy(run.base), 45, run.log)
    assert not run.target.exists()
    assert IN_PROGRESS in output()
    # Both workers (people's matches, tournaments) booted on the plain sources.
    _wait("both workers ready on the plain sources",
          lambda: output().count(PLAIN_BOOT) >= 2, 45, run.log)
    old = _pids(run.var)
    workers = ["worker-0", "tournament worker"]
    assert not any(str(run.target) in _maps(old[name]) for name in workers)

    run.gate.touch()
    _wait("the supervisor said the workers restarted on the build",
          lambda: READY in output(), 30, run.log)
    new = _pids(run.var)
    for name in workers:
        assert new[name] != old[name], f"{name} was not restarted"
        # The new worker has loaded the build's compiled modules (it imports the engines
        # as it boots), and the old one has exited.
        _wait(f"the new {name} mapped the build's compiled modules",
              partial(_maps_folder, new[name], run.target), 30, run.log)
        _wait(f"the old {name} exited", partial(_gone, old[name]), 30, run.log)
    assert _healthy(run.base)
    assert run.process.poll() is None


#: A worker-like child: a helper process in its group (as a Celery pool process is), and on
#: SIGTERM it finishes its work in hand, then writes whether the helper was still running.
GRACEFUL = """
import signal, subprocess, sys, time
from pathlib import Path
out, up = Path(sys.argv[1]), Path(sys.argv[2])
helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
def finish(*_):
    time.sleep(0.5)
    out.write_text(repr(helper.poll()))
    sys.exit(0)
signal.signal(signal.SIGTERM, finish)
up.write_text(str(helper.pid))
time.sleep(60)
"""


def test_a_replaced_child_finishes_its_work_before_its_group_goes(tmp_path: Path) -> None:
    out, up = tmp_path / "out", tmp_path / "up"
    child = Child("worker", lambda: subprocess.Popen(
        [sys.executable, "-c", GRACEFUL, str(out), str(up)], start_new_session=True))
    supervisor = Supervisor([child])
    supervisor.start()
    try:
        _wait("the child started", up.exists, 20, up)
        old, helper = child.process, int(up.read_text())
        up.unlink()
        supervisor.replace(child)
        assert child.process is not old and supervisor.retiring
        deadline = time.monotonic() + 20
        while supervisor.retiring and time.monotonic() < deadline:
            supervisor.check(time.monotonic())
            time.sleep(0.1)
        assert not supervisor.retiring
        # Only the old leader was asked to stop: its helper ran until the leader was done,
        # then went with its group.
        assert out.read_text() == "None"
        assert _gone(helper)
        assert child.process is not None and child.process.poll() is None
    finally:
        stop_child(child)
