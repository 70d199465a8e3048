"""Resigning and abandoning (issue 40): ``POST /v1/matches/{id}/resign`` and the idle limit of
a person's seat (``shared.matches.resignation``), on the real Redis with the Flask client.

The fallback bot's turns are played here by the worker's own function (``play_bot_turn``)
in-process: these tests run no worker (tests/integration/test_resign_http.py does)."""

from __future__ import annotations

import dataclasses
import random
import time
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api import create_app
from shared.bots import deadlines
from shared.bots.turns import play_bot_turn
from shared.infra.config import Settings
from shared.matches.service import MatchService
from tests.api.test_errors import assert_problem
from tests.api.test_openapi import check

RESIGN = "/v1/matches/{match_id}/resign"
#: Each game's rules reference records what a resignation does (docs/rules/<game>.md).
TWO_PLAYERS = [pytest.param("savanna", marks=pytest.mark.rule("S-5.1")),
               pytest.param("evolution", marks=pytest.mark.rule("E-8.1")),
               pytest.param("darwinning", marks=pytest.mark.rule("D-15.1")),
               pytest.param("evolution-ns", marks=pytest.mark.rule("N-7.1"))]
MORE_PLAYERS = [pytest.param("savanna", marks=pytest.mark.rule("S-5.2")),
                pytest.param("evolution", marks=pytest.mark.rule("E-8.2")),
                pytest.param("darwinning", marks=pytest.mark.rule("D-15.2")),
                pytest.param("evolution-ns", marks=pytest.mark.rule("N-7.2"))]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: FlaskClient, game: str, seats: list[dict[str, Any]],
           address: str = "192.0.2.1", **extra: Any) -> dict[str, Any]:
    created = client.post("/v1/matches", json={"game": game, "seats": seats, **extra},
                          environ_base={"REMOTE_ADDR": address})
    assert created.status_code == 201, created.get_data(as_text=True)
    return created.get_json()  # type: ignore[no-any-return]


def tokens(match: dict[str, Any]) -> dict[int, str]:
    return {t["seat"]: t["token"] for t in match["tokens"]}


def resign(client: FlaskClient, match_id: str, token: str | None) -> Any:
    response = client.post(f"/v1/matches/{match_id}/resign",
                           headers=bearer(token) if token else {})
    check(response, RESIGN, "POST")
    return response


def service(app: Flask) -> MatchService:
    found: MatchService = app.extensions["evo.service"]
    return found


def play_out(app: Flask, client: FlaskClient, match_id: str, keys: dict[int, str],
             seed: int = 1) -> dict[str, Any]:
    """Play the match to its end: random legal moves for the seats in ``keys``, the worker's
    bot turn (the fallback for a seat that left) for the others."""
    rng = random.Random(seed)
    for _ in range(5000):
        match = client.get(f"/v1/matches/{match_id}").get_json()
        if match["status"] != "running":
            return match  # type: ignore[no-any-return]
        seat = match["to_move"][0]
        if seat in keys and seat not in match["forfeited"]:
            legal = client.get(f"/v1/matches/{match_id}/moves",
                               headers=bearer(keys[seat])).get_json()
            moved = client.post(f"/v1/matches/{match_id}/moves", headers=bearer(keys[seat]),
                                json={"version": legal["version"],
                                      "move_id": rng.choice(legal["moves"])["id"]})
            assert moved.status_code == 200, moved.get_data(as_text=True)
        else:
            play_bot_turn(service(app), match_id, seat, match["version"], 5.0)
    raise AssertionError("the match did not end")


def test_only_a_seat_of_the_match_may_resign(client: FlaskClient) -> None:
    match = create(client, "savanna", [{"kind": "human"}, {"kind": "human"}])
    other = create(client, "savanna", [{"kind": "human"}, {"kind": "human"}])
    assert_problem(resign(client, match["id"], None), 401)
    assert_problem(resign(client, match["id"], tokens(other)[0]), 403)  # another match's seat
    assert_problem(resign(client, "0123456789abcdef", tokens(match)[0]), 404)
    stranger = client.post("/v1/accounts", json={"name": f"resign-{time.time_ns()}"})
    assert_problem(resign(client, match["id"], stranger.get_json()["key"]), 403)
    after = client.get(f"/v1/matches/{match['id']}").get_json()
    assert (after["status"], after["resigned"], after["version"]) == ("running", [], 1)


def test_a_waiting_match_has_nothing_to_resign(client: FlaskClient) -> None:
    match = create(client, "savanna", [{"kind": "human"}, {"kind": "open"}])
    assert_problem(resign(client, match["id"], tokens(match)[0]), 409, mentions="not started")


