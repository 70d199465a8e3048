"""Start a real local RabbitMQ node from Debian's ``rabbitmq-server`` package
(``scripts/install_rabbitmq.sh``): a throwaway node on free loopback ports, with its data,
logs, Erlang cookie and port mapper of its own, so it never meets the packaged service or
another test's node."""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from scripts.localredis import free_port

SERVER = Path("/usr/lib/rabbitmq/bin/rabbitmq-server")  # the node itself, not the wrapper
# that switches to the packaged service's user and its /var/lib/rabbitmq
EPMD = "epmd"  # Erlang's port mapper, from erlang-base
#: The opening of an AMQP 0-9-1 connection; a broker ready for clients answers it with a
#: Connection.Start method frame (frame type 1).
AMQP_HEADER = b"AMQP\x00\x00\x09\x01"


def installed() -> bool:
    return SERVER.exists()


@dataclass
class LocalRabbit:
    """A running node: ``url`` is its AMQP address (the default ``guest`` user, which
    RabbitMQ admits from loopback only), ``port`` its AMQP port."""

    url: str
    port: int
    node: subprocess.Popen[bytes]
    epmd: subprocess.Popen[bytes]
    log: Path

    def stop(self) -> None:
        """Shut the node down as its service would (SIGTERM: a clean stop), then its epmd."""
        for process in (self.node, self.epmd):
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait(timeout=10)


def amqp_ready(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
            sock.sendall(AMQP_HEADER)
            return sock.recv(1) == b"\x01"
    except OSError:
        return False


def _listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


def start_rabbitmq(data_dir: Path, timeout: float = 90) -> LocalRabbit:
    """Start a node with everything of its own in ``data_dir``; wait until it takes AMQP
    clients (about 5 s on an idle machine)."""
    home = data_dir / "home"
    home.mkdir(parents=True, exist_ok=True)
    cookie = home / ".erlang.cookie"  # the node's own: no other node may talk to it
    cookie.write_text(secrets.token_hex(16))
    cookie.chmod(0o400)
    (data_dir / "enabled_plugins").write_text("[].\n")  # no management plugin, no web port
    amqp_port, dist_port, epmd_port = free_port(), free_port(), free_port()
    (data_dir / "rabbitmq.conf").write_text(f"listeners.tcp.default = 127.0.0.1:{amqp_port}\n")
    (data_dir / "rabbitmq-env.conf").write_text("")  # not the packaged /etc one
    log = data_dir / "rabbitmq.log"
    env = dict(
        os.environ, HOME=str(home), ERL_EPMD_PORT=str(epmd_port),
        RABBITMQ_CONF_ENV_FILE=str(data_dir / "rabbitmq-env.conf"),
        RABBITMQ_CONFIG_FILE=str(data_dir / "rabbitmq.conf"),
        RABBITMQ_NODENAME=f"evo-test-{amqp_port}@localhost",
        RABBITMQ_NODE_IP_ADDRESS="127.0.0.1", RABBITMQ_NODE_PORT=str(amqp_port),
        RABBITMQ_DIST_PORT=str(dist_port),
        RABBITMQ_MNESIA_BASE=str(data_dir / "mnesia"),
        RABBITMQ_LOG_BASE=str(data_dir / "log"), RABBITMQ_LOGS="-",
        RABBITMQ_ENABLED_PLUGINS_FILE=str(data_dir / "enabled_plugins"),
        RABBITMQ_PLUGINS_EXPAND_DIR=str(data_dir / "plugins-expand"),
        # Erlang distribution on loopback only, through the epmd started here (never one it
        # would spawn as a daemon that outlives the test).
        RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS=(
            "-start_epmd false -kernel inet_dist_use_interface {127,0,0,1}"),
    )
    epmd = subprocess.Popen([EPMD, "-port", str(epmd_port), "-address", "127.0.0.1"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    deadline = time.monotonic() + 10
    while not _listening(epmd_port):
        if epmd.poll() is not None or time.monotonic() > deadline:
            epmd.kill()
            raise RuntimeError(f"epmd did not start on port {epmd_port}")
        time.sleep(0.05)
    with open(log, "wb") as out:
        node = subprocess.Popen([str(SERVER)], env=env, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)
    rabbit = LocalRabbit(f"amqp://guest:guest@127.0.0.1:{amqp_port}//", amqp_port, node,
                         epmd, log)
    deadline = time.monotonic() + timeout
    while not amqp_ready(amqp_port):
        if node.poll() is not None or time.monotonic() > deadline:
            rabbit.stop()
            tail = log.read_text(errors="replace")[-2000:]
            raise RuntimeError(f"RabbitMQ did not start (exit {node.returncode}):\n{tail}")
        time.sleep(0.2)
    return rabbit
