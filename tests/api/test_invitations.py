"""Nobody acts for an account without its key: a match or tournament that names an account
without its key invites it, and waits; the account accepts or declines with its key (over the
API or its pull paths); a decline or an unanswered invitation aborts it, and nothing of it is
rated; an account always plays under its own name (issue 39's stranger's seat and rename)."""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api import create_app
from shared.bots import deadlines
from shared.infra.config import Settings
from shared.matches.service import MatchService
from shared.tournaments.service import TournamentService
from tests.api.test_openapi import _first_open_sse_events, check


@pytest.fixture(scope="module")
def app(redis_url: str) -> Flask:
    settings = dataclasses.replace(
        Settings.from_env(), redis_url=redis_url, broker_url=redis_url, matches_per_minute=0,
        joins_per_minute=0, moves_per_minute=0, bot_seats_per_client=0,
        accounts_per_minute=0, tournaments_per_minute=0, tournaments_per_client=0)
    return create_app(settings)


@pytest.fixture
def client(app: Flask) -> Iterator[FlaskClient]:
    with app.test_client() as test_client:
        yield test_client


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def account(client: FlaskClient, name: str) -> dict[str, Any]:
    created = client.post("/v1/accounts", json={"name": name})
    assert created.status_code == 201, created.get_json()
    return created.get_json()  # type: ignore[no-any-return]


def exploit(client: FlaskClient, stranger: dict[str, Any], victim: dict[str, Any]
            ) -> dict[str, Any]:
    """The stranger's rated match naming the victim, with a 0.2 s deadline (issue 39)."""
    created = client.post("/v1/matches", headers=bearer(stranger["key"]), json={
        "game": "savanna", "rated": True, "move_deadline": 0.2, "seats": [
            {"kind": "account", "account": stranger["id"]},
            {"kind": "account", "account": victim["id"]}]})
    return check(created, "/v1/matches", "POST")  # type: ignore[no-any-return]


def services(app: Flask) -> tuple[MatchService, TournamentService]:
    return app.extensions["evo.service"], app.extensions["evo.tournaments"]


def leaderboard(client: FlaskClient) -> dict[str, dict[str, Any]]:
    rows = client.get("/v1/games/savanna/leaderboard?limit=1000").get_json()["leaderboard"]
    return {row["player"]: row for row in rows}


def play_out(client: FlaskClient, match_id: str, keys: list[str]) -> dict[str, Any]:
    """Play the first legal move of whichever seat owes one until the match ends."""
    for _ in range(500):
        match = client.get(f"/v1/matches/{match_id}").get_json()
        if match["status"] != "running":
            return match  # type: ignore[no-any-return]
        seat = match["to_move"][0]
        legal = client.get(f"/v1/matches/{match_id}/moves", headers=bearer(keys[seat]))
        moves = legal.get_json()
        answer = client.post(f"/v1/matches/{match_id}/moves", headers=bearer(keys[seat]),
                             json={"version": moves["version"],
                                   "move_id": moves["moves"][0]["id"]})
        assert answer.status_code in (200, 409), answer.get_json()
    raise AssertionError("the match did not end")


def test_a_strangers_rated_match_naming_a_victim_waits_and_rates_nobody(
        app: Flask, client: FlaskClient) -> None:
    stranger, victim = account(client, "Stranger"), account(client, "Victim")
    match = exploit(client, stranger, victim)
    assert match["status"] == "waiting"
    assert match["seats"][1] == {"seat": 1, "kind": "account", "name": "Victim",
                                 "account": victim["id"], "joined": False, "invited": True}
    assert match["seats"][0]["joined"] is True and "invited" not in match["seats"][0]
    # No move is accepted, no turn handed out, no clock runs while it waits.
    legal = client.get(f"/v1/matches/{match['id']}/moves", headers=bearer(stranger["key"]))
    assert legal.get_json()["moves"] == []
    moved = client.post(f"/v1/matches/{match['id']}/moves", headers=bearer(stranger["key"]),
                        json={"version": 1, "move_id": "pick:acacia"})
    assert moved.status_code == 409 and "invited" in moved.get_json()["detail"]
    assert client.get("/v1/me/turns", headers=bearer(victim["key"])).get_json()["turns"] == []
    matches, _ = services(app)
    deadlines.sweep(matches, 3600, now=time.time() + 30)  # far past any move deadline
    assert client.get(f"/v1/matches/{match['id']}").get_json()["version"] == 1
    # Unanswered, the invitation expires: the match is aborted, with the reason in its log.
    deadlines.sweep(matches, 3600, now=time.time() + matches.invitation_ttl + 1)
    over = client.get(f"/v1/matches/{match['id']}").get_json()
    assert over["status"] == "aborted" and over["result"] is None
    events = client.get(f"/v1/matches/{match['id']}/events").get_json()["events"]
    (aborted,) = [e for entry in events for e in entry["events"] if e["type"] == "aborted"]
    assert aborted["accounts"] == [victim["id"]] and "expired" in aborted["reason"]
    assert f"account:{victim['id']}" not in leaderboard(client)
    assert client.get("/v1/me/invitations",
                      headers=bearer(victim["key"])).get_json() == {"invitations": []}