@pytest.mark.parametrize("game", TWO_PLAYERS)
def test_resigning_a_two_player_match_ends_it_with_the_resigner_last(
        client: FlaskClient, game: str) -> None:
    match = create(client, game, [{"kind": "human"}, {"kind": "human"}])
    keys = tokens(match)
    answer = resign(client, match["id"], keys[1])
    assert answer.status_code == 200, answer.get_data(as_text=True)
    ended = answer.get_json()
    assert (ended["status"], ended["you"], ended["resigned"]) == ("finished", 1, [1])
    assert ended["result"]["ranking"] == [1, 2] and ended["result"]["winners"] == [0]
    assert ended["result"]["details"] == {"ended_by": "resignation", "resigned": [1]}
    assert ended["seed"] is not None  # over: the seed is revealed
    log = client.get(f"/v1/matches/{match['id']}/events").get_json()["events"]
    assert log[-1]["events"] == [
        {"type": "resigned", "seat": 1, "reason": "resigned", "ends_match": True}]
    # Once over, neither seat can resign (nor move): a 409, and nothing changes.
    for seat in (0, 1):
        assert_problem(resign(client, match["id"], keys[seat]), 409, mentions="over")
    assert client.get(f"/v1/matches/{match['id']}").get_json()["version"] == ended["version"]


@pytest.mark.parametrize("game", MORE_PLAYERS)
def test_with_three_players_the_match_goes_on_and_the_resigner_ranks_last(
        app: Flask, client: FlaskClient, game: str) -> None:
    match = create(client, game, [{"kind": "human"}] * 3, seed=7)
    keys = tokens(match)
    answer = resign(client, match["id"], keys[0])
    assert answer.status_code == 200, answer.get_data(as_text=True)
    going = answer.get_json()
    assert (going["status"], going["resigned"], going["forfeited"]) == ("running", [0], [0])
    assert_problem(resign(client, match["id"], keys[0]), 409, mentions="already left")
    # The resigned seat is the server's to play now: its person is offered no move and
    # may make none.
    moves = client.get(f"/v1/matches/{match['id']}/moves", headers=bearer(keys[0]))
    assert moves.get_json()["moves"] == []
    legal = service(app).legal_moves(dataclasses.replace(
        service(app).load(match["id"]), resigned=[]), 0) or [{"id": "x"}]
    refused = client.post(f"/v1/matches/{match['id']}/moves", headers=bearer(keys[0]),
                          json={"version": going["version"], "move_id": legal[0]["id"]})
    assert_problem(refused, 409, mentions="has left")
    final = play_out(app, client, match["id"], {1: keys[1], 2: keys[2]})
    assert final["status"] == "finished" and final["resigned"] == [0]
    assert final["result"]["ranking"][0] == 3 and 0 not in final["result"]["winners"]
    assert final["result"]["details"]["resigned"] == [0]
    assert sorted(final["result"]["ranking"][1:])[0] == 1
    log = client.get(f"/v1/matches/{match['id']}/events").get_json()["events"]
    fallback = [e for e in log if e.get("seat") == 0 and "move" in e]
    assert fallback and all(e["bot"]["kind"] == "random" for e in fallback)


def test_a_match_left_to_bots_alone_ends_at_once(client: FlaskClient) -> None:
    match = create(client, "savanna", [{"kind": "bot", "bot": {"kind": "random"}},
                                       {"kind": "human"}, {"kind": "human"},
                                       {"kind": "bot", "bot": {"kind": "random"}}])
    keys = tokens(match)
    assert resign(client, match["id"], keys[1]).get_json()["status"] == "running"
    ended = resign(client, match["id"], keys[2]).get_json()
    assert (ended["status"], ended["resigned"]) == ("finished", [1, 2])
    assert ended["result"]["ranking"] == [1, 3, 3, 1] and ended["result"]["winners"] == [0, 3]


def test_a_resigned_account_seat_is_offered_no_more_turns(client: FlaskClient) -> None:
    bot = client.post("/v1/accounts", json={"name": f"quitter-{time.time_ns()}"}).get_json()
    match = client.post("/v1/matches", headers=bearer(bot["key"]), json={
        "game": "savanna", "seats": [{"kind": "account", "account": bot["id"]},
                                     {"kind": "human"}, {"kind": "human"}]}).get_json()
    turns = client.get("/v1/me/turns", headers=bearer(bot["key"])).get_json()["turns"]
    assert [t["match"] for t in turns] == [match["id"]]
    left = resign(client, match["id"], bot["key"])  # the account's key holds the seat
    assert left.get_json()["resigned"] == [0] and left.get_json()["status"] == "running"
    assert client.get("/v1/me/turns", headers=bearer(bot["key"])).get_json()["turns"] == []


