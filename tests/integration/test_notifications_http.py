"""Notifications on the real stack (gunicorn, Redis, a Celery worker): two accounts play a
Savanna match turn by turn and every "your_turn" reaches each one's receiver (a real HTTP
server on loopback) signed, while a tampered copy is refused by the receiver's check; a
receiver down for a while gets every notification once back; the event stream resumes with
``Last-Event-ID``; redelivery from the log; a stranger reads nobody's log."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from bench.receiver import Receiver
from shared.bots import signing
from tests.integration.conftest import Client, Worker

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("integration")]


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    running = Receiver()  # 200 for a valid signature, 401 otherwise
    yield running
    running.down()


def account(client: Client, name: str, receiver: Receiver | None) -> dict[str, Any]:
    """A new account (a unique name), its notification webhook at ``/<id>`` of ``receiver``."""
    made = client.call("POST", "/v1/accounts", json={
        "name": f"{name} {random.randrange(10**9)}"})
    assert made.status_code == 201, made.text
    found: dict[str, Any] = made.json()
    if receiver is not None:
        receiver.secrets[f"/{found['id']}"] = found["webhook_secret"]
        hooked = client.call("PUT", "/v1/me/notification-webhook", found["key"],
                             json={"url": receiver.url(f"/{found['id']}")})
        assert hooked.status_code == 200, hooked.text
    return found


def challenge(client: Client, first: dict[str, Any], second: dict[str, Any]) -> str:
    """``first`` creates a Savanna match naming both; ``second`` accepts the invitation."""
    created = client.call("POST", "/v1/matches", first["key"], json={
        "game": "savanna", "seats": [{"kind": "account", "account": first["id"]},
                                     {"kind": "account", "account": second["id"]}]})
    assert created.status_code == 201, created.text
    match_id: str = created.json()["id"]
    accepted = client.call("POST", f"/v1/me/invitations/match-{match_id}/accept", second["key"])
    assert accepted.status_code == 200, accepted.text
    return match_id


def play(client: Client, match_id: str, keys: list[str], moves: int | None = None,
         seed: int = 5) -> set[tuple[int, int]]:
    """Play random moves with the seats' keys (all, or ``moves`` of them); the turns that
    began: (seat, version) of each seat that owes a move it did not owe a write earlier (a
    seat owing again after its own move is not told: its answer says so)."""
    rng = random.Random(seed)
    now = client.match(match_id)
    began = {(seat, now["version"]) for seat in now["to_move"]}  # the accepting write's
    owing, played = set(now["to_move"]), 0
    while now["status"] == "running" and (moves is None or played < moves):
        seat = rng.choice(now["to_move"])  # either seat may be the last of a secret step
        legal = client.call("GET", f"/v1/matches/{match_id}/moves", keys[seat]).json()
        answer = client.call("POST", f"/v1/matches/{match_id}/moves", keys[seat], json={
            "version": legal["version"], "move_id": rng.choice(legal["moves"])["id"]})
        assert answer.status_code == 200, answer.text
        moved = answer.json()
        began |= {(s, moved["version"]) for s in moved["to_move"] if s not in owing}
        owing, played = set(moved["to_move"]), played + 1
        now = {"status": moved["status"], "to_move": moved["to_move"]}
    return began


def wait_for(check: Any, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


def turns(notes: list[dict[str, Any]], match_id: str) -> list[tuple[int, int]]:
    return [(n["data"]["seat"], n["data"]["version"]) for n in notes
            if n["kind"] == "your_turn" and n["data"]["match"] == match_id]


def test_every_turn_reaches_each_receiver_signed_and_a_tampered_one_is_refused(
        client: Client, worker: Worker, receiver: Receiver) -> None:
    alice, bob = account(client, "Alice", receiver), account(client, "Bob", receiver)
    match_id = challenge(client, alice, bob)
    began = play(client, match_id, [alice["key"], bob["key"]])
    assert client.match(match_id)["status"] == "finished"
    expected = {seat: sorted(v for s, v in began if s == seat) for seat in (0, 1)}
    assert all(len(versions) > 5 for versions in expected.values()), expected

    def arrived() -> bool:
        return all(sorted({v for _, v in turns(receiver.notes(f"/{who['id']}"), match_id)})
                   == versions for who, versions in ((alice, expected[0]), (bob, expected[1])))

    wait_for(arrived, 60, "not every your_turn reached its receiver")
    for seat, who in enumerate((alice, bob)):
        notes = receiver.notes(f"/{who['id']}")
        assert {s for s, _ in turns(notes, match_id)} == {seat}  # only its own seat's turns
        kinds = {n["kind"] for n in notes if n["data"].get("match") == match_id}
        wait_for(lambda who=who: any(n["kind"] == "match_over" for n in receiver.notes(
            f"/{who['id']}")), 30, "no match_over")
        assert {"match_found", "your_turn"} <= kinds
    assert any(n["kind"] == "challenge" for n in receiver.notes(f"/{bob['id']}"))
    assert all(call["good"] for call in receiver.got)
    one = next(c for c in receiver.got if c["path"] == f"/{bob['id']}"
               and c["note"]["kind"] == "your_turn")
    tampered = one["body"].replace(b'"your_turn"', b'"match_over"')
    assert tampered != one["body"]
    refused = requests.post(receiver.url(one["path"]), data=tampered, timeout=10,
                            headers={signing.HEADER: one["header"]})
    assert refused.status_code == 401 and not receiver.got[-1]["good"]


def test_a_receiver_down_for_a_while_gets_every_notification_once_back(
        client: Client, worker: Worker, receiver: Receiver) -> None:
    carol, dave = account(client, "Carol", receiver), account(client, "Dave", receiver)
    receiver.down()
    match_id = challenge(client, carol, dave)
    play(client, match_id, [carol["key"], dave["key"]], moves=6)
    time.sleep(3)  # several attempts fail meanwhile (retried from 0.5 s, at most 2 s apart)
    receiver.up()
    logs = {}
    for who in (carol, dave):
        def settled(who: dict[str, Any] = who) -> bool:
            log = client.call("GET", "/v1/me/deliveries", who["key"]).json()["deliveries"]
            logs[who["id"]] = log
            return all(d["state"] == "delivered" for d in log)

        wait_for(settled, 60, "the deliveries were not all made once the receiver was back")
        log = logs[who["id"]]
        assert log and max(d["attempts"] for d in log) > 1  # retried, not lucky
        got = [c for c in receiver.got if c["path"] == f"/{who['id']}"]
        assert all(c["good"] for c in got)
        assert {c["delivery"] for c in got} == {d["id"] for d in log}
        # A repeat only ever carries its delivery's own id: no notification came twice
        # under two ids.
        about = {c["delivery"]: json.dumps([c["note"]["kind"], c["note"]["data"]],
                                           sort_keys=True) for c in got}
        assert len(set(about.values())) == len(about)
        assert all(d["last_status"] == 200 for d in log)


def events(response: requests.Response, until: Any) -> list[tuple[str | None, dict[str, Any]]]:
    """The ``notification`` events of an open stream, until ``until(events)`` holds."""
    found: list[tuple[str | None, dict[str, Any]]] = []
    ident, name = None, None
    for line in response.iter_lines(decode_unicode=True):
        if line.startswith("id: "):
            ident = line[4:]
        elif line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: ") and name == "notification":
            found.append((ident, json.loads(line[6:])))
            if until(found):
                break
        elif not line:
            ident, name = None, None
    response.close()
    return found


def test_the_stream_resumes_with_last_event_id_without_loss(
        client: Client, worker: Worker) -> None:
    erin, frank = account(client, "Erin", None), account(client, "Frank", None)
    stream = client.call("GET", "/v1/me/stream", frank["key"], stream=True)
    assert stream.status_code == 200
    match_id = challenge(client, erin, frank)  # challenge, match_found, maybe a turn
    first = events(stream, lambda got: len(got) >= 2)
    assert [n["kind"] for _, n in first][:2] == ["challenge", "match_found"]
    last_id = first[-1][0]
    # While disconnected: play until Frank has missed three notifications (how many turns a
    # move tells him depends on who ends each secret step: one seat owing again after its
    # own move is not told).
    missed: list[str] = []
    for chunk in range(30):
        if len(missed) >= 3:
            break
        play(client, match_id, [erin["key"], frank["key"]], moves=2, seed=chunk)
        log = client.call("GET", "/v1/me/deliveries", frank["key"]).json()["deliveries"]
        missed = [d["id"] for d in reversed(log)][len(first):]
    assert len(missed) >= 3
    again = client.call("GET", "/v1/me/stream", frank["key"], stream=True,
                        headers={"Last-Event-ID": last_id})
    resumed = events(again, lambda got: len(got) >= len(missed))
    assert [n["id"] for _, n in resumed] == missed
    idents = [i for i, _ in first + resumed]
    assert idents == sorted(idents, key=lambda i: tuple(map(int, str(i).split("-"))))


def test_redelivery_from_the_log_and_a_stranger_reads_nobodys_log(
        client: Client, worker: Worker, receiver: Receiver) -> None:
    grace, heidi = account(client, "Grace", receiver), account(client, "Heidi", receiver)
    stranger = account(client, "Stranger", None)
    challenge(client, grace, heidi)
    path = f"/{heidi['id']}"
    wait_for(lambda: len(receiver.notes(path)) >= 2, 30, "no notifications")
    log = client.call("GET", "/v1/me/deliveries", heidi["key"]).json()["deliveries"]
    wait_for(lambda: all(d["state"] == "delivered" for d in client.call(
        "GET", "/v1/me/deliveries", heidi["key"]).json()["deliveries"]), 30, "not delivered")
    chosen = log[-1]["id"]  # the oldest: the challenge
    before = [c for c in receiver.got if c["delivery"] == chosen]
    assert len(before) == 1

    for key in (stranger["key"], grace["key"]):  # another account's delivery: not found
        assert client.call("POST", f"/v1/me/deliveries/{chosen}/redeliver",
                           key).status_code == 404
        listed = client.call("GET", "/v1/me/deliveries", key).json()["deliveries"]
        assert chosen not in {d["id"] for d in listed}
    assert client.call("GET", "/v1/me/deliveries").status_code == 401
    assert client.call("GET", "/v1/me/deliveries", stranger["key"]).json() == {"deliveries": []}

    again = client.call("POST", f"/v1/me/deliveries/{chosen}/redeliver", heidi["key"])
    assert again.status_code == 202, again.text
    wait_for(lambda: len([c for c in receiver.got if c["delivery"] == chosen]) == 2, 30,
             "the redelivery did not arrive")
    repeat = [c for c in receiver.got if c["delivery"] == chosen]
    assert repeat[1]["good"] and repeat[1]["note"] == repeat[0]["note"]
    entry = next(d for d in client.call("GET", "/v1/me/deliveries", heidi["key"]).json()[
        "deliveries"] if d["id"] == chosen)
    assert entry["attempts"] == 2
    assert client.call("POST", "/v1/me/deliveries/n_nope/redeliver",
                       heidi["key"]).status_code == 404