def test_the_invited_account_sees_accepts_and_the_match_plays_and_is_rated(
        app: Flask, client: FlaskClient) -> None:
    stranger, victim = account(client, "Host"), account(client, "Guest")
    match = exploit(client, stranger, victim)
    listed = check(client.get("/v1/me/invitations", headers=bearer(victim["key"])),
                   "/v1/me/invitations", "GET")["invitations"]
    invitation = {"id": f"match-{match['id']}", "kind": "match", "match": match["id"],
                  "game": "savanna", "rated": True, "move_deadline": 0.2,
                  "time_control": None, "seats": [1], "players": match["seats"],
                  "created_at": match["created_at"],
                  "expires_at": match["created_at"] + services(app)[0].invitation_ttl}
    # Who it would play with, the challenger by name: what a person decides on.
    assert [(p["name"], p.get("invited", False)) for p in invitation["players"]] == [
        ("Host", False), ("Guest", True)]
    assert listed == [invitation]
    # The pull paths carry it too: the turns answer and the stream.
    turns = check(client.get("/v1/me/turns", headers=bearer(victim["key"])), "/v1/me/turns",
                  "GET")
    assert turns == {"turns": [], "invitations": [invitation]}
    blocks = _first_open_sse_events(client, "/v1/me/stream", 3, bearer(victim["key"]))
    assert "event: invitations" in blocks[2]
    assert json.loads(blocks[2].split("data: ", 1)[1]) == {"invitations": [invitation]}
    # The stranger cannot answer for the victim; nobody without a key can.
    path = f"/v1/me/invitations/match-{match['id']}/accept"
    assert client.post(path, headers=bearer(stranger["key"])).status_code == 404
    assert client.post(path).status_code == 401
    answer = check(client.post(path, headers=bearer(victim["key"])),
                   "/v1/me/invitations/{invitation_id}/accept", "POST")
    assert answer == {"invitation": invitation, "answer": "accepted", "status": "running"}
    started = client.get(f"/v1/matches/{match['id']}").get_json()
    assert started["status"] == "running" and started["seats"][1]["joined"] is True
    assert "invited" not in started["seats"][1] and started["deadline_at"] is not None
    assert client.get("/v1/me/invitations",
                      headers=bearer(victim["key"])).get_json() == {"invitations": []}
    assert client.post(path, headers=bearer(victim["key"])).status_code == 404  # answered
    over = play_out(client, match["id"], [stranger["key"], victim["key"]])
    assert over["status"] == "finished"
    _, tournaments = services(app)
    tournaments.match_finished(match["id"])  # what the worker's task does at the end
    board = leaderboard(client)
    assert board[f"account:{victim['id']}"]["matches"] == 1
    assert board[f"account:{victim['id']}"]["name"] == "Guest"


def test_a_challenge_on_a_clock_says_so(client: FlaskClient) -> None:
    """A person accepting a challenge is told the clock it is played on."""
    challenger, challenged = account(client, "Clocked"), account(client, "Asked")
    blitz = {"kind": "realtime", "base": 300, "increment": 3}
    created = client.post("/v1/matches", headers=bearer(challenger["key"]), json={
        "game": "savanna", "time_control": blitz, "seats": [
            {"kind": "account", "account": challenger["id"]},
            {"kind": "account", "account": challenged["id"]}]})
    assert created.status_code == 201, created.get_json()
    listed = check(client.get("/v1/me/invitations", headers=bearer(challenged["key"])),
                   "/v1/me/invitations", "GET")["invitations"]
    assert [i["time_control"] for i in listed] == [created.get_json()["time_control"]]
    assert listed[0]["time_control"]["base"] == 300
    assert listed[0]["time_control"]["increment"] == 3


