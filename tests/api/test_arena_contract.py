"""The contract of the account, tournament and leaderboard routes against real responses
(Flask's test client on a real Redis; no worker runs, so tournaments stay at their start)."""

from __future__ import annotations

import csv
import dataclasses
import io
import json

from flask import Flask
from flask.testing import FlaskClient

from api import create_app
from shared.infra.config import Settings
from tests.api.test_openapi import MATCH, _first_open_sse_events, check, component

T = "/v1/tournaments/{tournament_id}"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_accounts_and_their_turns_follow_the_contract(client: FlaskClient) -> None:
    created = client.post("/v1/accounts", json={"name": "Bender"})
    account = check(created, "/v1/accounts", "POST")
    assert created.status_code == 201 and account["webhook"] is None
    key = account.pop("key")
    assert account.pop("webhook_secret").startswith("whsec_")  # shown once: not by /v1/me
    assert check(client.get("/v1/me", headers=bearer(key)), "/v1/me", "GET") == account
    for headers in ({}, bearer("evk_nobody")):
        response = client.get("/v1/me", headers=headers)
        assert response.status_code == 401
        check(response, "/v1/me", "GET")
    assert check(client.get("/v1/me/turns?wait=0.1", headers=bearer(key)), "/v1/me/turns",
                 "GET") == {"turns": [], "invitations": []}
    bad = client.get("/v1/me/turns?wait=soon", headers=bearer(key))
    assert bad.status_code == 422
    check(bad, "/v1/me/turns", "GET")
    refused = client.post("/v1/accounts", json={"name": "X", "webhook": "http://10.0.0.1/x"})
    assert refused.status_code == 422 and check(refused, "/v1/accounts", "POST")["field"] == \
        "webhook"

    # A match with the account's seat and a deadline, created with its key (so the seat is
    # taken, not an invitation): the key reads and plays that seat.
    match = check(client.post("/v1/matches", headers=bearer(key), json={
        "game": "savanna", "seed": 1, "move_deadline": 30, "seats": [
            {"kind": "account", "account": account["id"]}, {"kind": "human"}]}),
        "/v1/matches", "POST")
    assert match["seats"][0] == {"seat": 0, "kind": "account", "name": "Bender",
                                 "account": account["id"], "joined": True}
    assert match["move_deadline"] == 30 and match["deadline_at"] is not None
    turns = check(client.get("/v1/me/turns", headers=bearer(key)), "/v1/me/turns", "GET")
    assert turns["turns"][0]["match"] == match["id"] and turns["turns"][0]["seat"] == 0
    blocks = _first_open_sse_events(client, "/v1/me/stream", 2, bearer(key))
    data = json.loads(blocks[1].split("data: ", 1)[1])
    component("Turns").validate(data)
    assert data == turns
    moves = check(client.get(f"/v1/matches/{match['id']}/moves", headers=bearer(key)),
                  MATCH + "/moves", "GET")
    assert moves["seat"] == 0 and moves["moves"]
    # The turn carries the seat's view and the legal moves the moves route lists: a bot
    # answers it with one POST, quoting the turn's version.
    turn = turns["turns"][0]
    assert turn["moves"] == moves["moves"] and turn["version"] == moves["version"]
    assert turn["view"] == check(client.get(f"/v1/matches/{match['id']}", headers=bearer(key)),
                                 MATCH, "GET")["view"]
    played = client.post(f"/v1/matches/{match['id']}/moves", headers=bearer(key),
                         json={"version": turn["version"], "move_id": turn["moves"][0]["id"]})
    assert check(played, MATCH + "/moves", "POST")["applied_at"] == turn["version"]
    assert check(client.get("/v1/me/turns", headers=bearer(key)), "/v1/me/turns",
                 "GET") == {"turns": [], "invitations": []}  # answered: not handed out again
    for body in ({"kind": "account"}, {"kind": "human", "account": "x"}):
        wrong = client.post("/v1/matches", json={"game": "savanna", "seats": [body] * 2})
        assert wrong.status_code == 422
        check(wrong, "/v1/matches", "POST")


