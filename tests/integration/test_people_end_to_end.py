"""People find each other, end to end on the real stack (gunicorn, Redis, the Celery worker):
two people sign up, each points their app's notification webhook at a real receiver on
loopback, both join the same turn-based quick-play pool from two clients, are matched into one
match and play it to the end with their access tokens. Every "your_turn" reaches the receiver
signed, checked with the verification code of docs/notifications.md itself (a tampered copy is
refused by the same check); both find the match finished in their list of matches, and each is
rated for it exactly once (one history entry, the leaderboard's count up by one), even when
the broker delivers the match's end to the worker a second time (late acks allow it)."""

from __future__ import annotations

import random
import re
import secrets
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from celery import Celery

from bench.receiver import Receiver
from shared.infra.queue import MATCH_FINISHED_TASK, TOURNAMENT_QUEUE, celery_config
from tests.integration.conftest import Client, Worker

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("integration")]

DOCS = Path(__file__).resolve().parents[2] / "docs" / "notifications.md"
#: The whole scenario's bound: signing up to the last rating check.
BUDGET_SECONDS = 60.0


def documented_check() -> Callable[[str, str, bytes, str], int]:
    """The receiver's ``accept(secret, header, body, delivery)`` exactly as the docs print it
    (their first Python block), so the test fails if the documented check stops working."""
    block = re.search(r"```python\n(.*?)```", DOCS.read_text(), re.S)
    assert block is not None, "docs/notifications.md lost its Python receiver example"
    scope: dict[str, Any] = {}
    exec(compile(block.group(1), str(DOCS), "exec"), scope)
    accept: Callable[[str, str, bytes, str], int] = scope["accept"]
    return accept


def turns(receiver: Receiver, path: str, match_id: str) -> set[tuple[int, int]]:
    """(seat, version) of the "your_turn" notifications of ``match_id`` that reached ``path``
    and passed the documented check."""
    return {(note["data"]["seat"], note["data"]["version"]) for note in receiver.notes(path)
            if note["kind"] == "your_turn" and note["data"]["match"] == match_id}


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    running = Receiver(documented_check())  # answers with the docs' own check
    yield running
    running.down()


@pytest.fixture(scope="module")
def finish_worker(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Worker]:
    """The worker of the tournament queue, where a match's end is sent (as deployed: the
    session's ``worker`` consumes only the queue of people's matches and runs the sweeps)."""
    running = Worker(redis_url, tmp_path_factory.mktemp("finish-worker"), TOURNAMENT_QUEUE)
    running.env["WORKER_NICE"] = "0"  # not niced: the suite's other processes share the cores
    running.start()
    try:
        yield running
    finally:
        running.stop()


def deliver_end_again(redis_url: str, finish_worker: Worker, match_id: str, until: float
                      ) -> None:
    """Send the match's end to the real worker once more through the real broker, as a
    broker redelivers a late-acked task whose worker was lost, and wait until it has run."""
    task_id = f"again-{secrets.token_hex(6)}"
    sender = Celery("redelivery")
    sender.conf.update(celery_config(redis_url))
    sender.send_task(MATCH_FINISHED_TASK, args=[match_id], queue=TOURNAMENT_QUEUE,
                     task_id=task_id)
    wait_for(lambda: f"[{task_id}] succeeded" in finish_worker.log.read_text(errors="replace"),
             until, "the redelivered end of the match never ran")


def sign_up(client: Client, name: str, receiver: Receiver) -> dict[str, Any]:
    """A person's account (a unique name), its webhook at ``/<id>`` of ``receiver``."""
    made = client.call("POST", "/v1/people", json={
        "name": f"{name} {secrets.token_hex(3)}", "password": "correct horse battery"})
    assert made.status_code == 201, made.text
    person = {"id": made.json()["account"]["id"], "token": made.json()["access_token"]}
    secret = client.call("POST", "/v1/me/webhook-secret", person["token"])
    assert secret.status_code == 200, secret.text
    receiver.secrets[f"/{person['id']}"] = secret.json()["webhook_secret"]
    hooked = client.call("PUT", "/v1/me/notification-webhook", person["token"],
                         json={"url": receiver.url(f"/{person['id']}")})
    assert hooked.status_code == 200, hooked.text
    return person


def wait_for(check: Callable[[], bool], until: float, what: str) -> None:
    while not check():
        assert time.monotonic() < until, what
        time.sleep(0.1)


def play(clients: list[Client], tokens: list[str], match_id: str) -> set[tuple[int, int]]:
    """Play random legal moves, each seat from its own client with its own token, to the end;
    the turns that began: (seat, version) of each seat owing a move it did not owe before
    that write (a seat owing again after its own move is not told: its answer says so)."""
    rng = random.Random(41)
    now = clients[0].match(match_id)
    began = {(seat, now["version"]) for seat in now["to_move"]}  # the creating write's
    owing = set(now["to_move"])
    while now["status"] == "running":
        seat = rng.choice(now["to_move"])  # either seat may end a simultaneous step
        legal = clients[seat].call("GET", f"/v1/matches/{match_id}/moves", tokens[seat])
        assert legal.status_code == 200, legal.text
        answer = clients[seat].call("POST", f"/v1/matches/{match_id}/moves", tokens[seat], json={
            "version": legal.json()["version"], "move_id": rng.choice(legal.json()["moves"])["id"]})
        assert answer.status_code == 200, answer.text
        now = answer.json()
        began |= {(s, now["version"]) for s in now["to_move"] if s not in owing}
        owing = set(now["to_move"])
    return began


