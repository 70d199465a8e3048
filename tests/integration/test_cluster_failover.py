"""Scale-out for real: a Redis Cluster (3 masters, 3 replicas) on loopback ports, two gunicorn
APIs, two Celery workers and one beat, a separate broker Redis. Matches of people and of bots
play with every request alternating between the two APIs; one master is SIGKILLed mid-way.
After the failover every match finishes, its log is contiguous, and every move an API
answered as accepted is in it."""

from __future__ import annotations

import itertools
import os
import random
import signal
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import requests

from scripts.localcluster import LocalCluster, start_cluster
from scripts.localredis import free_port
from scripts.stack import start_api, start_beat, start_worker, wait_healthy
from shared.infra.redis_client import connect
from shared.matches.store import match_key
from tests.integration.conftest import stack_env

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("cluster-failover")]

RETRIED = (502, 503)  # the store is failing over: nothing was accepted, try again


@dataclass
class Stack:
    cluster: LocalCluster
    apis: list[str]
    logs: Path
    turn: Iterator[int] = field(default_factory=itertools.count)
    retried: int = 0  # answers that said the store was failing over
    lock: threading.Lock = field(default_factory=threading.Lock)
    http: threading.local = field(default_factory=threading.local)

    def call(self, method: str, path: str, token: str | None = None, **kwargs: Any
             ) -> requests.Response:
        """One request to the next API in turn; retried while the store fails over."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        deadline = time.monotonic() + 60
        while True:
            with self.lock:
                base = self.apis[next(self.turn) % len(self.apis)]
            session = getattr(self.http, "session", None) or requests.Session()
            self.http.session = session
            response = session.request(method, f"{base}{path}", headers=headers, timeout=30,
                                       **kwargs)
            assert response.status_code != 500, response.text
            if response.status_code not in RETRIED:
                return response
            assert time.monotonic() < deadline, f"the store stayed down: {response.text}"
            with self.lock:
                self.retried += 1
            time.sleep(0.2)


@pytest.fixture
def stack(redis_url: str, tmp_path: Path, compiled_build: Path) -> Iterator[Stack]:
    cluster = start_cluster(tmp_path / "cluster")
    broker = redis_url[:-1] + "2"  # the broker's own Redis (database), never the cluster
    connect(broker).flushdb()
    env = {**stack_env(broker), "REDIS_CLUSTER_NODES": cluster.nodes,
           "REDIS_REPLICA_ACKS": "1"}
    log = open(tmp_path / "stack.log", "wb")  # noqa: SIM115
    processes = []
    try:
        apis = []
        for _ in range(2):
            port = free_port()
            api = start_api(env, f"127.0.0.1:{port}", log, workers=1, own_session=True)
            processes.append(api)
            apis.append((f"http://127.0.0.1:{port}", api))
        processes += [start_worker(env, None, log, concurrency=1, own_session=True)
                      for _ in range(2)]
        processes.append(start_beat(env, tmp_path / "beat", log, own_session=True))
        for url, process in apis:
            wait_healthy(url, process)
        yield Stack(cluster, [url for url, _ in apis], tmp_path)
    finally:
        for process in processes:  # each in its own session: the whole group, at once
            os.killpg(process.pid, signal.SIGKILL)
        for process in processes:
            process.wait(timeout=10)
        log.close()
        cluster.stop()


def play_seat(stack: Stack, match_id: str, token: str, seat: int, rng: random.Random,
              accepted: list[tuple[str, int, int, Any]], timeout: float = 120) -> None:
    """Random legal moves for one person's seat until the match is over; every move an API
    accepts is noted as (match, seat, version, move)."""
    deadline = time.monotonic() + timeout
    while True:
        assert time.monotonic() < deadline, f"match {match_id} did not finish"
        moves = stack.call("GET", f"/v1/matches/{match_id}/moves", token)
        assert moves.status_code == 200, moves.text
        listed = moves.json()
        if listed["status"] == "finished":
            return
        if seat not in listed["to_move"] or not listed["moves"]:
            stack.call("GET", f"/v1/matches/{match_id}", token,
                       params={"version": listed["version"], "wait": 2})
            continue
        choice = rng.choice(listed["moves"])
        response = stack.call("POST", f"/v1/matches/{match_id}/moves", token,
                              json={"version": listed["version"], "move_id": choice["id"]})
        assert response.status_code in (200, 409), response.text
        if response.status_code == 200:
            answer = response.json()
            accepted.append((match_id, seat, answer["version"], answer["move"]))


def follow_stream(stack: Stack, match_id: str, seen: list[int], ended: list[bool],
                  timeout: float = 150) -> None:
    """Follow the match's event stream as ``EventSource`` does: reconnect (to the other API)
    with Last-Event-ID whenever the stream drops, until its ``end`` event."""
    deadline = time.monotonic() + timeout
    while not ended and time.monotonic() < deadline:
        with stack.lock:
            base = stack.apis[next(stack.turn) % len(stack.apis)]
        headers = {"Last-Event-ID": str(seen[-1])} if seen else {}
        try:
            with requests.get(f"{base}/v1/matches/{match_id}/stream", params={"since": 1},
                              headers=headers, stream=True, timeout=30) as response:
                assert response.status_code != 500, response.text
                if response.status_code == 204:
                    return
                if response.status_code != 200:
                    time.sleep(0.2)
                    continue
                fields: dict[str, str] = {}
                for line in response.iter_lines(decode_unicode=True):
                    if line:  # a field of the event being read
                        name, _, value = line.partition(": ")
                        fields[name] = value
                        continue
                    if fields.get("event") == "version":  # a blank line ends an event
                        seen.append(int(fields["id"]))
                    elif fields.get("event") == "end":
                        ended.append(True)
                    fields = {}
        except requests.RequestException:  # the stream was cut: reconnect, as a browser does
            time.sleep(0.2)


def test_matches_finish_and_keep_every_accepted_move_across_a_master_failover(
        stack: Stack) -> None:
    human, bot = {"kind": "human"}, {"kind": "bot", "bot": {"kind": "random"}}
    greedy = {"kind": "bot", "bot": {"kind": "greedy"}}
    line_ups = [[human, human], [human, bot], [bot, greedy], [human, human], [greedy, bot]]
    created = []
    for n, seats in enumerate(line_ups):
        response = stack.call("POST", "/v1/matches",
                              json={"game": "savanna", "seed": 40 + n, "seats": seats})
        assert response.status_code == 201, response.text
        created.append(response.json())
    accepted: list[tuple[str, int, int, Any]] = []
    errors: list[BaseException] = []

    def run(match: dict[str, Any], token: dict[str, Any], rng: random.Random) -> None:
        try:
            play_seat(stack, match["id"], token["token"], token["seat"], rng, accepted)
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(match, token, random.Random(i)))
               for i, (match, token) in enumerate(
                   (m, t) for m in created for t in m["tokens"])]
    # Someone watches the first match (the one whose master dies) over the event stream.
    streamed: list[int] = []
    ended: list[bool] = []
    threads.append(threading.Thread(target=follow_stream,
                                    args=(stack, created[0]["id"], streamed, ended)))
    for thread in threads:
        thread.start()
    while len(accepted) < 40 and not errors:  # well into the matches
        time.sleep(0.05)
    # The master of the first match's slot: at least that match lives through the failover.
    victim = connect("", stack.cluster.nodes).get_node_from_key(match_key(created[0]["id"])).port
    assert victim in stack.cluster.masters()
    stack.cluster.kill(victim)
    killed_at = len(accepted)
    # The first match's last version an API had answered by the kill. Each of its two seats
    # may have one more move committed before the kill and noted after it; any version past
    # those was committed after the master died: on the replica promoted in its place.
    first = created[0]["id"]
    before_kill = max((version for match_id, _, version, _ in accepted[:killed_at]
                       if match_id == first), default=1)
    for thread in threads:
        thread.join(timeout=150)
    assert not errors, errors[0]
    stack.cluster.wait_ok()
    assert victim not in stack.cluster.masters()
    assert len(accepted) > killed_at  # moves were accepted after the kill as well
    # The match whose master died was played through the failover: moves of it were committed
    # after the kill. (Not "some request met a 503": when redis-py's own retries outlast a
    # quick failover, no client sees one, and nothing is lost either way.)
    after_kill = [version for match_id, _, version, _ in accepted
                  if match_id == first and version > before_kill + 2]
    assert after_kill, (f"the first match accepted no move after its master was killed "
                        f"(at version {before_kill}; {stack.retried} requests met a 502/503)")
    for match in created:
        final = stack.call("GET", f"/v1/matches/{match['id']}")
        deadline = time.monotonic() + 120
        while final.json()["status"] != "finished":
            assert time.monotonic() < deadline, f"{match['id']} did not finish"
            final = stack.call("GET", f"/v1/matches/{match['id']}",
                               params={"version": final.json()["version"], "wait": 5})
        events = stack.call("GET", f"/v1/matches/{match['id']}/events").json()["events"]
        versions = [e["version"] for e in events]
        assert versions == list(range(versions[0], final.json()["version"] + 1))
        logged = {(e["seat"], e["version"]): e["move"] for e in events if "move" in e}
        if match is created[0]:  # the stream sent every version once, in order, and the end
            assert streamed == list(range(2, final.json()["version"] + 1)) and ended
        for match_id, seat, version, move in accepted:
            if match_id == match["id"]:
                assert logged.get((seat, version)) == move, (match_id, seat, version)
