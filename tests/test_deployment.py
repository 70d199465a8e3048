"""The deployment files: docker-compose.yml against the Compose specification's JSON schema
(vendored from docker-compose 1.29.2, Apache-2.0) plus what our compose file promises, and
the Makefile / CI entry points."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_compose_file_matches_the_compose_spec() -> None:
    schema = json.loads((ROOT / "tests/data/compose_spec.json").read_text())
    jsonschema.Draft201909Validator(schema).validate(COMPOSE)


def test_compose_services_and_health_checks() -> None:
    services = COMPOSE["services"]
    assert set(services) == {"redis", "api", "worker", "tournament-worker", "beat"}
    assert all(service["restart"] == "unless-stopped" for service in services.values())
    assert all("healthcheck" in service for service in services.values())
    assert "--appendonly" in services["redis"]["command"]
    assert services["redis"]["command"][services["redis"]["command"].index("--appendonly") + 1] \
        == "yes"
    assert any(volume.endswith(":/data") for volume in services["redis"]["volumes"])
    assert services["api"]["command"][0] == "gunicorn"
    for name, queue in (("worker", "bots"), ("tournament-worker", "tournament")):
        command = services[name]["command"]
        assert command[:3] == ["celery", "-A", "worker.celery_app"]
        assert command[command.index("--queues") + 1] == queue
        assert "--beat" not in command  # a worker never embeds the scheduler
    # Exactly one beat, as its own service: scaling the workers never multiplies the sweeps.
    assert services["beat"]["command"][:4] == ["celery", "-A", "worker.celery_app", "beat"]
    assert services["beat"]["deploy"]["replicas"] == 1


@pytest.mark.skipif(shutil.which("docker-compose") is None,
                    reason="docker-compose is not installed (the schema test still ran)")
def test_docker_compose_config_accepts_it() -> None:
    subprocess.run(["docker-compose", "-f", str(ROOT / "docker-compose.yml"), "config", "-q"],
                   check=True)


def test_ci_runs_make_test() -> None:
    assert "make test" in (ROOT / ".ci/run").read_text()
    readme = (ROOT / "README.md").read_text()
    assert readme.index("make run") < 1200 and readme.index("make test") < 1200


def test_redis_has_a_memory_cap_without_eviction() -> None:
    """Issue 18: compose and `make run` cap Redis's memory; full means refused, not dropped."""
    command = COMPOSE["services"]["redis"]["command"]
    assert command[command.index("--maxmemory") + 1] == "512mb"
    assert command[command.index("--maxmemory-policy") + 1] == "noeviction"


def test_make_run_starts_redis_with_the_memory_cap(tmp_path: Path) -> None:
    import redis

    from scripts.localredis import free_port, start_redis

    port = free_port()
    process = start_redis(tmp_path, port, appendonly=False, maxmemory="64mb")
    try:
        client = redis.Redis(port=port)
        assert client.config_get("maxmemory")["maxmemory"] == str(64 * 1024 * 1024)
        assert client.config_get("maxmemory-policy")["maxmemory-policy"] == "noeviction"
        client.close()
    finally:
        process.terminate()
        process.wait(timeout=10)
    assert 'env.get("REDIS_MAXMEMORY", "512mb")' in (ROOT / "scripts/run.py").read_text()
