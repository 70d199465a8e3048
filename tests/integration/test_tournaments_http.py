"""Tournaments through the real service: gunicorn, Redis and two Celery workers (the beat
worker of people's matches and a tournament worker this module starts, kills and restarts).

Savanna 2-player matches with ``random``/``greedy`` bots and tiny searches keep it quick.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import redis
from openskill.models import PlackettLuce

from shared.matches.store import MatchStore, match_key
from shared.ratings.store import RatingStore
from tests.integration.conftest import Client, Worker

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("tournaments")]
FOUR_BOTS = [{"bot": {"kind": "random"}}, {"bot": {"kind": "greedy"}},
             {"bot": {"kind": "ismcts", "simulations": 10}},
             {"bot": {"kind": "ismcts", "simulations": 20}}]


#: ``WORKER_NICE`` that keeps the test run's own niceness (a worker only ever raises its own).
OUR_NICENESS = "0"


@pytest.fixture(scope="module")
def tournament_worker(redis_url: str, tmp_path_factory: pytest.TempPathFactory
                      ) -> Iterator[Worker]:
    """This module's own worker of the tournament queue (the kill test kills it).

    It runs at the test run's own niceness: niced as deployed, its session would get a tenth
    of a core beside the suite's other xdist worker and the tournament tests would take
    minutes. The tests of that yielding restart it as deployed (``niced_tournament_worker``).
    """
    running = Worker(redis_url, tmp_path_factory.mktemp("tournament-worker"), "tournament")
    running.env["WORKER_NICE"] = OUR_NICENESS
    running.start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def niced_tournament_worker(tournament_worker: Worker) -> Iterator[Worker]:
    """The module's tournament worker restarted as deployed, niced (``TOURNAMENT_NICE``),
    then restarted at the test run's niceness again."""
    tournament_worker.stop()
    del tournament_worker.env["WORKER_NICE"]
    tournament_worker.start()
    try:
        yield tournament_worker
    finally:
        tournament_worker.stop()
        tournament_worker.env["WORKER_NICE"] = OUR_NICENESS
        tournament_worker.start()


@pytest.fixture
def stack(client: Client, worker: Worker, tournament_worker: Worker) -> Client:
    return client


# A seat's moves in a 2-player Savanna match: 20 cards, each picked face down and then placed
# once revealed (docs/rules/savanna.md, S-2.2 and S-2.6).
MOVES_PER_SEAT = 40

