"""Quick play on the real stack: 200 accounts join pools at once through two API servers (two
gunicorn processes on loopback, one Redis) and each ends in exactly one match or still
waiting, never two; and a person who chose a bot fill gets a bot after the wait, which the
real worker plays to the end of a rated match."""

from __future__ import annotations

import os
import random
import signal
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import redis
import requests

from scripts.localredis import free_port
from scripts.stack import start_api, wait_healthy
from tests.integration.conftest import Client, Worker, running_api, stack_env

#: Where each of the 200 goes: the two Darwinning! spellings are one pool (the options are
#: canonicalised by the game).
CHOICES: list[dict[str, Any]] = [
    {"game": "savanna", "players": 2}, {"game": "savanna", "players": 3},
    {"game": "darwinning", "players": 2}, {"game": "darwinning", "players": 2,
                                           "options": {"edition": "2.2", "eras": 3}}]


def test_200_people_joining_at_once_on_two_servers_are_each_matched_once(
        redis_url: str, tmp_path: Path) -> None:
    env = {**stack_env(redis_url), "POOL_WINDOW": "50"}  # new accounts: everyone fits
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with (running_api(env, tmp_path / "a") as first, running_api(env, tmp_path / "b") as second,
          Client(first) as one, Client(second) as two):
        clients = [one, two]
        people = [one.call("POST", "/v1/accounts", json={"name": f"pool-{n}-{time.time_ns()}"}
                           ).json() for n in range(200)]

        def join(n: int) -> tuple[int, dict[str, Any]]:
            response = Client(clients[n % 2].base).call(
                "POST", "/v1/me/pool", people[n]["key"], json=CHOICES[n % 4])
            return response.status_code, response.json()

        with ThreadPoolExecutor(64) as pool:
            joined = list(pool.map(join, range(200)))
        assert {status for status, _ in joined} == {201}, joined[:3]

        def settled(n: int) -> dict[str, Any]:
            client = Client(clients[(n + 1) % 2].base)  # asked of the other server
            deadline = time.monotonic() + 30
            while True:
                ticket = client.call("GET", "/v1/me/pool", people[n]["key"]).json()
                if ticket["status"] != "forming" or time.monotonic() > deadline:
                    return ticket
                time.sleep(0.2)

        with ThreadPoolExecutor(32) as pool:
            tickets = list(pool.map(settled, range(200)))
        matches = {t["match"]: one.match(t["match"]) for t in tickets if t["match"]}
    assert {t["status"] for t in tickets} <= {"matched", "waiting"}
    ids = {people[n]["id"]: t for n, t in enumerate(tickets)}
    # Their matches may seat others too: people an earlier test left waiting in the same
    # pool (the integration tests share one Redis). Those are not this test's to account for.
    seated = Counter(seat["account"] for match in matches.values() for seat in match["seats"])
    assert seated and max(seated.values()) == 1  # nobody in two matches
    assert {a for a in seated if a in ids} == {a for a, t in ids.items()
                                               if t["status"] == "matched"}
    for match_id, match in matches.items():
        assert match["status"] == "running" and match["rated"]
        for seat in match["seats"]:  # each seat's ticket names this match and seat
            if seat["account"] in ids:
                assert (ids[seat["account"]]["match"], ids[seat["account"]]["seat"]) == (
                    match_id, seat["seat"])
    # Everyone fits everyone: at most a pool's player count minus one is left waiting.
    waiting = Counter(t["pool"] for t in tickets if t["status"] == "waiting")
    sizes = {t["pool"]: t["players"] for t in tickets}
    assert len(sizes) == 3 and all(waiting[p] < sizes[p] for p in sizes), waiting
    store = redis.Redis.from_url(redis_url, decode_responses=True)
    for pool_id in sizes:  # no match formed and left uncreated
        assert store.hlen(f"evo:pool:{{{pool_id}}}:pending") == 0


def test_a_bot_fills_the_seat_after_the_wait_and_the_worker_plays_it(
        redis_url: str, worker: Worker, tmp_path: Path) -> None:
    env = {**stack_env(redis_url), "POOL_BOT_FILL_SECONDS": "2"}
    with running_api(env, tmp_path, workers=1) as url, Client(url) as client:
        person = client.call("POST", "/v1/accounts", json={"name": f"fill-{time.time_ns()}"}
                             ).json()
        key = person["key"]
        joined = client.call("POST", "/v1/me/pool", key, json={
            "game": "savanna", "players": 2, "bot_fill": "easy"}).json()
        assert joined["status"] == "waiting"
        started = time.monotonic()
        ticket = joined
        while ticket["status"] == "waiting":
            assert time.monotonic() - started < 30, ticket
            ticket = client.call("GET", "/v1/me/pool", key, params={"wait": 5}).json()
        assert ticket["status"] == "matched"
        assert time.monotonic() - started >= 1.5  # not before the bot-fill wait
        match = client.match(ticket["match"])
        assert [s["kind"] for s in match["seats"]] == ["account", "bot"]
        assert match["seats"][1]["bot"]["level"] == "easy" and match["rated"]
        rng = random.Random(3)
        deadline = time.monotonic() + 120
        while client.match(match["id"])["status"] == "running":
            assert time.monotonic() < deadline, "the match never ended"
            turns = client.call("GET", "/v1/me/turns", key, params={"wait": 5}).json()["turns"]
            for turn in turns:
                client.call("POST", f"/v1/matches/{turn['match']}/moves", key, json={
                    "version": turn["version"], "move_id": rng.choice(turn["moves"])["id"]})
        ended = client.match(match["id"])
        assert ended["status"] == "finished"
        # The bot played (the worker): it has moves in the match's log.
        log = client.call("GET", f"/v1/matches/{match['id']}/events").json()["events"]
        assert any(entry.get("seat") == 1 for entry in log), log[:3]


