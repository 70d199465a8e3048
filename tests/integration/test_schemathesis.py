"""Schemathesis over openapi.yaml against the real API (issue 18): examples, coverage,
fuzzing and stateful phases (the spec's links), bounded in time. No server error, no
response outside the contract (status, content type, body schema, headers).

Its own gunicorn on the session's Redis, with long polls capped at one second (so a
generated stream or ``wait`` cannot hold a request for half a minute) and no rate limits
(the fuzzer measures the contract, not the limits; tests/api/test_limits.py does those).
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from scripts.stack import ROOT
from tests.integration.conftest import running_api, stack_env

pytestmark = pytest.mark.xdist_group("schemathesis")
CHECKS = ("not_a_server_error,status_code_conformance,content_type_conformance,"
          "response_schema_conformance,response_headers_conformance")
MAX_SECONDS = 25  # the whole run's budget (make test must stay quick on 2 cores)


@pytest.fixture(scope="module")
def fuzzed_api(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    env = stack_env(redis_url)
    env.update(MAX_WAIT_SECONDS="1")
    with running_api(env, tmp_path_factory.mktemp("st-api")) as url:
        yield url


def test_the_api_keeps_its_contract_under_fuzzing(fuzzed_api: str, tmp_path: Path) -> None:
    command = [str(ROOT / ".venv/bin/schemathesis"), "run", str(ROOT / "openapi.yaml"),
               "--url", fuzzed_api, "--checks", CHECKS, "--max-examples", "5", "--seed", "18",
               "--max-time", str(MAX_SECONDS), "--request-timeout", "10", "--no-color",
               "--phases", "examples,coverage,fuzzing,stateful",
               "--suppress-health-check", "all", "--warnings", "off",
               "--generation-database", "none",
               "--report", "junit", "--report-dir", str(tmp_path)]
    # Run in the test's own directory: Schemathesis keeps a cache where it runs.
    done = subprocess.run(command, capture_output=True, text=True, timeout=MAX_SECONDS + 90,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-8000:] + done.stderr[-2000:]
    assert "Stateful" in done.stdout and "passed" in done.stdout
