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
    # The default stack: the services of no profile (the cluster profile's are below).
    services = {name: s for name, s in COMPOSE["services"].items() if "profiles" not in s}
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


CLUSTER = {name: s for name, s in COMPOSE["services"].items()
           if "cluster" in s.get("profiles", [])}


def _command(service: dict) -> list[str]:
    return [str(part) for part in service["command"]]


def test_the_cluster_profile_has_the_multi_node_layout() -> None:
    """Issue 20: `docker compose --profile cluster up` — two APIs behind nginx, two workers of
    people's matches, one beat, a Redis Cluster of three masters with a replica each, and a
    broker of its own. (Docker is not run here: the file is checked, not started.)"""
    assert set(CLUSTER) == {*(f"redis-node-{n}" for n in range(1, 7)), "cluster-init",
                            "cluster-broker", "cluster-api-1", "cluster-api-2", "cluster-lb",
                            "cluster-worker-1", "cluster-worker-2",
                            "cluster-tournament-worker", "cluster-beat"}
    # Every long-running service is health-checked and restarted; the one-shot cluster-init
    # is what the applications wait for (service_completed_successfully).
    for name, service in CLUSTER.items():
        if name == "cluster-init":
            assert service["restart"] == "no"
            continue
        assert "healthcheck" in service and service["restart"] == "unless-stopped", name
    nodes = [f"redis-node-{n}" for n in range(1, 7)]
    for name in nodes:
        command = _command(CLUSTER[name])
        assert command[command.index("--cluster-enabled") + 1] == "yes"
        assert command[command.index("--appendonly") + 1] == "yes"
    addresses = [CLUSTER[n]["networks"]["evo-cluster"]["ipv4_address"] for n in nodes]
    init = " ".join(_command(CLUSTER["cluster-init"]))
    assert "--cluster-replicas 1" in init  # six nodes: three masters, a replica each
    assert all(f"{address}:6379" in init for address in addresses)
    assert {dep for dep, cond in CLUSTER["cluster-init"]["depends_on"].items()
            if cond["condition"] == "service_healthy"} == set(nodes)
    apps = [n for n in CLUSTER if n.startswith(("cluster-api", "cluster-worker", "cluster-t",
                                                "cluster-beat"))]
    for name in apps:
        env = CLUSTER[name]["environment"]
        assert env["REDIS_CLUSTER_NODES"].split(",") == [f"{a}:6379" for a in addresses]
        assert env["BROKER_URL"] == "redis://cluster-broker:6379/0"  # never the cluster
        assert env["REDIS_REPLICA_ACKS"] == "1"
        assert CLUSTER[name]["depends_on"]["cluster-init"]["condition"] == \
            "service_completed_successfully"
    for name in ("cluster-worker-1", "cluster-worker-2"):
        command = _command(CLUSTER[name])
        assert command[command.index("--queues") + 1] == "bots" and "--beat" not in command
    assert _command(CLUSTER["cluster-beat"])[:4] == ["celery", "-A", "worker.celery_app",
                                                    "beat"]
    assert CLUSTER["cluster-beat"]["deploy"]["replicas"] == 1
    assert set(CLUSTER["cluster-lb"]["depends_on"]) == {"cluster-api-1", "cluster-api-2"}


def test_the_load_balancer_sends_to_both_api_replicas() -> None:
    mount = CLUSTER["cluster-lb"]["volumes"][0].split(":")
    conf = (ROOT / mount[0]).read_text()
    assert mount[1] == "/etc/nginx/conf.d/default.conf"
    assert "server cluster-api-1:8000" in conf and "server cluster-api-2:8000" in conf
    assert "proxy_buffering off" in conf  # event streams arrive as they are written
    assert "X-Forwarded-For" in conf and CLUSTER["cluster-api-1"]["environment"][
        "PROXY_HOPS"] == "1"