def test_tournaments_and_the_leaderboard_follow_the_contract(client: FlaskClient) -> None:
    body = {"game": "savanna", "format": "round_robin", "seed": 4, "entrants": [
        {"bot": {"kind": "random"}}, {"bot": {"kind": "ismcts", "simulations": 5}, "name": "S"}]}
    created = client.post("/v1/tournaments", json=body)
    tournament = check(created, "/v1/tournaments", "POST")
    tid = tournament["id"]
    assert created.headers["Location"] == f"/v1/tournaments/{tid}"
    assert tournament["progress"]["total"] == 2 and tournament["status"] == "running"
    assert [e["player"] for e in tournament["entrants"]] == ["bot:random",
                                                             "bot:ismcts:sims5"]
    shown = check(client.get(f"/v1/tournaments/{tid}"), T, "GET")
    assert "owner_token" not in shown and "owner_hash" not in json.dumps(shown)
    listed = check(client.get(f"/v1/tournaments/{tid}/matches"), T + "/matches", "GET")
    assert [m["status"] for m in listed["matches"]] == ["planned", "planned"]
    lines = check(client.get(f"/v1/tournaments/{tid}/results"), T + "/results", "GET")
    for line in lines.splitlines():
        component("TournamentMatch").validate(json.loads(line))
    rows = list(csv.DictReader(io.StringIO(check(
        client.get(f"/v1/tournaments/{tid}/results?format=csv"), T + "/results", "GET"))))
    assert [r["slot"] for r in rows] == ["0", "1"] and rows[0]["players"] == \
        "bot:random;bot:ismcts:sims5"
    blocks = _first_open_sse_events(client, f"/v1/tournaments/{tid}/stream", 2)
    component("TournamentProgress").validate(json.loads(blocks[1].split("data: ", 1)[1]))

    cancel = f"/v1/tournaments/{tid}/cancel"
    for headers, status in (({}, 401), (bearer("nope"), 403)):
        response = client.post(cancel, headers=headers)
        assert response.status_code == status
        check(response, T + "/cancel", "POST")
    done = check(client.post(cancel, headers=bearer(tournament["owner_token"])),
                 T + "/cancel", "POST")
    assert done["status"] == "cancelled"
    again = client.post(cancel, headers=bearer(tournament["owner_token"]))
    assert again.status_code == 409
    check(again, T + "/cancel", "POST")

    missing = client.get("/v1/tournaments/nope")
    assert missing.status_code == 404
    check(missing, T, "GET")
    for bad, field in (({**body, "format": "swiss", "seats": 3}, "format"),
                       ({**body, "format": "swiss", "rounds": 2}, "rounds"),
                       ({**body, "entrants": [{"account": "nobody"}] * 2}, "entrants"),
                       ({**body, "rounds": 1000, "entrants": [  # 12,000 matches
                           {"bot": {"kind": "ismcts", "simulations": n}} for n in range(1, 5)]},
                        "entrants"),
                       ({**body, "game": "nope"}, "game")):
        response = client.post("/v1/tournaments", json=bad)
        assert response.status_code == 422, bad
        assert check(response, "/v1/tournaments", "POST")["field"] == field
    invalid = client.post("/v1/tournaments", json={**body, "deals": 3})
    assert check(invalid, "/v1/tournaments", "POST")["errors"] == {
        "deals": ["'deals' is for pods; round robin and Swiss take 'rounds'"]}

    board = check(client.get("/v1/games/savanna/leaderboard?limit=5"),
                  "/v1/games/{game_id}/leaderboard", "GET")
    assert board["game"] == "savanna" and len(board["leaderboard"]) <= 5
    unknown = client.get("/v1/games/nope/leaderboard")
    assert unknown.status_code == 404
    check(unknown, "/v1/games/{game_id}/leaderboard", "GET")


def test_creating_accounts_and_tournaments_is_rate_limited(redis_url: str) -> None:
    settings = dataclasses.replace(Settings.from_env(), redis_url=redis_url,
                                   broker_url=redis_url, accounts_per_minute=2,
                                   tournaments_per_minute=1)
    app: Flask = create_app(settings)
    client = app.test_client()
    answers = [client.post("/v1/accounts", json={"name": f"n{i}"}, environ_base={
        "REMOTE_ADDR": "192.0.2.7"}) for i in range(3)]
    assert [a.status_code for a in answers] == [201, 201, 429]
    check(answers[2], "/v1/accounts", "POST")
    other = client.post("/v1/accounts", json={"name": "elsewhere"},
                        environ_base={"REMOTE_ADDR": "192.0.2.8"})
    assert other.status_code == 201  # the limit is per client address
    body = {"game": "savanna", "format": "round_robin", "entrants": [
        {"bot": {"kind": "random"}}, {"bot": {"kind": "greedy"}}]}
    first = client.post("/v1/tournaments", json=body, environ_base={"REMOTE_ADDR": "192.0.2.9"})
    second = client.post("/v1/tournaments", json=body,
                         environ_base={"REMOTE_ADDR": "192.0.2.9"})
    assert (first.status_code, second.status_code) == (201, 429)
    check(second, "/v1/tournaments", "POST")