def test_a_rated_resignation_is_a_loss_rated_once(app: Flask, client: FlaskClient) -> None:
    players = [client.post("/v1/accounts", json={"name": f"{n}-{time.time_ns()}"}).get_json()
               for n in ("stays", "quits")]
    match = client.post("/v1/matches", headers=bearer(players[0]["key"]), json={
        "game": "savanna", "rated": True, "seats": [
            {"kind": "account", "account": p["id"]} for p in players]}).get_json()
    accepted = client.post(f"/v1/me/invitations/match-{match['id']}/accept",
                           headers=bearer(players[1]["key"]))
    assert accepted.status_code == 200, accepted.get_data(as_text=True)
    ended = resign(client, match["id"], players[1]["key"]).get_json()
    assert ended["status"] == "finished" and ended["result"]["winners"] == [0]
    tournaments = app.extensions["evo.tournaments"]
    for _ in range(2):  # the fast path and the sweep may both run it: rated once
        tournaments.match_finished(match["id"])
    keys = [f"account:{p['id']}" for p in players]
    found = tournaments.ratings.ratings("savanna", keys)
    assert [found[k]["matches"] for k in keys] == [1, 1]
    assert found[keys[0]]["mu"] > found[keys[1]]["mu"]


def idle_app(redis_url: str, **settings: Any) -> Flask:
    off = dict(matches_per_minute=0, joins_per_minute=0, moves_per_minute=0,
               bot_seats_per_client=0)
    return create_app(dataclasses.replace(Settings.from_env(), redis_url=redis_url,
                                          broker_url=redis_url, **{**off, **settings}))


def test_an_idle_person_is_abandoned_by_the_deadline_sweep(redis_url: str) -> None:
    app = idle_app(redis_url, human_idle_seconds=30.0)
    client = app.test_client()
    match = create(client, "savanna", [{"kind": "human"}] * 3)
    record = service(app).load(match["id"])
    assert record.idle_after == 30.0 and record.due_at() is not None
    keys = tokens(match)
    legal = client.get(f"/v1/matches/{match['id']}/moves", headers=bearer(keys[1])).get_json()
    client.post(f"/v1/matches/{match['id']}/moves", headers=bearer(keys[1]),
                json={"version": legal["version"], "move_id": legal["moves"][0]["id"]})
    # Not yet idle: nothing happens.
    deadlines.sweep(service(app), 3600, now=time.time() + 10)
    assert client.get(f"/v1/matches/{match['id']}").get_json()["resigned"] == []
    # Seats 0 and 2 owe their picks since the start; seat 1 moved, and owes nothing.
    deadlines.sweep(service(app), 3600, now=time.time() + 31)
    after = client.get(f"/v1/matches/{match['id']}").get_json()
    assert after["resigned"] == [0, 2] and after["status"] == "finished"
    assert after["result"]["winners"] == [1]
    log = client.get(f"/v1/matches/{match['id']}/events").get_json()["events"]
    assert [e["events"][0]["reason"] for e in log[-2:]] == ["idle", "idle"]


def test_abandoned_matches_leave_the_bot_seat_cap(redis_url: str) -> None:
    """A developer who abandons four matches against a bot is not locked out (issue 40)."""
    app = idle_app(redis_url, bot_seats_per_client=4, human_idle_seconds=30.0)
    client = app.test_client()
    seats = [{"kind": "human"}, {"kind": "bot", "bot": {"kind": "random"}}]
    address = f"198.51.100.{time.time_ns() % 200}"
    made = [create(client, "savanna", seats, address) for _ in range(4)]
    refused = client.post("/v1/matches", json={"game": "savanna", "seats": seats},
                          environ_base={"REMOTE_ADDR": address})
    assert refused.status_code == 429
    for match in made[:2]:  # two resigned,
        assert resign(client, match["id"], tokens(match)[0]).get_json()["status"] == "finished"
    deadlines.sweep(service(app), 3600, now=time.time() + 31)  # two left idle
    for match in made:
        assert client.get(f"/v1/matches/{match['id']}").get_json()["status"] == "finished"
    for _ in range(4):
        create(client, "savanna", seats, address)  # accepted: 201