def test_a_decline_aborts_the_match(client: FlaskClient) -> None:
    stranger, victim = account(client, "Asker"), account(client, "Decliner")
    match = exploit(client, stranger, victim)
    answer = check(client.post(f"/v1/me/invitations/match-{match['id']}/decline",
                               headers=bearer(victim["key"])),
                   "/v1/me/invitations/{invitation_id}/decline", "POST")
    assert answer["answer"] == "declined" and answer["status"] == "aborted"
    over = client.get(f"/v1/matches/{match['id']}").get_json()
    assert over["status"] == "aborted"
    events = client.get(f"/v1/matches/{match['id']}/events").get_json()["events"]
    reasons = [e["reason"] for entry in events for e in entry["events"] if e["type"] == "aborted"]
    assert reasons == [f"account {victim['id']} declined the invitation"]
    moved = client.post(f"/v1/matches/{match['id']}/moves", headers=bearer(stranger["key"]),
                        json={"version": over["version"], "move_id": "pick:acacia"})
    assert moved.status_code == 409
    again = client.post(f"/v1/me/invitations/match-{match['id']}/accept",
                        headers=bearer(victim["key"]))
    assert again.status_code == 404  # answered: no longer the account's invitation


def test_a_match_waits_for_every_invited_account_and_its_open_seats(
        client: FlaskClient) -> None:
    """Two invited accounts and an open seat: a joiner never takes an invited seat, and the
    match starts only when the last of them is in."""
    first, second = account(client, "First"), account(client, "Second")
    match = client.post("/v1/matches", json={"game": "savanna", "seats": [
        {"kind": "account", "account": first["id"]}, {"kind": "open"},
        {"kind": "account", "account": second["id"]}]}).get_json()
    assert match["status"] == "waiting"
    listed = client.get("/v1/matches?status=waiting").get_json()["matches"]
    assert next(m for m in listed if m["id"] == match["id"])["open_seats"] == [1]
    refused = client.post(f"/v1/matches/{match['id']}/join", json={"seat": 2})
    assert refused.status_code == 409
    joined = client.post(f"/v1/matches/{match['id']}/join", json={}).get_json()
    assert joined["seat"] == 1 and joined["match"]["status"] == "waiting"
    assert client.post(f"/v1/matches/{match['id']}/join", json={}).status_code == 409
    for who, status in ((first, "waiting"), (second, "running")):
        answer = client.post(f"/v1/me/invitations/match-{match['id']}/accept",
                             headers=bearer(who["key"]))
        assert answer.get_json()["status"] == status


def test_an_account_seat_or_entrant_never_renames_the_account(
        app: Flask, client: FlaskClient) -> None:
    victim = account(client, "Original")
    renamed = client.post("/v1/matches", headers=bearer(victim["key"]), json={
        "game": "savanna", "seats": [
            {"kind": "account", "account": victim["id"], "name": "renamed by a stranger"},
            {"kind": "human"}]})
    assert renamed.status_code == 422 and check(renamed, "/v1/matches", "POST")
    entrant = client.post("/v1/tournaments", json={
        "game": "savanna", "format": "round_robin", "entrants": [
            {"account": victim["id"], "name": "renamed by a stranger"},
            {"bot": {"kind": "random"}}]})
    assert entrant.status_code == 422 and check(entrant, "/v1/tournaments", "POST")
    # The service, whatever its caller, seats the account under the account's own name.
    matches, _ = services(app)
    record, _ = matches.create_match("savanna", {}, 1, [
        {"kind": "account", "account": victim["id"], "name": "renamed by a stranger"},
        {"kind": "human"}], accepted=[victim["id"]])
    assert record.seats[0]["name"] == "Original"


