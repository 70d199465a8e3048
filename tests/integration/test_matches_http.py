"""Savanna matches over real HTTP: gunicorn + real Redis + a real Celery worker process."""

from __future__ import annotations

import json
import random
import threading
import time

import pytest
import requests

from shared.infra.queue import SWEEP_TASK
from tests.integration.conftest import Client, Worker

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("integration")]


def play_human_until_over(client: Client, match_id: str, token: str, seat: int,
                          rng: random.Random, timeout: float = 180) -> dict:
    """Drive one human seat with random legal moves, as a client would, until the end."""
    deadline = time.monotonic() + timeout
    match = client.match(match_id, token)
    while match["status"] != "finished":
        assert time.monotonic() < deadline, "match did not finish in time"
        if seat not in match["to_move"]:
            match = client.match(match_id, token, version=match["version"], wait=10)
            continue
        moves = client.call("GET", f"/v1/matches/{match_id}/moves", token).json()
        if not moves["moves"]:  # the match moved on between the two reads
            match = client.match(match_id, token)
            continue
        choice = rng.choice(moves["moves"])
        body = ({"version": moves["version"], "move_id": choice["id"]} if rng.random() < 0.5
                else {"version": moves["version"], "move": choice["move"]})
        response = client.call("POST", f"/v1/matches/{match_id}/moves", token, json=body)
        # In a simultaneous step a bot may have moved first: 409, read again and retry.
        assert response.status_code in (200, 409), response.text
        match = client.match(match_id, token)
    return match


def test_human_and_two_bots_play_to_the_end(client: Client, worker: Worker) -> None:
    created = client.create({"game": "savanna", "seed": 11, "seats": [
        {"kind": "human", "name": "Ada"},
        {"kind": "bot", "bot": {"kind": "random"}},
        {"kind": "bot", "bot": {"kind": "greedy"}}]})
    token = created["tokens"][0]["token"]
    view = client.match(created["id"], token)["view"]
    assert len(view["hand"]) == 11
    final = play_human_until_over(client, created["id"], token, 0, random.Random(1))
    assert final["result"]["winners"] and len(final["result"]["scores"]) == 3
    assert final["seed"] == 11  # revealed once over
    events = client.call("GET", f"/v1/matches/{created['id']}/events").json()
    assert events["redacted"] is False
    moves = [e for e in events["events"] if e.get("move")]
    # 3 seats x 20 steps x (a pick and a placement), every move logged once.
    assert len(moves) == 120
    assert sum(e["move"]["type"] == "place" for e in moves) == 60


def test_four_bots_finish_on_their_own(client: Client, worker: Worker) -> None:
    created = client.create({"game": "savanna", "seed": 12, "seats": [
        {"kind": "bot", "bot": {"kind": "random"}}, {"kind": "bot", "bot": {"kind": "greedy"}},
        {"kind": "bot", "bot": {"kind": "random"}}, {"kind": "bot", "bot": {"kind": "greedy"}}]})
    final = client.wait_finished(created["id"], timeout=180)
    assert sorted(final["result"]["ranking"])[0] == 1
    assert all(len(final["view"]["savannas"][s]) == 20 for s in range(4))


def test_worker_killed_mid_match_then_restarted_finishes(client: Client,
                                                        worker: Worker) -> None:
    created = client.create({"game": "savanna", "seed": 13, "seats": [
        {"kind": "bot", "bot": {"kind": "greedy"}} for _ in range(4)]})
    match = client.match(created["id"])
    while match["version"] < 6:
        match = client.match(created["id"], version=match["version"], wait=10)
    worker.kill()
    time.sleep(1.5)
    stalled = client.match(created["id"])
    assert stalled["status"] == "running", "the match ended before the worker was killed"
    time.sleep(2)
    assert client.match(created["id"])["version"] == stalled["version"]  # nobody plays
    worker.start()
    final = client.wait_finished(created["id"], timeout=180)
    assert final["status"] == "finished"


def test_twenty_concurrent_http_moves_one_wins(client: Client, worker: Worker) -> None:
    created = client.create({"game": "savanna", "seats": [{"kind": "human"}] * 2})
    token = created["tokens"][0]["token"]
    moves = client.call("GET", f"/v1/matches/{created['id']}/moves", token).json()
    barrier = threading.Barrier(20)
    codes: list[int] = []

    def submit(i: int) -> None:
        session = requests.Session()
        choice = moves["moves"][i % len(moves["moves"])]
        body = {"version": moves["version"], "move_id": choice["id"]}
        barrier.wait()
        response = session.post(f"{client.base}/v1/matches/{created['id']}/moves", json=body,
                                headers={"Authorization": f"Bearer {token}"}, timeout=30)
        codes.append(response.status_code)

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(codes) == [200] + [409] * 19
    log = client.call("GET", f"/v1/matches/{created['id']}/events", token).json()["events"]
    assert [e["version"] for e in log] == [moves["version"] + 1]


