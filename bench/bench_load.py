"""Load: accepted human moves/s and POST latency (p50/p95/p99) at 10, 50 and 200 clients,
with 0 and 1,000 open event streams, against the real API and against a bare Flask+Redis
endpoint doing the same Redis round trips under the same gunicorn settings (``bench.bare_app``),
or, with ``--baseline engine``, against that endpoint also doing the game's work
(``bench.engine_app``: decoding the state, listing and labelling the legal moves, applying the
move and encoding the state), which tells the API's own cost from the game's.

Each client plays both human seats of its own Savanna match (read the legal moves, post one);
a finished match is replaced. The load client runs on gevent (one greenlet per client), in
this process; servers are started on free ports in a temporary directory.

The machine may be shared, so the two servers are measured back to back and interleaved
(``--rounds`` rounds, the order alternating), each figure printed with the 1-minute load
average it was measured at; a setting's figure is the median of its rounds, the ratio that of
the medians. Each run also reports the server's and Redis's CPU time per accepted move
(from ``/proc``): on a shared machine the rates swing with what else runs, while what a move
costs moves far less. ``--json FILE`` appends every run as one JSON line.
Run: ``.venv/bin/python -m bench.bench_load --seconds 10 --rounds 3``.
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import socket  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402
from urllib.parse import urlsplit  # noqa: E402

import gevent  # noqa: E402
import requests  # noqa: E402

from scripts.localredis import free_port  # noqa: E402
from scripts.stack import BIN, ROOT, local_stack  # noqa: E402


def descendants(pid: int) -> list[int]:
    """Every live process under ``pid`` (Linux: ``/proc/<pid>/task/<tid>/children``)."""
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                children = [int(c) for c in (task / "children").read_text().split()]
            except OSError:
                continue
            found += children
            todo += children
    return found


def server_pids(marker: str) -> list[int]:
    """The processes under this one whose command line holds ``marker`` (a server's gunicorn
    master and workers, or ``redis-server``)."""
    pids = []
    for pid in descendants(os.getpid()):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if marker.encode() in command:
            pids.append(pid)
    return pids


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU seconds spent so far by ``pids`` (those still alive)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (stat fields 14, 15)
    return total / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else 0.0


def timed_post(http: requests.Session, url: str, body: dict[str, object],
               latencies: list[float], refused: list[int],
               headers: dict[str, str] | None = None) -> requests.Response | None:
    """POST a move: its latency if accepted (the answer is returned), else its status."""
    started = time.perf_counter()
    answer = http.post(url, json=body, headers=headers)
    if answer.status_code == 200:
        latencies.append(time.perf_counter() - started)
        return answer
    refused.append(answer.status_code)
    return None


def api_client(base: str, stop_at: float, latencies: list[float], index: int,
               refused: list[int]) -> None:
    http = requests.Session()
    while time.monotonic() < stop_at:
        created = http.post(f"{base}/v1/matches", json={"game": "savanna", "seed": index,
                            "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
        tokens = [t["token"] for t in created["tokens"]]
        status = created["status"]
        while status != "finished" and time.monotonic() < stop_at:
            for token in tokens:
                auth = {"Authorization": f"Bearer {token}"}
                moves = http.get(f"{base}/v1/matches/{created['id']}/moves",
                                 headers=auth).json()
                if not moves["moves"]:
                    status = moves["status"]
                    continue
                answer = timed_post(http, f"{base}/v1/matches/{created['id']}/moves",
                                    {"version": moves["version"],
                                     "move_id": moves["moves"][0]["id"]},
                                    latencies, refused, auth)
                if answer is not None:
                    status = answer.json()["status"]


def bare_client(base: str, stop_at: float, latencies: list[float], index: int,
                refused: list[int]) -> None:
    http = requests.Session()
    match_id = f"{os.getpid()}-{index}"
    http.post(f"{base}/bare/{match_id}")
    while time.monotonic() < stop_at:
        for _ in range(2):  # two seats, as the API clients do
            version = http.get(f"{base}/bare/{match_id}/moves").json()["version"]
            timed_post(http, f"{base}/bare/{match_id}/moves", {"version": version}, latencies,
                       refused)


def engine_client(base: str, stop_at: float, latencies: list[float], index: int,
                  refused: list[int]) -> None:
    http = requests.Session()
    match_id = f"{os.getpid()}-{index}"
    http.post(f"{base}/engine/{match_id}")
    while time.monotonic() < stop_at:
        for seat in range(2):  # both seats, as the API clients do
            moves = http.get(f"{base}/engine/{match_id}/moves", params={"seat": seat}).json()
            if not moves["moves"]:
                continue
            timed_post(http, f"{base}/engine/{match_id}/moves", {
                "version": moves["version"], "seat": seat, "move_id": moves["moves"][0]["id"]},
                latencies, refused)


#: The baselines: (gunicorn app, load client, the path a health probe posts to).
BASELINES: dict[str, tuple[str, Callable[..., None], str]] = {
    "bare": ("bench.bare_app:app", bare_client, "/bare/probe"),
    "engine": ("bench.engine_app:app", engine_client, "/engine/probe"),
}


def open_streams(base: str, count: int) -> list[socket.socket]:
    if not count:
        return []
    created = requests.post(f"{base}/v1/matches", json={"game": "savanna", "seats": [
        {"kind": "human"}, {"kind": "human"}]}).json()
    url = urlsplit(base)
    request = (f"GET /v1/matches/{created['id']}/stream HTTP/1.1\r\nHost: {url.hostname}\r\n"
               "\r\n").encode()
    sockets = []
    for _ in range(count):
        sock = socket.create_connection((url.hostname, url.port), timeout=10)
        sock.sendall(request)
        sockets.append(sock)
    gevent.sleep(2)  # let the server take them all
    return sockets


class Gaps:
    """The longest time without an accepted move (a stalled server, not a slow one)."""

    def __init__(self) -> None:
        self.last = time.monotonic()
        self.gap = 0.0

    def accepted(self) -> None:
        now = time.monotonic()
        self.gap, self.last = max(self.gap, now - self.last), now

    def longest(self, until: float) -> float:
        return max(self.gap, until - self.last)


class Latencies(list[float]):
    """Accepted moves' POST latencies, noting each acceptance's time."""

    def __init__(self, gaps: Gaps) -> None:
        super().__init__()
        self.gaps = gaps

    def append(self, value: float) -> None:
        super().append(value)
        self.gaps.accepted()


def run(base: str, client: Callable[..., None], clients: int, seconds: float,
        servers: tuple[list[int], list[int]] = ([], [])) -> dict[str, float]:
    """One timed run; ``servers``: the server's processes and Redis's, whose CPU time per
    accepted move is reported too (a figure the machine's other load moves far less than
    the rate: it says what a move costs, not how much of the cores the run was given)."""
    stall = Gaps()
    latencies = Latencies(stall)
    refused: list[int] = []
    load = os.getloadavg()[0]
    cpu = [cpu_seconds(pids) for pids in servers]
    stop_at = time.monotonic() + seconds
    greenlets = [gevent.spawn(client, base, stop_at, latencies, i, refused)
                 for i in range(clients)]
    gevent.joinall(greenlets)
    used = [cpu_seconds(pids) - before for pids, before in zip(servers, cpu, strict=True)]
    moves = max(len(latencies), 1)
    return {"moves_per_s": len(latencies) / seconds, "p50": percentile(latencies, 0.5),
            "p95": percentile(latencies, 0.95), "p99": percentile(latencies, 0.99),
            "load": round((load + os.getloadavg()[0]) / 2, 1),
            "refused": len(refused), "stall_s": round(stall.longest(stop_at), 2),
            "server_cpu_ms": round(used[0] / moves * 1000, 3),
            "redis_cpu_ms": round(used[1] / moves * 1000, 3)}


def line(label: str, result: dict[str, float]) -> str:
    return (f"{label}: {result['moves_per_s']:7.1f} moves/s, POST p50 "
            f"{result['p50'] * 1000:6.1f} ms, p95 {result['p95'] * 1000:6.1f} ms, "
            f"p99 {result['p99'] * 1000:6.1f} ms (load {result['load']:.1f}; longest stall "
            f"{result['stall_s']:.1f} s, {result['refused']:.0f} refused); CPU a move: server "
            f"{result['server_cpu_ms']:.2f} ms, Redis {result['redis_cpu_ms']:.2f} ms")


def median_run(runs: list[dict[str, float]]) -> dict[str, float]:
    """Each figure's median over the rounds."""
    return {key: statistics.median(r[key] for r in runs) for key in runs[0]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--clients", type=int, nargs="+", default=[10, 50, 200])
    parser.add_argument("--streams", type=int, nargs="+", default=[0, 1000])
    parser.add_argument("--json", type=Path, help="append every run to this file")
    parser.add_argument("--baseline", choices=sorted(BASELINES), default="bare",
                        help="bare: the API's round trips only; engine: and the game's work")
    args = parser.parse_args()
    baseline, (target, baseline_client, probe) = args.baseline, BASELINES[args.baseline]
    servers: dict[str, tuple[str, Callable[..., None]]] = {}
    medians: dict[tuple[str, int, int], dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp, local_stack(Path(tmp)) as stack:
        bare_port = free_port()
        bare = subprocess.Popen(
            [str(BIN / "gunicorn"), "--config", str(ROOT / "gunicorn.conf.py"), "--bind",
             f"127.0.0.1:{bare_port}", target], cwd=ROOT, env=stack.env,
            stdout=stack.log, stderr=subprocess.STDOUT)
        bare_base = f"http://127.0.0.1:{bare_port}"
        servers = {"api": (stack.base, api_client), baseline: (bare_base, baseline_client)}
        markers = {"api": "api.wsgi:app", baseline: target}
        try:
            wait_healthy_bare(bare_base + probe, bare)
            for base, client in servers.values():  # warm up: connections, imports
                run(base, client, max(args.clients), 2)
            for streams in args.streams:
                held = open_streams(stack.base, streams)
                for clients in args.clients:
                    runs: dict[str, list[dict[str, float]]] = {"api": [], baseline: []}
                    for round_ in range(args.rounds):
                        order = ["api", baseline] if round_ % 2 == 0 else [baseline, "api"]
                        for name in order:
                            base, client = servers[name]
                            result = run(base, client, clients, args.seconds,
                                         (server_pids(markers[name]),
                                          server_pids("redis-server")))
                            runs[name].append(result)
                            print(line(f"{name:6} {clients:3} clients, {streams:4} streams",
                                       result), flush=True)
                            record(args.json, name, clients, streams, round_, result)
                    for name in runs:
                        medians[name, clients, streams] = median_run(runs[name])
                    ratio = (medians["api", clients, streams]["moves_per_s"]
                             / max(medians[baseline, clients, streams]["moves_per_s"], 1e-9))
                    # Each round's two runs were back to back, on much the same machine.
                    paired = statistics.median(
                        a["moves_per_s"] / max(b["moves_per_s"], 1e-9)
                        for a, b in zip(runs["api"], runs[baseline], strict=True))
                    medians["ratio", clients, streams] = {"of_medians": ratio, "paired": paired}
                    cost = {name: medians[name, clients, streams]["server_cpu_ms"]
                            + medians[name, clients, streams]["redis_cpu_ms"] for name in runs}
                    print(f"     median of {args.rounds}: api / {baseline} = {ratio:.2f} "
                          f"(median of the rounds' own ratios {paired:.2f}); server and Redis "
                          f"CPU a move: api {cost['api']:.2f} ms, {baseline} "
                          f"{cost[baseline]:.2f} ms", flush=True)
                for sock in held:
                    sock.close()
        finally:
            bare.terminate()
            bare.wait(timeout=30)
    summarize(medians, args.clients, args.streams, baseline)
    return 0


def record(path: Path | None, server: str, clients: int, streams: int, round_: int,
           result: dict[str, float]) -> None:
    if path is not None:
        with path.open("a") as out:
            out.write(json.dumps({"at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                                  "server": server, "clients": clients, "streams": streams,
                                  "round": round_, **result}) + "\n")


def summarize(medians: dict[tuple[str, int, int], dict[str, float]], clients: list[int],
              streams: list[int], baseline: str = "bare") -> None:
    """The table of medians, each setting's ratio, and whether throughput holds past the
    saturation point (the most clients within 10% of the best rate)."""
    print("\nmedians (moves/s; POST p50/p95/p99 ms; load):")
    for count in streams:
        for server in ("api", baseline):
            rates = [medians[server, c, count]["moves_per_s"] for c in clients]
            cells = [f"{c}: {m['moves_per_s']:.1f} ({m['p50'] * 1000:.0f}/"
                     f"{m['p95'] * 1000:.0f}/{m['p99'] * 1000:.0f}; {m['load']:.1f})"
                     for c in clients for m in [medians[server, c, count]]]
            held = rates[-1] >= 0.9 * max(rates)
            print(f"  {count:4} streams {server:6}: {'; '.join(cells)}; past saturation "
                  f"{'holds' if held else 'FALLS'} ({rates[-1]:.1f} of best {max(rates):.1f})")
        print(f"  {count:4} streams api / {baseline}: " + ", ".join(
            f"{c}: {r['of_medians']:.2f} (paired {r['paired']:.2f})"
            f"{'' if min(r.values()) >= 0.5 else ', below 0.5'}"
            for c in clients for r in [medians["ratio", c, count]]))


def wait_healthy_bare(probe: str, process: subprocess.Popen[bytes]) -> None:
    """Wait until the baseline answers a POST to ``probe`` (its create route)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            requests.post(probe, timeout=1)
            return
        except requests.RequestException:
            if process.poll() is not None:
                break
            time.sleep(0.2)
    raise RuntimeError("the bare app did not start")


if __name__ == "__main__":
    raise SystemExit(main())