def create(client: Client, body: dict[str, Any], *invited: dict[str, Any]) -> dict[str, Any]:
    """Create a tournament; each ``invited`` account (with its ``key``) then accepts the
    invitation it got (an account entrant is entered only with its consent)."""
    response = client.call("POST", "/v1/tournaments", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    for entrant in invited:
        accepted = client.call("POST", f"/v1/me/invitations/tournament-{created['id']}/accept",
                               entrant["key"])
        assert accepted.status_code == 200, accepted.text
    return created


def wait_over(client: Client, tournament_id: str, timeout: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        info = client.call("GET", f"/v1/tournaments/{tournament_id}").json()
        if info["status"] != "running":
            return info
        assert time.monotonic() < deadline, f"tournament not over: {info['progress']}"
        time.sleep(0.3)


def export(client: Client, tournament_id: str) -> list[dict[str, Any]]:
    response = client.call("GET", f"/v1/tournaments/{tournament_id}/results")
    assert response.status_code == 200 and response.headers["Content-Type"].startswith(
        "application/jsonl")
    return [json.loads(line) for line in response.text.splitlines()]


def account(client: Client, name: str, webhook: str | None = None) -> dict[str, Any]:
    body = {"name": name} if webhook is None else {"name": name, "webhook": webhook}
    response = client.call("POST", "/v1/accounts", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def recount(rows: list[dict[str, Any]], entrants: int) -> dict[int, dict[str, float]]:
    """Points, wins and places per entrant, recomputed from the exported results alone."""
    table = {e: {"points": 0.0, "wins": 0, "matches": 0, "places": 0} for e in range(entrants)}
    for row in rows:
        places = row["result"]["places"]
        for seat in row["seats"]:
            mine = places[seat["seat"]]
            others = [p for s, p in enumerate(places) if s != seat["seat"]]
            line = table[seat["entrant"]]
            beaten, tied = sum(p > mine for p in others), sum(p == mine for p in others)
            line["points"] += (beaten + 0.5 * tied) / len(others)
            line["wins"] += mine == 1
            line["matches"] += 1
            line["places"] += mine
    return table


def test_round_robin_of_four_bots_agrees_with_its_export_and_replays(stack: Client) -> None:
    spec = {"game": "savanna", "format": "round_robin", "entrants": FOUR_BOTS, "seed": 5,
            "concurrency": 6}
    created = create(stack, spec)
    assert created["progress"]["total"] == 12 and "owner_token" in created
    final = wait_over(stack, created["id"])
    assert final["status"] == "finished"
    assert final["progress"]["done"] == 12 and final["progress"]["eta_seconds"] is None
    rows = export(stack, created["id"])
    assert len(rows) == 12 and all(row["status"] == "finished" for row in rows)
    # Duplicate play: each pairing's two matches share a seed and swap the seats.
    by_deal: dict[int, list[dict[str, Any]]] = {}
    for row in rows:
        by_deal.setdefault(row["deal"], []).append(row)
    for pair in by_deal.values():
        assert len(pair) == 2 and pair[0]["seed"] == pair[1]["seed"]
        first, second = ([s["entrant"] for s in row["seats"]] for row in pair)
        assert first == second[::-1]
    table = recount(rows, 4)
    for standing in final["standings"]:
        mine = table[standing["entrant"]]
        assert standing["points"] == pytest.approx(mine["points"], abs=1e-4)
        assert standing["wins"] == mine["wins"] and standing["matches"] == mine["matches"] == 6
        assert standing["average_place"] == pytest.approx(mine["places"] / 6, abs=1e-4)
        assert standing["rating"]["matches"] >= 6
    points = [s["points"] for s in final["standings"]]
    assert points == sorted(points, reverse=True)
    # The CSV export says the same.
    text = stack.call("GET", f"/v1/tournaments/{created['id']}/results",
                      params={"format": "csv"}).text
    csv_rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["match"] for r in csv_rows] == [r["match"] for r in rows]
    assert [r["places"] for r in csv_rows] == [
        ";".join(map(str, r["result"]["places"])) for r in rows]
    # Seeded, deterministic bots: the same spec plays the same matches the same way.
    again = wait_over(stack, create(stack, spec)["id"])
    replay = export(stack, again["id"])
    assert [(r["seed"], r["seats"], r["result"]["scores"], r["result"]["places"])
            for r in replay] == [(r["seed"], r["seats"], r["result"]["scores"],
                                  r["result"]["places"]) for r in rows]


def test_a_pull_bot_process_plays_a_tournament(stack: Client, tmp_path: Path) -> None:
    puller = account(stack, "Puller")
    assert "key" in puller and stack.call("GET", "/v1/me", puller["key"]).json()["id"] == \
        puller["id"]
    created = create(stack, {"game": "savanna", "format": "round_robin", "seed": 3,
                             "move_deadline": 20, "entrants": [
                                 {"account": puller["id"]}, {"bot": {"kind": "random"}}]},
                     puller)
    bot = subprocess.Popen([sys.executable, "-m", "tests.integration.pull_bot", stack.base,
                            puller["key"], created["id"]], stdout=subprocess.PIPE, text=True)
    try:
        final = wait_over(stack, created["id"])
        out, _ = bot.communicate(timeout=30)
    finally:
        bot.kill()
    assert final["status"] == "finished", final
    assert int(out.split()[1]) == 2 * MOVES_PER_SEAT  # 2 matches, all its own
    for row in export(stack, created["id"]):
        events = stack.call("GET", f"/v1/matches/{row['match']}/events").json()["events"]
        seat = next(s["seat"] for s in row["seats"] if s["entrant"] == 0)
        assert not [e for e in events if e.get("seat") == seat and "timeout" in e]
    assert stack.call("GET", "/v1/me/turns", puller["key"]).json() == {"turns": [],
                                                                         "invitations": []}


def pull_bot_statuses(client: Client, key: str, tournament_id: str, seed: int
                      ) -> list[tuple[tuple[str, int, int], int]]:
    """Play every turn ``/v1/me/turns`` hands the key, at once, with a random one of the
    turn's moves and the turn's version, until the tournament is over: (turn, status) each."""
    rng, out = random.Random(seed), []
    deadline = time.monotonic() + 180
    while client.call("GET", f"/v1/tournaments/{tournament_id}").json()["status"] == "running":
        assert time.monotonic() < deadline, "the tournament did not end"
        turns = client.call("GET", "/v1/me/turns", key, params={"wait": 2}).json()["turns"]
        for turn in turns:
            answer = client.call("POST", f"/v1/matches/{turn['match']}/moves", key, json={
                "version": turn["version"], "move_id": rng.choice(turn["moves"])["id"]})
            out.append(((turn["match"], turn["seat"], turn["version"]), answer.status_code))
    return out


@pytest.mark.parametrize("game", ["savanna", "darwinning"])
def test_a_pull_bot_that_plays_the_turn_it_was_handed_is_never_refused(
        stack: Client, game: str) -> None:
    """Savanna's steps are simultaneous (the bots pick and place while the pull bot is
    handed its turn, and their placements are seen), Darwinning's sequential: either way
    a move posted for the version its turn carried is accepted, and an answered turn is
    not handed out again."""
    puller = account(stack, f"Puller {game}")
    created = create(stack, {"game": game, "format": "round_robin", "seed": 5,
                             "move_deadline": 60, "concurrency": 2, "entrants": [
                                 {"account": puller["id"]}, {"bot": {"kind": "random"}},
                                 {"bot": {"kind": "greedy"}}]}, puller)
    played = pull_bot_statuses(stack, puller["key"], created["id"], seed=3)
    assert wait_over(stack, created["id"])["status"] == "finished"
    refused = [(turn, status) for turn, status in played if status != 200]
    assert not refused, f"{len(refused)} of {len(played)} moves refused: {refused[:5]}"
    turns = [turn for turn, _ in played]
    assert len(set(turns)) == len(turns)  # no turn handed out (and played) twice
    if game == "savanna":
        assert len(played) == 4 * MOVES_PER_SEAT  # 4 matches of its 6, all its moves


class WebhookBots:
    """A local HTTP server playing several webhook accounts: ``/good/<name>`` answers a random
    legal move id, ``/bad`` an illegal one. It records what each request carried."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        bots = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                bots.requests.append({"path": self.path, **body})
                move_id = (random.choice(body["moves"])["id"] if self.path.startswith("/good")
                           else "not-a-move")
                data = json.dumps({"move_id": move_id}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def webhook_bots() -> Iterator[WebhookBots]:
    bots = WebhookBots()
    yield bots
    bots.server.shutdown()


def test_webhook_bots_play_and_ratings_equal_openskill(stack: Client, redis_url: str,
                                                       webhook_bots: WebhookBots) -> None:
    hooks = [account(stack, f"Hook {n}", f"{webhook_bots.url}/good/{n}") for n in range(3)]
    me = stack.call("GET", "/v1/me", hooks[0]["key"]).json()
    assert me["webhook"].startswith(webhook_bots.url)
    created = create(stack, {"game": "savanna", "format": "round_robin", "seed": 9,
                             "move_deadline": 10, "entrants": [
                                 {"account": h["id"]} for h in hooks]}, *hooks)
    assert "webhook" not in json.dumps(created) and "key" not in json.dumps(created["entrants"])
    final = wait_over(stack, created["id"])
    assert final["status"] == "finished"
    rows = export(stack, created["id"])
    # Each request carried that seat's own view and legal moves only.
    assert len(webhook_bots.requests) == 6 * 2 * MOVES_PER_SEAT
    for sent in webhook_bots.requests:
        assert sent["view"]["seat"] == sent["seat"] and sent["moves"]
    for row in rows:
        log = stack.call("GET", f"/v1/matches/{row['match']}/events").json()["events"]
        moves = [e for e in log if "move" in e]
        assert len(moves) == 2 * MOVES_PER_SEAT
        assert all(e["bot"]["kind"] == "webhook" for e in moves)

    # Ratings: replay the export, in the order the matches were rated, with OpenSkill.
    model, ratings = PlackettLuce(), {f"account:{h['id']}": None for h in hooks}
    for row in sorted(rows, key=lambda r: r["rating"]["seq"]):
        players = [s["player"] for s in row["seats"]]
        teams = [[model.rating() if ratings[p] is None else ratings[p]] for p in players]
        rated = model.rate(teams, ranks=row["result"]["places"])
        for player, team in zip(players, rated, strict=True):
            ratings[player] = team[0]
        assert row["rating"]["after"] == {
            p: {"mu": pytest.approx(ratings[p].mu), "sigma": pytest.approx(ratings[p].sigma)}
            for p in players}
    board = stack.call("GET", "/v1/games/savanna/leaderboard").json()["leaderboard"]
    mine = {row["player"]: row for row in board if row["player"] in ratings}
    assert len(mine) == 3
    for player, rating in ratings.items():
        assert mine[player]["mu"] == pytest.approx(rating.mu)
        assert mine[player]["sigma"] == pytest.approx(rating.sigma)
        assert mine[player]["matches"] == 4
        assert mine[player]["conservative"] == pytest.approx(rating.mu - 3 * rating.sigma)
    # A match seen finishing again (another worker, a repeated message) counts once.
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    store = MatchStore(client)
    record = store.load(rows[0]["match"])
    assert record is not None
    from shared.ratings.model import placings, rate

    again = RatingStore(client).rate_once(
        "savanna", record.id, [(s["player"], "x") for s in rows[0]["seats"]],
        lambda current: rate(current, placings(record.result["ranking"], [])))
    assert again == rows[0]["rating"]
    after = stack.call("GET", "/v1/games/savanna/leaderboard").json()["leaderboard"]
    assert {r["player"]: r for r in after if r["player"] in ratings} == mine


def test_a_silent_bot_times_out_forfeits_and_the_tournament_finishes(
        stack: Client, webhook_bots: WebhookBots) -> None:
    silent = account(stack, "Silent")  # a pull account nobody drives
    wrong = account(stack, "Wrong", f"{webhook_bots.url}/bad")  # answers an illegal move id
    created = create(stack, {"game": "savanna", "format": "round_robin", "seed": 4,
                             "move_deadline": 0.3, "forfeit_after": 2, "concurrency": 6,
                             "entrants": [{"account": silent["id"]}, {"account": wrong["id"]},
                                          {"bot": {"kind": "random"}}]}, silent, wrong)
    final = wait_over(stack, created["id"], timeout=90)
    assert final["status"] == "finished"
    for row in export(stack, created["id"]):
        log = stack.call("GET", f"/v1/matches/{row['match']}/events").json()["events"]
        # A webhook's failure shows as "no valid answer" whatever it was (here an illegal
        # move id): the public log tells nothing of what the worker found at the address.
        for entrant, reason in ((0, "deadline"), (1, "no valid answer")):
            seats = [s["seat"] for s in row["seats"] if s["entrant"] == entrant]
            if not seats:
                continue
            seat = seats[0]
            timeouts = [e for e in log if e.get("seat") == seat and "timeout" in e]
            assert [e["timeout"]["reason"] for e in timeouts] == [reason] * 2
            forfeits = [ev for e in log for ev in e["events"] if ev["type"] == "forfeit"]
            assert {"type": "forfeit", "seat": seat, "timeouts": 2} in forfeits
            mine = [e for e in log if e.get("seat") == seat and "move" in e]
            assert len(mine) == MOVES_PER_SEAT
            assert all(e["bot"]["kind"] == "random" for e in mine[2:])
            assert seat in row["result"]["forfeited"]
            assert row["result"]["places"][seat] == max(row["result"]["places"])
    table = {s["entrant"]: s for s in final["standings"]}
    assert table[2]["points"] == 4 and table[2]["rank"] == 1


def test_worker_killed_mid_tournament_restarts_and_no_match_is_missing_or_doubled(
        stack: Client, tournament_worker: Worker, redis_url: str) -> None:
    created = create(stack, {"game": "savanna", "format": "round_robin", "rounds": 4,
                             "seed": 21, "concurrency": 2, "entrants": [
                                 {"bot": {"kind": "random"}},
                                 {"bot": {"kind": "ismcts", "simulations": 30}}]})
    deadline = time.monotonic() + 60
    while stack.call("GET", f"/v1/tournaments/{created['id']}").json()["progress"]["done"] < 2:
        assert time.monotonic() < deadline
        time.sleep(0.1)
    tournament_worker.kill()
    stalled = stack.call("GET", f"/v1/tournaments/{created['id']}").json()
    assert stalled["status"] == "running" and stalled["progress"]["done"] < 8
    time.sleep(1)
    tournament_worker.start()
    final = wait_over(stack, created["id"], timeout=120)
    assert final["status"] == "finished" and final["progress"]["done"] == 8
    rows = export(stack, created["id"])
    assert sorted(r["slot"] for r in rows) == list(range(8))
    assert len({r["match"] for r in rows}) == 8
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    stored = [k for k in client.scan_iter(match_key(f"{created['id']}-*"))
              if k.count(":") == 2]
    assert sorted(stored) == sorted(match_key(r["match"]) for r in rows)
    for row in rows:
        log = stack.call("GET", f"/v1/matches/{row['match']}/events").json()["events"]
        # Every move of both seats, each once.
        assert [e["version"] for e in log] == list(range(2, 2 + 2 * MOVES_PER_SEAT))
    counted = sum(s["matches"] for s in final["standings"])
    assert counted == 16


def test_swiss_tournament_has_no_rematch(stack: Client) -> None:
    created = create(stack, {"game": "savanna", "format": "swiss", "rounds": 2, "seed": 2,
                             "concurrency": 8, "entrants": [
                                 {"bot": {"kind": "random"}}, {"bot": {"kind": "greedy"}},
                                 *({"bot": {"kind": "ismcts", "simulations": n}}
                                   for n in (5, 10, 15))]})
    final = wait_over(stack, created["id"])
    assert final["status"] == "finished"
    rows = export(stack, created["id"])
    assert len(rows) == 2 * 2 * 2  # 2 pairings a round, each a duplicate pair
    pairs = [frozenset(s["entrant"] for s in row["seats"]) for row in rows[::2]]
    assert len(set(pairs)) == len(pairs)
    assert sorted(s["byes"] for s in final["standings"]) == [0, 0, 0, 1, 1]
    assert [row["round"] for row in rows] == [0] * 4 + [1] * 4


def _niceness(pid: int) -> list[int]:
    """The niceness of a process and of each of its children (a Celery pool)."""
    children = [int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit()
                and _parent(int(entry.name)) == pid]
    return [os.getpriority(os.PRIO_PROCESS, p) for p in (pid, *children)]


def _parent(pid: int) -> int | None:
    try:  # /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):  # the process ended meanwhile
        return None


def _autogroup_nice(pid: int) -> int:
    """The niceness of a process's scheduling autogroup: "/autogroup-42 nice 10"."""
    return int(Path(f"/proc/{pid}/autogroup").read_text().split()[-1])


def test_the_tournament_worker_yields_the_cpu_to_peoples_bots(
        worker: Worker, niced_tournament_worker: Worker) -> None:
    tournament_worker = niced_tournament_worker
    assert worker.process and tournament_worker.process
    deadline = time.monotonic() + 30
    while len(tournament := _niceness(tournament_worker.process.pid)) < 3:  # main + 2 pool
        assert time.monotonic() < deadline, tournament
        time.sleep(0.2)
    ours = os.getpriority(os.PRIO_PROCESS, 0)  # the workers start at the test run's own
    assert tournament == [max(ours, 10)] * len(tournament)
    assert set(_niceness(worker.process.pid)) == {ours}
    # Each worker leads a session of its own: where the kernel weighs sessions against each
    # other (autogroups), the tournament's session is lowered too, or niceness does nothing.
    if Path("/proc/self/autogroup").exists():
        assert _autogroup_nice(tournament_worker.process.pid) == 10
        assert _autogroup_nice(worker.process.pid) == 0


def test_people_keep_their_bot_reply_latency_while_a_tournament_runs(
        stack: Client, niced_tournament_worker: Worker) -> None:
    """Tournament searches queue on their own queue and worker: a person's bot still answers
    while the tournament's backlog of searches waits."""
    def replies(count: int) -> list[float]:
        """Seconds from a person's accepted move to the bot's answer being readable."""
        created = stack.create({"game": "savanna", "seed": 1, "seats": [
            {"kind": "human"}, {"kind": "bot", "bot": {"kind": "random"}}]})
        token, match_id = created["tokens"][0]["token"], created["id"]
        rng, out = random.Random(1), []
        match = stack.match(match_id, token)
        while len(out) < count and match["status"] == "running":
            if 0 not in match["to_move"]:
                match = stack.match(match_id, token, version=match["version"], wait=30)
                continue
            moves = stack.call("GET", f"/v1/matches/{match_id}/moves", token).json()
            answer = stack.call("POST", f"/v1/matches/{match_id}/moves", token, json={
                "version": moves["version"], "move_id": rng.choice(moves["moves"])["id"]})
            accepted = time.perf_counter()
            if answer.status_code == 200 and 1 in answer.json()["to_move"]:
                match = stack.match(match_id, token, version=answer.json()["version"], wait=30)
                out.append(time.perf_counter() - accepted)
            else:  # the bot chose first (a simultaneous step): nothing to time
                match = stack.match(match_id, token)
        return out

    quiet = statistics.median(replies(10))
    heavy = create(stack, {"game": "savanna", "format": "round_robin", "concurrency": 8,
                           "seed": 8, "entrants": [
                               {"bot": {"kind": "ismcts", "simulations": n}}
                               for n in (1500, 2000, 2500, 3000)]})
    time.sleep(2)  # the tournament's searches fill both cores and its queue
    try:
        busy = replies(15)
        info = stack.call("GET", f"/v1/tournaments/{heavy['id']}").json()
        assert info["status"] == "running" and info["progress"]["done"] == 0
    finally:
        cancel = stack.call("POST", f"/v1/tournaments/{heavy['id']}/cancel",
                            heavy["owner_token"])
    assert cancel.status_code == 200 and cancel.json()["status"] == "cancelled"
    # Behind the tournament's queue each reply would wait for several searches of ~1 s.
    assert statistics.median(busy) < max(0.5, 5 * quiet), (quiet, busy)


def test_the_command_line_runs_a_tournament_and_prints_the_standings(stack: Client) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "evo_arena", "tournament", "--server", stack.base, "--game",
         "savanna", "--bot", "random", "--bot", "greedy", "--bot", "ismcts:8", "--seed", "6",
         "--concurrency", "6"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("tournament ") and "6 matches (seed 6)" in lines[0]
    assert "6/6 matches" in done.stdout and "finished" in lines
    table = lines[lines.index("finished") + 1:]
    assert table[0].split()[:3] == ["#", "entrant", "points"]
    assert sorted(row[5:29].strip() for row in table[1:]) == ["greedy", "ismcts sims8",
                                                               "random"]
    assert sum(float(row[30:37]) for row in table[1:]) == pytest.approx(6.0)  # 6 matches


def test_pods_rotate_the_seats_of_each_deal(stack: Client) -> None:
    created = create(stack, {"game": "savanna", "format": "pods", "seats": 3, "deals": 2,
                             "seed": 12, "concurrency": 6, "entrants": [
                                 {"bot": {"kind": "random"}}, {"bot": {"kind": "greedy"}},
                                 {"bot": {"kind": "random"}, "name": "random 2"},
                                 {"bot": {"kind": "ismcts", "simulations": 5}}]})
    final = wait_over(stack, created["id"])
    assert final["status"] == "finished"
    rows = export(stack, created["id"])
    assert len(rows) == 6
    for deal in (0, 1):
        group = [r for r in rows if r["deal"] == deal]
        seatings = [[s["entrant"] for s in r["seats"]] for r in group]
        assert len({r["seed"] for r in group}) == 1 and len({frozenset(s) for s in seatings}) == 1
        for seat in range(3):  # each entrant of the deal sits once in each position
            assert sorted(s[seat] for s in seatings) == sorted(seatings[0])


def sealed_twin_checks(client: Client, tournament_id: str, match_ids: list[str], key: str
                       ) -> None:
    """Nothing read of the matches of a deal not yet over carries the deal (issue 39)."""
    for match_id in match_ids:
        for token in (None, key):  # a spectator; the entrant (finished: no view either)
            shown = client.match(match_id, token)
            assert shown["seed"] is None, shown
            if token is None or shown["status"] == "finished":
                assert shown["view"] is None
            assert shown["sealed"] is True
        log = client.call("GET", f"/v1/matches/{match_id}/events").json()
        assert log["redacted"] is True
        assert all(e["events"] == [] and "move" not in e for e in log["events"])
        if client.match(match_id)["status"] == "finished":
            stream = client.call("GET", f"/v1/matches/{match_id}/stream",
                                 params={"since": 0}).text
            assert '"move"' not in stream and '"type"' not in stream
    listed = client.call("GET", f"/v1/tournaments/{tournament_id}/matches").json()["matches"]
    assert [m["seed"] for m in listed] == [None, None]
    assert [row["seed"] for row in export(client, tournament_id)] == [None, None]


def wait_started(client: Client, tournament_id: str, slots: list[int]) -> None:
    """Wait until the worker's scheduler has started the matches of ``slots``: listed as
    running and readable. The scheduler notes a match's id before it creates the match (a
    scheduler that dies between the two creates it again), so a slot is listed as running a
    moment before its match can be read."""
    deadline = time.monotonic() + 30

    def started(row: dict[str, Any]) -> bool:
        return row["status"] == "running" and client.call(
            "GET", f"/v1/matches/{row['match']}").status_code == 200

    while not all(started(client.call("GET", f"/v1/tournaments/{tournament_id}/matches")
                          .json()["matches"][slot]) for slot in slots):
        assert time.monotonic() < deadline, f"slots {slots} did not start"
        time.sleep(0.2)


def play_turns(client: Client, key: str, match_id: str) -> None:
    """Play the account's turns in ``match_id`` (the first legal move) until it is over."""
    deadline = time.monotonic() + 60
    while client.match(match_id)["status"] == "running":
        assert time.monotonic() < deadline, "the match did not end"
        for turn in client.call("GET", "/v1/me/turns", key, params={"wait": 2}).json()["turns"]:
            if turn["match"] == match_id:
                client.call("POST", f"/v1/matches/{match_id}/moves", key, json={
                    "version": turn["version"], "move_id": turn["moves"][0]["id"]})


def test_duplicate_play_with_concurrency_1_shows_no_seed_of_the_running_twin(
        stack: Client) -> None:
    """The first match of a deal over, the second running: before issue 39 the first showed
    its seed (and complete log), which deals the second's hands."""
    puller = account(stack, "Twin puller")
    created = create(stack, {"game": "savanna", "format": "round_robin", "move_deadline": 60,
                             "concurrency": 1, "entrants": [
                                 {"account": puller["id"]}, {"bot": {"kind": "random"}}]},
                     puller)
    tid = created["id"]
    first, second = f"{tid}-0", f"{tid}-1"
    wait_started(stack, tid, [0])
    play_turns(stack, puller["key"], first)
    wait_started(stack, tid, [1])
    assert stack.match(first)["status"] == "finished"
    sealed_twin_checks(stack, tid, [first, second], puller["key"])
    play_turns(stack, puller["key"], second)
    assert wait_over(stack, tid)["status"] == "finished"
    shown = [stack.match(match_id) for match_id in (first, second)]
    assert shown[0]["seed"] == shown[1]["seed"] is not None  # one deal, now revealed
    for match in shown:
        assert match["sealed"] is False and match["view"] is not None
        assert match["seed_commitment"] == hashlib.sha256(
            f"evo-arena:{match['id']}:{match['seed']}".encode()).hexdigest()
        log = stack.call("GET", f"/v1/matches/{match['id']}/events").json()
        assert log["redacted"] is False and any("move" in e for e in log["events"])
    assert [row["seed"] for row in export(stack, tid)] == [shown[0]["seed"]] * 2


def test_duplicate_play_with_concurrency_2_then_cancelled_reports_aborted(
        stack: Client) -> None:
    """Both matches of the deal run at once: a spectator of either sees no card. Cancelled,
    they are `aborted` in the list, the export and the progress (before: `running`)."""
    puller = account(stack, "Twin puller 2")
    created = create(stack, {"game": "savanna", "format": "round_robin", "move_deadline": 60,
                             "concurrency": 2, "entrants": [
                                 {"account": puller["id"]}, {"bot": {"kind": "random"}}]},
                     puller)
    tid = created["id"]
    twins = [f"{tid}-0", f"{tid}-1"]
    wait_started(stack, tid, [0, 1])
    deadline = time.monotonic() + 30
    while any(stack.match(match_id)["version"] < 3 for match_id in twins):
        assert time.monotonic() < deadline, "the twins did not get under way"
        for turn in stack.call("GET", "/v1/me/turns", puller["key"],
                               params={"wait": 1}).json()["turns"]:
            stack.call("POST", f"/v1/matches/{turn['match']}/moves", puller["key"], json={
                "version": turn["version"], "move_id": turn["moves"][0]["id"]})
    sealed_twin_checks(stack, tid, twins, puller["key"])
    cancel = stack.call("POST", f"/v1/tournaments/{tid}/cancel", created["owner_token"])
    assert cancel.status_code == 200, cancel.text
    progress = cancel.json()["progress"]
    assert progress["running"] == 0 and progress["aborted"] == 2
    listed = stack.call("GET", f"/v1/tournaments/{tid}/matches").json()["matches"]
    assert [m["status"] for m in listed] == ["aborted", "aborted"]
    assert [row["status"] for row in export(stack, tid)] == ["aborted", "aborted"]
    table = list(csv.DictReader(io.StringIO(stack.call(
        "GET", f"/v1/tournaments/{tid}/results", params={"format": "csv"}).text)))
    assert [row["status"] for row in table] == ["aborted", "aborted"]
    assert all(row["seed"] for row in table)  # every match over: the deal is shown
    for match_id in twins:
        shown = stack.match(match_id)
        assert shown["status"] == "aborted" and shown["sealed"] is False
        assert isinstance(shown["seed"], int)