def test_idempotent_retry_applies_once(client: Client, worker: Worker) -> None:
    created = client.create({"game": "savanna", "seats": [{"kind": "human"}] * 2})
    token = created["tokens"][1]["token"]
    moves = client.call("GET", f"/v1/matches/{created['id']}/moves", token).json()
    body = {"version": moves["version"], "move_id": moves["moves"][0]["id"]}
    headers = {"Idempotency-Key": "retry-me-1"}
    first = client.call("POST", f"/v1/matches/{created['id']}/moves", token, json=body,
                        headers=dict(headers))
    second = client.call("POST", f"/v1/matches/{created['id']}/moves", token, json=body,
                         headers=dict(headers))
    assert first.status_code == second.status_code == 200
    assert first.json() == second.json()
    assert client.match(created["id"])["version"] == moves["version"] + 1


def test_long_poll_returns_when_the_version_moves(client: Client, worker: Worker) -> None:
    created = client.create({"game": "savanna", "seats": [{"kind": "human"}] * 2})
    token = created["tokens"][0]["token"]
    seen: dict = {}

    def wait() -> None:
        started = time.monotonic()
        seen.update(client.match(created["id"], version=created["version"], wait=30))
        seen["elapsed"] = time.monotonic() - started

    waiter = threading.Thread(target=wait)
    waiter.start()
    time.sleep(0.5)
    moves = client.call("GET", f"/v1/matches/{created['id']}/moves", token).json()
    client.call("POST", f"/v1/matches/{created['id']}/moves", token,
                json={"version": moves["version"], "move_id": moves["moves"][0]["id"]})
    waiter.join(timeout=40)
    assert seen["version"] == created["version"] + 1
    assert seen["elapsed"] < 29  # woke on the change, not on the timeout


def test_event_stream_reports_new_versions(client: Client, worker: Worker) -> None:
    """The move's version arrives as one whole event: its id, its name and a data line with
    that version and its log entry (a stream that ends with no data line fails)."""
    created = client.create({"game": "savanna", "seats": [{"kind": "human"}] * 2})
    token = created["tokens"][0]["token"]
    stream = client.http.get(f"{client.base}/v1/matches/{created['id']}/stream",
                             params={"since": created["version"]}, stream=True, timeout=30)
    assert stream.headers["Content-Type"].startswith("text/event-stream")
    moves = client.call("GET", f"/v1/matches/{created['id']}/moves", token).json()
    posted = client.call("POST", f"/v1/matches/{created['id']}/moves", token,
                         json={"version": moves["version"], "move_id": moves["moves"][0]["id"]})
    assert posted.status_code == 200, posted.text
    fields: dict[str, str] = {}
    deadline = time.monotonic() + 20  # the event comes at once; keep-alives come every 15 s
    for line in stream.iter_lines(decode_unicode=True):
        if time.monotonic() > deadline:
            break
        if not line:
            if "event" in fields:  # the end of the first named event
                break
            fields = {}  # the retry hint or a keep-alive: no event yet
        elif not line.startswith(":"):
            name, _, value = line.partition(":")
            fields[name] = value.strip()
    stream.close()
    new_version = created["version"] + 1
    assert fields.get("event") == "version" and fields.get("id") == str(new_version), fields
    assert "data" in fields, f"the event has no data line: {fields}"
    data = json.loads(fields["data"])
    assert data["version"] == new_version and data["status"] == "running"
    assert data["entry"] is not None and data["entry"]["version"] == new_version


def test_open_seat_joined_over_http(client: Client, worker: Worker) -> None:
    created = client.create({"game": "savanna", "seats": [
        {"kind": "open"}, {"kind": "bot", "bot": {"kind": "random"}}]})
    assert created["status"] == "waiting"
    joined = client.call("POST", f"/v1/matches/{created['id']}/join", json={"name": "Bo"})
    assert joined.status_code == 201
    token = joined.json()["token"]
    final = play_human_until_over(client, created["id"], token, 0, random.Random(3))
    assert final["status"] == "finished"


