"""Time control on the API (``shared.matches.clocks``), on the real Redis with the Flask
client: ``time_control`` validated on ``POST /v1/matches``, the clocks shown in the match
resource, a late real-time move refused, and the deadline sweep (called directly, at a
chosen time) resigning a seat out of time or giving a turn-based seat the fallback move.
The real worker's sweep is in tests/integration/test_clocks_http.py."""

from __future__ import annotations

import time
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from shared.bots import deadlines
from shared.matches.service import MatchService
from tests.api.test_errors import assert_problem
from tests.api.test_openapi import check

HUMANS = [{"kind": "human"}, {"kind": "human"}]
REALTIME = {"kind": "realtime", "base": 60, "increment": 2}
LATER = 3600.0


def service(app: Flask) -> MatchService:
    found: MatchService = app.extensions["evo.service"]
    return found


def create(client: FlaskClient, **extra: Any) -> Any:
    response = client.post("/v1/matches", json={"game": "savanna", "seed": 3,
                                                "seats": HUMANS, **extra})
    check(response, "/v1/matches", "POST")
    return response


def tokens(match: dict[str, Any]) -> dict[int, str]:
    return {t["seat"]: t["token"] for t in match["tokens"]}


def move(client: FlaskClient, match: dict[str, Any], seat: int) -> Any:
    token = tokens(match)[seat]
    header = {"Authorization": f"Bearer {token}"}
    legal = client.get(f"/v1/matches/{match['id']}/moves", headers=header).get_json()
    return client.post(f"/v1/matches/{match['id']}/moves", headers=header, json={
        "version": legal["version"], "move_id": legal["moves"][0]["id"]})


@pytest.mark.parametrize(("time_control", "mentions"), [
    ({"kind": "blitz", "base": 60}, "kind"),
    ({"kind": "realtime"}, "base"),
    ({"kind": "realtime", "base": 0.5}, "base"),
    ({"kind": "realtime", "base": 86401}, "base"),
    ({"kind": "realtime", "base": 60, "increment": -1}, "increment"),
    ({"kind": "realtime", "base": 60, "increment": 3601}, "increment"),
    ({"kind": "realtime", "base": "60"}, "base"),
    ({"kind": "realtime", "base": 60, "per_move": 60}, "per_move"),
    ({"kind": "turn_based"}, "per_move"),
    ({"kind": "turn_based", "per_move": 0}, "per_move"),
    ({"kind": "turn_based", "per_move": 31 * 86400}, "per_move"),
    ({"kind": "turn_based", "per_move": 3600, "resign_after": 0}, "resign_after"),
    ({"kind": "turn_based", "per_move": 3600, "resign_after": 1.5}, "resign_after"),
    ({"kind": "turn_based", "per_move": 3600, "base": 60}, "base"),
    ({"kind": "turn_based", "per_move": 3600, "extra": 1}, "extra"),
    ("fast", "time_control"),
])
def test_a_bad_time_control_is_a_422(client: FlaskClient, time_control: Any,
                                     mentions: str) -> None:
    assert_problem(create(client, time_control=time_control), 422, mentions=mentions)


def test_time_control_and_move_deadline_exclude_each_other(client: FlaskClient) -> None:
    assert_problem(create(client, time_control=REALTIME, move_deadline=5), 422,
                   mentions="move_deadline")


def test_the_resource_shows_each_seats_clock(app: Flask, client: FlaskClient) -> None:
    match = create(client, time_control=REALTIME).get_json()
    assert match["time_control"] == {"kind": "realtime", "base": 60.0, "increment": 2.0}
    assert match["to_move"] == [0, 1]  # a simultaneous step: both clocks run
    assert [(c["seat"], c["running"]) for c in match["clocks"]] == [(0, True), (1, True)]
    # The match's first deadline (as "my matches" and "your turn" name it) is the clocks'.
    assert match["deadline_at"] == pytest.approx(min(c["deadline"] for c in match["clocks"]))
    for shown in match["clocks"]:
        assert shown["deadline"] == pytest.approx(match["server_time"] + shown["remaining"],
                                                  abs=0.01)
        assert 59 < shown["remaining"] <= 60
    assert move(client, match, 1).status_code == 200
    read = client.get(f"/v1/matches/{match['id']}")
    check(read, "/v1/matches/{match_id}", "GET")
    after = {c["seat"]: c for c in read.get_json()["clocks"]}
    assert after[0]["running"]
    if not after[1]["running"]:  # waits for seat 0's pick: stopped, with its increment
        assert after[1]["deadline"] is None and 61 < after[1]["remaining"] <= 62
    # The idle limit is off: the clock keeps the seats moving.
    assert service(app).load(match["id"]).idle_after is None


def test_no_time_control_shows_no_clocks(client: FlaskClient) -> None:
    match = create(client).get_json()
    assert match["time_control"] is None and match["clocks"] == []
    assert match["server_time"] is None  # the answer does not depend on the time


def test_a_realtime_seat_out_of_time_cannot_move_and_is_resigned(
        app: Flask, client: FlaskClient) -> None:
    match = create(client, time_control={"kind": "realtime", "base": 1}).get_json()
    assert move(client, match, 1).status_code == 200
    time.sleep(1.1)
    late = move(client, match, 0)
    check(late, "/v1/matches/{match_id}/moves", "POST")
    assert_problem(late, 409, mentions="clock has run out")
    assert deadlines.sweep(service(app), LATER) == 0  # a resignation, not a fallback move
    final = client.get(f"/v1/matches/{match['id']}").get_json()
    assert final["status"] == "finished" and final["resigned"] == [0]
    assert final["result"]["winners"] == [1]


def test_a_turn_based_timeout_plays_the_fallback_then_resigns(
        app: Flask, client: FlaskClient) -> None:
    match = create(client, time_control={"kind": "turn_based", "per_move": 3600}).get_json()
    assert move(client, match, 1).status_code == 200
    # Not due yet: nothing happens before the hour is up.
    assert deadlines.sweep(service(app), LATER, now=time.time() + 3500) == 0
    assert service(app).store.log(match["id"])[-1]["seat"] == 1
    # A sweep an hour on sees every move owed since before then overdue, one at a time:
    # seat 0 gets two fallback moves, and its third timeout in a row (the default
    # resign_after) resigns it, which ends a two-seat match.
    deadlines.sweep(service(app), LATER, now=time.time() + 3601)
    log = service(app).store.log(match["id"])
    fallbacks = [e for e in log if e.get("seat") == 0 and "move" in e]
    assert [e["timeout"] for e in fallbacks] == [{"reason": "clock"}] * 2
    assert log[-1]["events"] == [{"type": "resigned", "seat": 0, "reason": "timeout",
                                  "ends_match": True}]
    final = service(app).load(match["id"])
    assert final.resigned == [0] and final.status == "finished"
    assert final.result is not None and final.result["winners"] == [1]