def board_count(client: Client, player: str) -> int:
    """``player``'s rated matches on the people's Savanna leaderboard (0: not on it)."""
    board = client.call("GET", "/v1/games/savanna/leaderboard/people?limit=1000")
    assert board.status_code == 200, board.text
    return next((int(row["matches"]) for row in board.json()["leaderboard"]
                 if row["player"] == player), 0)


def test_two_people_quick_play_a_turn_based_match_notified_and_rated_once(
        api_url: str, redis_url: str, worker: Worker, finish_worker: Worker,
        receiver: Receiver) -> None:
    started = time.monotonic()
    until = started + BUDGET_SECONDS
    with Client(api_url) as one, Client(api_url) as two:  # two apps, two HTTP sessions
        clients = [one, two]
        people = [sign_up(one, "Ada", receiver), sign_up(two, "Bob", receiver)]
        players = [f"account:{p['id']}" for p in people]
        before = [board_count(one, player) for player in players]
        # A per-move time of its own: a pool nobody else in the session waits in.
        control = {"kind": "turn_based", "per_move": 86400 + random.randrange(10**6)}
        choice = {"game": "savanna", "players": 2, "time_control": control}
        for client, person in zip(clients, people, strict=True):
            joined = client.call("POST", "/v1/me/pool", person["token"], json=choice)
            assert joined.status_code == 201, joined.text
        tickets = []
        for client, person in zip(clients, people, strict=True):
            ticket = client.call("GET", "/v1/me/pool", person["token"]).json()
            while ticket["status"] in ("waiting", "forming"):
                assert time.monotonic() < until, ticket
                ticket = client.call("GET", "/v1/me/pool", person["token"],
                                     params={"wait": 5}).json()
            assert ticket["status"] == "matched", ticket
            tickets.append(ticket)
        match_id = tickets[0]["match"]
        assert tickets[1]["match"] == match_id
        match = one.match(match_id)
        assert match["status"] == "running" and match["rated"]
        assert match["time_control"]["kind"] == "turn_based"
        # Each ticket's seat is its person's seat in the match.
        seats = {s["seat"]: s["account"] for s in match["seats"]}
        assert {t["seat"]: p["id"] for t, p in zip(tickets, people, strict=True)} == seats
        order = sorted(range(2), key=lambda n: tickets[n]["seat"])  # people by seat
        began = play([clients[n] for n in order], [people[n]["token"] for n in order],
                     match_id)
        assert one.match(match_id)["status"] == "finished"

        # Every "your_turn" reached its person's receiver and passed the documented check.
        expected = {n: {(s, v) for s, v in began if s == tickets[n]["seat"]} for n in range(2)}
        assert all(len(turns) > 3 for turns in expected.values()), expected
        wait_for(lambda: all(turns(receiver, f"/{people[n]['id']}", match_id) == expected[n]
                             for n in range(2)), until,
                 "not every your_turn reached its receiver with a valid signature")
        assert receiver.got and {call["status"] for call in receiver.got} == {200}
        # A tampered copy is refused by the same check, at the receiver and as code.
        one_turn = next(c for c in receiver.got if b'"your_turn"' in c["body"])
        tampered = one_turn["body"].replace(b'"your_turn"', b'"match_over"')
        secret = receiver.secrets[one_turn["path"]]
        assert receiver.check(secret, one_turn["header"], tampered, "tampered") == 401
        refused = requests.post(receiver.url(one_turn["path"]), data=tampered, timeout=10,
                                headers={"Evo-Signature": one_turn["header"],
                                         "Evo-Delivery": "tampered"})
        # Found by its delivery id, not as the last call: a genuine notification may arrive
        # after it (a fresh-clone run on a slow machine got one).
        assert refused.status_code == 401 and [
            call["status"] for call in receiver.got if call["delivery"] == "tampered"] == [401]

        # Both see the match finished among their matches, and are rated once for it.
        for client, person in zip(clients, people, strict=True):
            mine = client.call("GET", "/v1/me/matches", person["token"])
            assert mine.status_code == 200, mine.text
            (finished,) = [m for m in mine.json()["finished"] if m["id"] == match_id]
            assert finished["status"] == "finished" and finished["result"] is not None
            assert match_id not in {m["id"] for m in mine.json()["live"]}

        def history(n: int) -> list[dict[str, Any]]:
            found = clients[n].call("GET", f"/v1/games/savanna/ratings/{players[n]}/history")
            return list(found.json()["history"]) if found.status_code == 200 else []

        wait_for(lambda: all(any(h["match"] == match_id for h in history(n)) for n in range(2)),
                 until, "the match was never rated")
        deliver_end_again(redis_url, finish_worker, match_id, until)
        for n in range(2):
            assert [h["match"] for h in history(n)].count(match_id) == 1
            assert board_count(clients[n], players[n]) == before[n] + 1
    assert time.monotonic() - started < BUDGET_SECONDS
