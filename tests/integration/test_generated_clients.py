"""Clients generated from openapi.yaml compile and play a whole match against the real stack.

TypeScript: types from openapi-typescript, requests through openapi-fetch, compiled with
``tsc --strict`` (no casts in ``tests/js/play_match.ts``) and run under node. The generator
versions are pinned in ``tests/js/package.json`` (installed by ``make test``).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.integration.conftest import Client, Worker

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("integration")]
JS = Path(__file__).resolve().parents[1] / "js"
SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"


def npx(*args: str) -> None:
    if shutil.which("npx") is None or not (JS / "node_modules" / "typescript").is_dir():
        pytest.fail("node and tests/js/node_modules are needed: run `make test` (npm ci)")
    done = subprocess.run(["npx", "--no-install", *args], cwd=JS, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_typescript_client_compiles_strictly_and_plays_a_match(
        api_url: str, client: Client, worker: Worker) -> None:
    # Defaults describe what the server fills in, not what a request must send.
    npx("openapi-typescript", str(SPEC), "--default-non-nullable", "false",
        "-o", "generated/api.d.ts")
    npx("tsc", "-p", "tsconfig.json")
    done = subprocess.run(["node", str(JS / "build" / "play_match.js"), api_url],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    outcome = json.loads(done.stdout)
    assert outcome["status"] == "finished" and outcome["played"] > 0
    match = client.match(outcome["id"])
    assert match["result"]["scores"] == outcome["scores"]
    log = client.call("GET", f"/v1/matches/{outcome['id']}/events").json()["events"]
    assert outcome["played"] == sum(1 for e in log if e.get("seat") == 0 and "move" in e)