def test_readiness(client: Client, worker: Worker) -> None:
    assert client.call("GET", "/healthz").json() == {"status": "ok"}
    ready = client.call("GET", "/readyz")
    assert ready.status_code == 200 and ready.json()["checks"] == {
        "redis": True, "redis_writable": True, "broker": True}


def test_search_bots_play_in_the_worker(client: Client, worker: Worker) -> None:
    """ISMCTS bots (easy level and a custom budget) move through the real worker."""
    created = client.create({"game": "savanna", "seed": 21, "seats": [
        {"kind": "human"}, {"kind": "bot", "bot": {"kind": "ismcts", "level": "easy"}},
        {"kind": "bot", "bot": {"kind": "ismcts", "simulations": 30}}]})
    token = created["tokens"][0]["token"]
    final = play_human_until_over(client, created["id"], token, 0, random.Random(5))
    log = client.call("GET", f"/v1/matches/{created['id']}/events").json()["events"]
    bot_moves = [e for e in log if e.get("bot")]
    assert {e["bot"]["kind"] for e in bot_moves} == {"ismcts"}
    assert not any(e["bot"].get("fallback") for e in bot_moves)  # searched, not fell back
    assert len(bot_moves) == 80 and final["status"] == "finished"  # 2 bots x 20 x 2 moves


def test_worker_log_leaves_out_the_routine_sweep(client: Client, worker: Worker) -> None:
    """Beat sends the sweep every second here; its routine lines stay out of the log."""
    time.sleep(max(0.0, worker.started_at + 5 - time.monotonic()))  # a few sweeps at least
    lines = worker.log.read_text().splitlines()
    assert any("beat: Starting" in line for line in lines)
    assert any("INFO/" in line for line in lines)
    assert [line for line in lines if "INFO/" in line and SWEEP_TASK in line] == []


def play_fast(client: Client, match_id: str, token: str, seat: int, rng: random.Random,
              refused: list[str], timeout: float = 180) -> None:
    """A fast client: as soon as its seat owes a move it reads its legal moves and posts
    one, quoting the version it read; a refusal is noted, and it reads again."""
    deadline = time.monotonic() + timeout
    match = client.match(match_id, token)
    while match["status"] == "running":
        assert time.monotonic() < deadline, "match did not finish in time"
        if seat not in match["to_move"]:
            match = client.match(match_id, token, version=match["version"], wait=10)
            continue
        moves = client.call("GET", f"/v1/matches/{match_id}/moves", token).json()
        if moves["moves"]:
            choice = rng.choice(moves["moves"])
            response = client.call("POST", f"/v1/matches/{match_id}/moves", token, json={
                "version": moves["version"], "move_id": choice["id"]})
            assert response.status_code in (200, 409), response.text
            if response.status_code == 409:
                refused.append(f"v{moves['version']} {choice['id']}: "
                               f"{response.json()['detail']}")
        match = client.match(match_id, token)


def test_a_fast_client_against_a_bot_is_never_refused(client: Client, worker: Worker) -> None:
    """Issue 40: in 2-player Savanna a fast client got 8-17 refused placements a match, each
    right after the bot's public placement, although its own legal moves had not changed.
    A move quoting a version after which only the other seat moved in the same step is
    accepted: zero 409s over whole matches."""
    refused: list[str] = []
    for seed in (1, 2):
        created = client.create({"game": "savanna", "seed": seed, "seats": [
            {"kind": "human"}, {"kind": "bot", "bot": {"kind": "random"}}]})
        play_fast(client, created["id"], created["tokens"][0]["token"], 0,
                  random.Random(seed), refused)
        assert client.match(created["id"])["status"] == "finished"
    assert refused == []


def test_several_people_picking_at_once_are_never_refused(client: Client,
                                                           api_url: str) -> None:
    """Issue 39: three people picking at once in Savanna got one false 409 per step. Each
    seat's move quotes the version it read; another seat's choice of the same step since
    (even two of them, racing its commit) refuses nothing: zero 409s over a whole match."""
    created = client.create({"game": "savanna", "seed": 5, "seats": [{"kind": "human"}] * 4})
    refused: list[str] = []
    people = [Client(api_url) for _ in created["tokens"]]  # each with its own connections
    threads = [threading.Thread(target=play_fast, args=(
        person, created["id"], token["token"], token["seat"], random.Random(token["seat"]),
        refused)) for person, token in zip(people, created["tokens"], strict=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for person in people:
        person.close()
    assert client.match(created["id"])["status"] == "finished"
    assert refused == []