def test_a_server_killed_mid_flood_loses_nobody_who_was_answered(
        redis_url: str, tmp_path: Path) -> None:
    """One of two servers is SIGKILLed (master and workers at once) while people join through
    both. Everyone the dead server answered, and everyone the live one did, ends in exactly
    one match or still waiting: the live server's passes (a long-poll starts one) create what
    the dead one formed and left (a formed match's forced creation is in
    tests/shared/test_pools.py, which stops a node exactly between the two steps)."""
    env = {**stack_env(redis_url), "POOL_WINDOW": "50"}
    port = free_port()
    with open(tmp_path / "victim.log", "wb") as log:
        victim = start_api(env, f"127.0.0.1:{port}", log, workers=2, own_session=True)
        doomed = f"http://127.0.0.1:{port}"
        try:
            wait_healthy(doomed, victim)
            with running_api(env, tmp_path) as alive, Client(alive) as client:
                people = [client.call("POST", "/v1/accounts", json={
                    "name": f"kill-{n}-{time.time_ns()}"}).json() for n in range(120)]
                sent_to_victim = threading.Semaphore(0)

                def join(n: int) -> int | None:
                    base = doomed if n % 2 else alive
                    if n % 2:
                        sent_to_victim.release()
                    try:
                        return Client(base).call("POST", "/v1/me/pool", people[n]["key"],
                                                 json=CHOICES[n % 4]).status_code
                    except (requests.ConnectionError, requests.exceptions.ChunkedEncodingError):
                        return None  # the server died before answering (or mid-answer)

                def kill() -> None:
                    for _ in range(20):  # once 20 joins went to the victim
                        sent_to_victim.acquire()
                    os.killpg(victim.pid, signal.SIGKILL)

                killer = threading.Thread(target=kill)
                killer.start()
                with ThreadPoolExecutor(32) as pool:
                    answered = list(pool.map(join, range(120)))
                killer.join()
                victim.wait(timeout=10)

                def settled(n: int) -> dict[str, Any] | None:
                    http = Client(alive)
                    deadline = time.monotonic() + 40
                    while True:
                        response = http.call("GET", "/v1/me/pool", people[n]["key"],
                                             params={"wait": 1})
                        if response.status_code == 404:
                            return None
                        ticket = response.json()
                        if ticket["status"] != "forming" or time.monotonic() > deadline:
                            return dict(ticket)
                        time.sleep(0.5)

                with ThreadPoolExecutor(32) as pool:
                    tickets = list(pool.map(settled, range(120)))
                matches = {t["match"]: client.match(t["match"]) for t in tickets
                           if t and t["match"]}
                # The sweep goes on matching while the tickets are read one by one: a ticket
                # read as waiting, or still forming when its read gave up, may be matched
                # since (into a match a later read saw). Read those again.
                seated_now = {seat["account"] for match in matches.values()
                              for seat in match["seats"]}
                for n, ticket in enumerate(tickets):
                    if (ticket and ticket["status"] in ("waiting", "forming")
                            and people[n]["id"] in seated_now):
                        tickets[n] = client.call("GET", "/v1/me/pool", people[n]["key"]).json()
                        assert tickets[n]["match"] in matches, (n, tickets[n])
        finally:
            if victim.poll() is None:
                os.killpg(victim.pid, signal.SIGKILL)
                victim.wait(timeout=10)
    assert None in answered or 201 in answered[1::2], "the victim died too late or too soon"
    for n, (status, ticket) in enumerate(zip(answered, tickets, strict=True)):
        if status == 201:  # answered: it must be somewhere
            assert ticket is not None and ticket["status"] in ("matched", "waiting"), (n, ticket)
        else:  # unanswered: in the pool (the script ran) or never there
            assert ticket is None or ticket["status"] in ("matched", "waiting"), (n, ticket)
    seated = Counter(seat["account"] for match in matches.values() for seat in match["seats"])
    assert seated and max(seated.values()) == 1
    # Their matches may seat others too: people an earlier test left waiting in the same
    # pool (the integration tests share one Redis). Those are not this test's to account for.
    ours = {person["id"] for person in people}
    seated = Counter({account: n for account, n in seated.items() if account in ours})
    matched = {people[n]["id"] for n, t in enumerate(tickets) if t and t["status"] == "matched"}
    assert set(seated) == matched, [(n, t) for n, t in enumerate(tickets)
                                    if (people[n]["id"] in seated) != (people[n]["id"] in matched)]
    store = redis.Redis.from_url(redis_url, decode_responses=True)
    for pool_id in {t["pool"] for t in tickets if t}:
        assert store.hlen(f"evo:pool:{{{pool_id}}}:pending") == 0