def tournament(client: FlaskClient, victim: dict[str, Any],
               headers: dict[str, str] | None = None) -> dict[str, Any]:
    created = client.post("/v1/tournaments", headers=headers or {}, json={
        "game": "savanna", "format": "round_robin", "move_deadline": 0.2, "entrants": [
            {"account": victim["id"]}, {"bot": {"kind": "random"}}]})
    return check(created, "/v1/tournaments", "POST")  # type: ignore[no-any-return]


def test_a_tournament_naming_an_account_waits_for_it(app: Flask, client: FlaskClient) -> None:
    victim = account(client, "Entrant")
    created = tournament(client, victim)
    assert created["status"] == "waiting" and created["seed"] is None
    assert created["entrants"][0]["invited"] is True and created["entrants"][0]["name"] == \
        "Entrant"
    _, tournaments = services(app)
    tournaments.tick(created["id"])  # the scheduler starts nothing while it waits
    planned = client.get(f"/v1/tournaments/{created['id']}/matches").get_json()["matches"]
    assert {m["status"] for m in planned} == {"planned"} and all(m["match"] is None
                                                                 for m in planned)
    (invitation,) = client.get("/v1/me/invitations",
                               headers=bearer(victim["key"])).get_json()["invitations"]
    assert invitation["id"] == f"tournament-{created['id']}"
    assert invitation["entrants"] == [0] and invitation["kind"] == "tournament"
    answer = client.post(f"/v1/me/invitations/tournament-{created['id']}/accept",
                         headers=bearer(victim["key"]))
    assert answer.status_code == 200 and answer.get_json()["status"] == "running"
    tournaments.tick(created["id"])  # the worker's tick task (sent by the accept)
    after = client.get(f"/v1/tournaments/{created['id']}/matches").get_json()["matches"]
    started = [m["match"] for m in after if m["match"] is not None]
    assert started  # and the entrant, having accepted the tournament, is seated in them
    for match_id in started:
        match = client.get(f"/v1/matches/{match_id}").get_json()
        assert match["status"] == "running" and all(s["joined"] for s in match["seats"])
    # Created with the account's key: entered at once, nothing to accept.
    own = tournament(client, victim, bearer(victim["key"]))
    assert own["status"] == "running" and "invited" not in own["entrants"][0]


def test_a_declined_or_unanswered_tournament_is_aborted(app: Flask, client: FlaskClient
                                                         ) -> None:
    victim = account(client, "Busy")
    declined = tournament(client, victim)
    answer = client.post(f"/v1/me/invitations/tournament-{declined['id']}/decline",
                         headers=bearer(victim["key"]))
    assert answer.status_code == 200 and answer.get_json()["status"] == "aborted"
    shown = client.get(f"/v1/tournaments/{declined['id']}").get_json()
    assert shown["status"] == "aborted" and "declined" in shown["note"]
    unanswered = tournament(client, victim)
    _, tournaments = services(app)
    assert tournaments.expire_invitations(time.time() + 30) == 0  # not yet
    assert tournaments.expire_invitations(time.time() + tournaments.invitation_ttl + 1) >= 1
    shown = client.get(f"/v1/tournaments/{unanswered['id']}").get_json()
    assert shown["status"] == "aborted" and "expired" in shown["note"]
    late = client.post(f"/v1/me/invitations/tournament-{unanswered['id']}/accept",
                       headers=bearer(victim["key"]))
    assert late.status_code in (404, 409)
    assert client.get("/v1/me/invitations",
                      headers=bearer(victim["key"])).get_json() == {"invitations": []}


def test_the_tournament_listing_shows_waiting_and_aborted_ones(client: FlaskClient) -> None:
    """The listing's contract names every status a tournament has (a fuzzer found a waiting
    one listed against a schema that knew only running, finished and cancelled)."""
    invited = account(client, "Listed entrant")
    waiting = tournament(client, invited)
    aborted = tournament(client, invited)
    client.post(f"/v1/me/invitations/tournament-{aborted['id']}/decline",
                headers=bearer(invited["key"]))
    for status, expected in (("waiting", waiting), ("aborted", aborted)):
        listed = check(client.get(f"/v1/tournaments?status={status}&limit=100"),
                       "/v1/tournaments", "GET")
        assert expected["id"] in [t["id"] for t in listed["tournaments"]]
        assert {t["status"] for t in listed["tournaments"]} == {status}
