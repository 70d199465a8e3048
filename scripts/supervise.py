"""A small process supervisor for ``make run``: restarts a child that dies, with back-off, and
never leaves an orphan.

Every child runs in its own session (process group), so a Celery worker's pool or gunicorn's
workers are stopped with it: when a child's main process exits, whatever is left of its group
is killed before the child is started again, and on shutdown each group is sent SIGTERM, then
SIGKILL if it lingers.

Beside the children it runs one-off jobs (the compiled build ``make run`` makes in the
background), calling back when one ends, and it replaces a running child gracefully: the new
process starts first, the old one's leader alone is sent SIGTERM (a Celery worker's warm
shutdown: it finishes the tasks it runs, and its pool with them) and its group is killed once
it has exited, or after ``REPLACE_GRACE`` seconds.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

Start = Callable[[], subprocess.Popen[bytes]]

FIRST_BACKOFF = 0.5  # seconds before the first restart of a child that died
MAX_BACKOFF = 30.0
STABLE_AFTER = 30.0  # a child up this long is healthy again: its back-off starts over
#: How long a replaced child may take to finish its work: a bot's search is seconds, so this
#: is ample; a task still running then is redelivered (acks late) to the new worker.
REPLACE_GRACE = 120.0


@dataclass
class Child:
    """One supervised program: how to start it and its current process."""

    name: str
    start: Start
    process: subprocess.Popen[bytes] | None = None
    started_at: float = 0.0
    backoff: float = FIRST_BACKOFF
    restart_at: float | None = None  # when a dead child is due to start again
    restarts: int = 0
    history: list[float] = field(default_factory=list)

    def launch(self) -> None:
        self.process = self.start()
        self.started_at = time.monotonic()
        self.restart_at = None


def kill_group(process: subprocess.Popen[bytes], sig: int) -> None:
    """Signal ``process``'s whole group (it leads its own session); no error if it is gone."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, sig)


@dataclass
class Job:
    """A one-off program run beside the children, never restarted: ``done`` is called with
    its exit code once it has ended."""

    name: str
    process: subprocess.Popen[bytes]
    done: Callable[[int], None]


@dataclass
class Retiring:
    """The old process of a replaced child, finishing its work until ``deadline``."""

    name: str
    process: subprocess.Popen[bytes]
    deadline: float


def stop_process(name: str, process: subprocess.Popen[bytes], timeout: float = 20) -> None:
    """SIGTERM the process's group, wait for its leader, then SIGKILL what remains."""
    if process.poll() is None:
        kill_group(process, signal.SIGTERM)
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            print(f"{name} did not stop in {timeout:g} s; killing it", file=sys.stderr)
    kill_group(process, signal.SIGKILL)  # the leader's orphans (a pool child, a worker)
    if process.poll() is None:
        process.wait(timeout=10)


def stop_child(child: Child, timeout: float = 20) -> None:
    """Stop the child's current process and its group (:func:`stop_process`)."""
    if child.process is not None:
        stop_process(child.name, child.process, timeout)


class Supervisor:
    """Starts ``children`` in order, keeps them running, stops them in reverse order."""

    def __init__(self, children: list[Child], state_file: Path | None = None) -> None:
        self.children = children
        self.state_file = state_file
        self.stopping = False
        self.jobs: list[Job] = []
        self.retiring: list[Retiring] = []

    def _write_state(self) -> None:
        """The children's pids and restart counts, for tests and operators (atomic write)."""
        if self.state_file is None:
            return
        state = {c.name: {"pid": c.process.pid if c.process else None,
                          "restarts": c.restarts} for c in self.children}
        tmp = self.state_file.with_suffix(".tmp")
        tmp.write_text(json.dumps(state))
        tmp.replace(self.state_file)

    def start(self) -> None:
        for child in self.children:
            child.launch()
        self._write_state()

    def add_job(self, job: Job) -> None:
        """Watch ``job`` (already started, in a session of its own) until it ends."""
        self.jobs.append(job)

    def replace(self, child: Child, grace: float = REPLACE_GRACE) -> None:
        """Start ``child`` afresh (e.g. on a new build) and retire its running process
        gracefully. A child that is down already just starts afresh when it is due."""
        old = child.process
        if old is None or old.poll() is not None or child.restart_at is not None:
            return
        try:
            child.launch()
        except Exception as exc:  # the old process keeps serving
            child.process = old
            print(f"{child.name} could not be replaced: {exc}", file=sys.stderr)
            return
        # The leader alone: a Celery worker's pool processes stop at once on a SIGTERM of
        # their own, dropping their tasks; the leader's warm shutdown lets them finish.
        with contextlib.suppress(ProcessLookupError):
            os.kill(old.pid, signal.SIGTERM)
        self.retiring.append(Retiring(child.name, old, time.monotonic() + grace))
        self._write_state()

    def _check_jobs(self, now: float) -> None:
        for job in list(self.jobs):
            code = job.process.poll()
            if code is not None:
                kill_group(job.process, signal.SIGKILL)  # nothing of it outlives it
                self.jobs.remove(job)
                job.done(code)
        for old in list(self.retiring):
            if old.process.poll() is None and now < old.deadline:
                continue
            if old.process.poll() is None:
                print(f"the replaced {old.name} did not stop in time; killing it",
                      file=sys.stderr)
            kill_group(old.process, signal.SIGKILL)  # what is left of its group
            old.process.wait(timeout=10)
            self.retiring.remove(old)

    def check(self, now: float) -> None:
        """Restart children that died, each after its back-off; watch jobs and the
        processes of replaced children."""
        self._check_jobs(now)
        changed = False
        for child in self.children:
            process = child.process
            if process is not None and child.restart_at is None and process.poll() is not None:
                kill_group(process, signal.SIGKILL)  # no orphan outlives its leader
                if now - child.started_at >= STABLE_AFTER:
                    child.backoff = FIRST_BACKOFF
                child.restart_at = now + child.backoff
                print(f"{child.name} exited with code {process.returncode}; restarting in "
                      f"{child.backoff:g} s", file=sys.stderr)
                child.backoff = min(child.backoff * 2, MAX_BACKOFF)
            if child.restart_at is not None and now >= child.restart_at:
                try:
                    child.launch()
                except Exception as exc:  # e.g. Redis not answering yet: try again later
                    print(f"{child.name} failed to start: {exc}", file=sys.stderr)
                    child.restart_at = now + child.backoff
                    child.backoff = min(child.backoff * 2, MAX_BACKOFF)
                    continue
                child.restarts += 1
                child.history.append(now)
                changed = True
        if changed:
            self._write_state()

    def run(self, poll: float = 0.25) -> None:
        """Supervise until SIGINT or SIGTERM, then stop every child."""

        def stop(*_: object) -> None:
            self.stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        try:
            while not self.stopping:
                self.check(time.monotonic())
                time.sleep(poll)
        finally:
            for job in self.jobs:
                stop_process(job.name, job.process)
            for old in self.retiring:
                stop_process(old.name, old.process)
            # Reverse order (workers and the API before Redis): nothing writes to a dead store.
            for child in reversed(self.children):
                stop_child(child)
