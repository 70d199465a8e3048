"""Helpers of the fault tests: ``make run``'s supervised stack on free ports, a resilient
human player that records every move the API accepted, and the check that none was lost."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests

from scripts.localredis import free_port
from scripts.stack import ROOT
from tests.integration.conftest import Client, stack_env

RETRYABLE = (503, 507)


@dataclass
class RunStack:
    """``python -m scripts.run`` (the supervisor of ``make run``) and what it started."""

    process: subprocess.Popen[bytes]
    var: Path
    base: str
    redis_url: str

    def children(self) -> dict[str, dict[str, Any]]:
        return json.loads((self.var / "supervisor.json").read_text())

    def pid(self, name: str) -> int:
        return int(self.children()[name]["pid"])

    def wait_restarted(self, name: str, old_pid: int, timeout: float = 60) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                pid = self.pid(name)
            except (OSError, ValueError):  # being rewritten
                pid = old_pid
            if pid != old_pid:
                return pid
            time.sleep(0.2)
        raise AssertionError(f"{name} was not restarted within {timeout} s")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)


def start_run_stack(tmp: Path, bot_workers: int = 2) -> RunStack:
    redis_port, api_port = free_port(), free_port()
    redis_url = f"redis://127.0.0.1:{redis_port}/0"
    env = stack_env(redis_url)
    for name in ("REDIS_URL", "BROKER_URL"):  # scripts.run starts (and restarts) Redis itself
        env.pop(name)
    env.update(EVO_VAR=str(tmp), REDIS_PORT=str(redis_port), PORT=str(api_port),
               BOT_WORKERS=str(bot_workers), WORKER_CONCURRENCY="1",
               TOURNAMENT_CONCURRENCY="1", WEB_CONCURRENCY="2",
               # No background build: the workers run whatever build `make test` made first.
               EVO_ACCEL_BUILD="0", HOST="127.0.0.1")
    log = open(tmp / "run.log", "wb")  # noqa: SIM115 -- the child keeps it
    process = subprocess.Popen([sys.executable, "-m", "scripts.run"], cwd=ROOT, env=env,
                               stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    stack = RunStack(process, tmp, f"http://127.0.0.1:{api_port}", redis_url)
    deadline = time.monotonic() + 90
    while True:
        try:
            if requests.get(f"{stack.base}/readyz", timeout=2).status_code == 200:
                return stack
        except requests.RequestException:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            stack.stop()
            raise RuntimeError(f"make run's stack did not start; see {tmp / 'run.log'}")
        time.sleep(0.3)


def _processes() -> list[tuple[int, list[str]]]:
    """Every process's pid and the fields of its /proc stat after the command name
    (``[0]`` state, ``[1]`` parent pid, ``[2]`` process group)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            found.append((int(entry.name), fields))
    return found


def group_members(pgid: int) -> list[int]:
    """Live (not zombie) processes of process group ``pgid``."""
    return [pid for pid, fields in _processes() if int(fields[2]) == pgid and fields[0] != "Z"]


def children_of(parent: int) -> list[int]:
    """The processes whose parent is ``parent`` (a gunicorn master's workers)."""
    return [pid for pid, fields in _processes() if int(fields[1]) == parent]


def group_alive(pgid: int, grace: float = 5) -> bool:
    """Whether any process of the group still lives after ``grace`` seconds."""
    deadline = time.monotonic() + grace
    while group_members(pgid):
        if time.monotonic() > deadline:
            return True
        time.sleep(0.1)
    return False


@dataclass
class Player:
    """Plays one human seat with random legal moves through faults: a refused write (503,
    507, a dropped connection) is retried with the same Idempotency-Key; records every move
    the API answered as accepted."""

    base: str
    match_id: str
    token: str
    seed: int
    accepted: dict[int, dict[str, Any]] = field(default_factory=dict)  # version -> move
    error: BaseException | None = None

    def _call(self, method: str, path: str, **kwargs: Any) -> requests.Response | None:
        try:
            return requests.request(method, f"{self.base}/v1/matches/{self.match_id}{path}",
                                    headers={"Authorization": f"Bearer {self.token}",
                                             **kwargs.pop("headers", {})},
                                    timeout=20, **kwargs)
        except requests.RequestException:
            return None

    def play(self, timeout: float) -> None:
        rng = random.Random(self.seed)
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                match = self._call("GET", "")
                if match is None or match.status_code in RETRYABLE:
                    time.sleep(0.3)
                    continue
                assert match.status_code == 200, match.text
                state = match.json()
                if state["status"] == "finished":
                    return
                if state["you"] not in state["to_move"]:
                    self._call("GET", "", params={"version": state["version"], "wait": 5})
                    continue
                moves = self._call("GET", "/moves")
                if moves is None or moves.status_code != 200 or not moves.json()["moves"]:
                    continue
                offer = moves.json()
                choice = rng.choice(offer["moves"])
                body = {"version": offer["version"], "move_id": choice["id"]}
                key = uuid.uuid4().hex
                while time.monotonic() < deadline:  # the same request until it is answered
                    answer = self._call("POST", "/moves", json=body,
                                        headers={"Idempotency-Key": key})
                    if answer is None or answer.status_code in RETRYABLE:
                        time.sleep(0.3)
                        continue
                    assert answer.status_code in (200, 409), answer.text
                    assert "stale" not in answer.text or answer.status_code == 409
                    if answer.status_code == 200:
                        version = answer.json()["version"]
                        assert version not in self.accepted
                        self.accepted[version] = answer.json()["move"]
                    break
            raise AssertionError(f"match {self.match_id} did not finish in {timeout} s")
        except BaseException as exc:  # reported by check()
            self.error = exc

    def start(self, timeout: float = 150) -> threading.Thread:
        thread = threading.Thread(target=self.play, args=(timeout,), daemon=True)
        thread.start()
        return thread


def new_human_match(client: Client, seed: int) -> Player:
    created = client.create({"game": "savanna", "seed": seed, "seats": [
        {"kind": "human"}, {"kind": "bot", "bot": {"kind": "greedy"}}]})
    return Player(client.base, created["id"], created["tokens"][0]["token"], seed)


def assert_intact(client: Client, player: Player) -> None:
    """Finished, with a contiguous log holding every move the API accepted, once."""
    assert player.error is None, repr(player.error)
    final = client.match(player.match_id)
    assert final["status"] == "finished"
    log = client.call("GET", f"/v1/matches/{player.match_id}/events").json()["events"]
    assert [e["version"] for e in log] == list(range(2, final["version"] + 1))
    by_version = {e["version"]: e for e in log}
    for version, move in player.accepted.items():
        assert by_version[version]["seat"] == 0 and by_version[version]["move"] == move
    assert len(player.accepted) == sum(e.get("seat") == 0 and "move" in e for e in log)
