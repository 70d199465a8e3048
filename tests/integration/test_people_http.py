"""People play a rated match with their access tokens over HTTP, the real worker rates it,
and they have what bots have: a rating, a history, a rating page, and the match in their
list of matches with its result; the people's leaderboard lists them and not the bot account
that played with them."""

from __future__ import annotations

import random
import secrets
import time

import pytest

from tests.integration.conftest import Client, Worker

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("integration")]


def test_people_play_a_rated_match_and_are_rated(client: Client, worker: Worker) -> None:
    people = [client.call("POST", "/v1/people", json={
        "name": f"{name} {secrets.token_hex(3)}", "password": "correct horse battery"}).json()
        for name in ("Ada", "Bob")]
    bot = client.call("POST", "/v1/accounts", json={"name": f"Bot {secrets.token_hex(3)}"}
                      ).json()
    tokens = [people[0]["access_token"], people[1]["access_token"], bot["key"]]
    ids = [people[0]["account"]["id"], people[1]["account"]["id"], bot["id"]]
    created = client.call("POST", "/v1/matches", tokens[0], json={
        "game": "savanna", "rated": True, "seed": 11,
        "seats": [{"kind": "account", "account": account} for account in ids]})
    assert created.status_code == 201, created.text
    match_id = created.json()["id"]
    for token in tokens[1:]:
        accepted = client.call("POST", f"/v1/me/invitations/match-{match_id}/accept", token)
        assert accepted.status_code == 200, accepted.text
    rng, answer = random.Random(11), client.match(match_id)
    while answer["status"] == "running":
        token = tokens[answer["to_move"][0]]
        legal = client.call("GET", f"/v1/matches/{match_id}/moves", token).json()
        posted = client.call("POST", f"/v1/matches/{match_id}/moves", token, json={
            "version": legal["version"], "move_id": rng.choice(legal["moves"])["id"]})
        assert posted.status_code == 200, posted.text
        answer = posted.json()
    assert answer["status"] == "finished"
    players = [f"account:{account}" for account in ids]
    deadline = time.monotonic() + 60
    while True:  # the worker rates the match once it has ended
        board = client.call("GET", "/v1/games/savanna/leaderboard?limit=1000").json()
        if {row["player"] for row in board["leaderboard"]} >= set(players):
            break
        assert time.monotonic() < deadline, "the match was never rated"
        time.sleep(0.3)
    people_board = client.call("GET", "/v1/games/savanna/leaderboard/people?limit=1000")
    assert people_board.status_code == 200, people_board.text
    listed = [row["player"] for row in people_board.json()["leaderboard"]]
    assert set(players[:2]) <= set(listed) and players[2] not in listed
    assert [row["rank"] for row in people_board.json()["leaderboard"]] == list(
        range(1, len(listed) + 1))
    for player, person in zip(players, people, strict=False):
        history = client.call("GET", f"/v1/games/savanna/ratings/{player}/history").json()
        assert history["rating"]["matches"] == 1
        assert history["name"] == person["account"]["name"]
        assert client.call("GET", f"/ratings/savanna/{player}").status_code == 200
        mine = client.call("GET", "/v1/me/matches", person["access_token"]).json()
        (finished,) = [m for m in mine["finished"] if m["id"] == match_id]
        assert finished["status"] == "finished" and finished["result"] is not None
        assert mine["live"] == []
