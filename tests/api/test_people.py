"""Accounts for people: sign up and in with a name and a password, an access token that acts
as the account wherever a key does, refresh tokens that rotate (a reuse ends the session),
sign-out, sign-out everywhere, a password change, sign-in rate limits, and my matches."""

from __future__ import annotations

import dataclasses
import random
import secrets
import time
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api import create_app
from shared.infra.config import Settings
from tests.api.test_openapi import check as documented

PASSWORD = "correct horse battery"


def make_app(redis_url: str, **changes: Any) -> Flask:
    settings = dataclasses.replace(
        Settings.from_env(), redis_url=redis_url, broker_url=redis_url, matches_per_minute=0,
        joins_per_minute=0, moves_per_minute=0, bot_seats_per_client=0,
        accounts_per_minute=0, signins_per_name_per_minute=0,
        signins_per_address_per_minute=0, **changes)
    return create_app(settings)


@pytest.fixture(scope="module")
def app(redis_url: str) -> Flask:
    return make_app(redis_url, person_access_seconds=2.0)


@pytest.fixture
def client(app: Flask) -> Iterator[FlaskClient]:
    with app.test_client() as test_client:
        yield test_client


def check(response: Any, path: str, method: str, status: int = 200) -> Any:
    """The body of ``response``, which must have ``status`` and be as the contract says."""
    assert response.status_code == status, (status, response.get_data(as_text=True))
    return documented(response, path, method)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def fresh(prefix: str = "Person") -> str:
    return f"{prefix} {secrets.token_hex(4)}"


def sign_up(client: FlaskClient, name: str | None = None) -> dict[str, Any]:
    answer = client.post("/v1/people", json={"name": name or fresh(), "password": PASSWORD})
    return check(answer, "/v1/people", "POST", 201)  # type: ignore[no-any-return]


def sign_in(client: FlaskClient, name: str, password: str = PASSWORD) -> Any:
    return client.post("/v1/sessions", json={"name": name, "password": password})


def test_sign_up_signs_in_and_the_name_is_unique(client: FlaskClient) -> None:
    person = sign_up(client)
    me = check(client.get("/v1/me", headers=bearer(person["access_token"])), "/v1/me", "GET")
    assert me == {**person["account"], "kind": "person"}
    assert "password" not in me
    for name in (person["account"]["name"], person["account"]["name"].upper()):
        taken = client.post("/v1/people", json={"name": name, "password": PASSWORD})
        assert check(taken, "/v1/people", "POST", 409)["field"] == "name"
    bot = client.post("/v1/accounts", json={"name": fresh("Bot")}).get_json()
    assert bot["kind"] == "bot"
    assert client.post("/v1/people", json={"name": bot["name"], "password": PASSWORD}
                       ).status_code == 409
    short = client.post("/v1/people", json={"name": fresh(), "password": "short"})
    assert check(short, "/v1/people", "POST", 422)["field"] == "password"


def test_sign_in_needs_the_right_password(client: FlaskClient) -> None:
    person = sign_up(client)
    name = person["account"]["name"]
    good = check(sign_in(client, name.lower()), "/v1/sessions", "POST", 201)
    assert good["account"]["id"] == person["account"]["id"]
    assert good["access_token"] != person["access_token"]
    assert client.get("/v1/me", headers=bearer(good["access_token"])).status_code == 200
    bad = sign_in(client, name, PASSWORD + "!")
    unknown = sign_in(client, fresh("Nobody"))
    bot = client.post("/v1/accounts", json={"name": fresh("Bot")}).get_json()
    for answer in (bad, unknown, sign_in(client, bot["name"])):
        assert check(answer, "/v1/sessions", "POST", 401)["detail"] == bad.get_json()["detail"]


def play_a_move(client: FlaskClient, match_id: str, token: str) -> dict[str, Any]:
    moves = client.get(f"/v1/matches/{match_id}/moves", headers=bearer(token)).get_json()
    assert moves["moves"], moves
    answer = client.post(f"/v1/matches/{match_id}/moves", headers=bearer(token), json={
        "version": moves["version"], "move_id": moves["moves"][0]["id"]})
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()  # type: ignore[no-any-return]


def test_the_access_token_acts_as_the_account(client: FlaskClient) -> None:
    person = sign_up(client)
    token, account_id = person["access_token"], person["account"]["id"]
    created = client.post("/v1/matches", headers=bearer(token), json={
        "game": "darwinning", "seed": 3, "seats": [
            {"kind": "account", "account": account_id}, {"kind": "human"}]})
    assert created.status_code == 201, created.get_json()
    match = created.get_json()
    assert match["status"] == "running" and match["seats"][0]["joined"]
    human = match["tokens"][0]["token"]
    # Whoever owes the first move plays it; then the person owes one (its turns say so).
    for _ in range(20):
        turns = client.get("/v1/me/turns", headers=bearer(token)).get_json()["turns"]
        if turns:
            break
        play_a_move(client, match["id"], human)
    assert turns and turns[0]["match"] == match["id"]
    before = client.get(f"/v1/matches/{match['id']}").get_json()["version"]
    assert play_a_move(client, match["id"], token)["version"] > before
    # A stranger's token is no seat of it; the person's own view is a seat's.
    other = sign_up(client)
    assert client.get(f"/v1/matches/{match['id']}/moves",
                      headers=bearer(other["access_token"])).status_code == 403
    assert client.get(f"/v1/matches/{match['id']}",
                      headers=bearer(token)).get_json()["you"] == 0


@pytest.mark.slow  # waits out real TTLs or deadlines (in `make test`, not test-fast)
def test_the_access_token_expires_and_a_refresh_brings_a_new_one(client: FlaskClient) -> None:
    person = sign_up(client)
    assert person["expires_in"] == 2
    time.sleep(2.2)
    assert client.get("/v1/me", headers=bearer(person["access_token"])).status_code == 401
    renewed = client.post("/v1/sessions/refresh",
                          json={"refresh_token": person["refresh_token"]})
    pair = check(renewed, "/v1/sessions/refresh", "POST")
    assert pair["refresh_token"] != person["refresh_token"]
    assert pair["session"] == person["session"]
    assert client.get("/v1/me", headers=bearer(pair["access_token"])).status_code == 200


def test_a_reused_refresh_token_ends_its_session(client: FlaskClient) -> None:
    person = sign_up(client)
    other = check(sign_in(client, person["account"]["name"]), "/v1/sessions", "POST", 201)
    first = client.post("/v1/sessions/refresh",
                        json={"refresh_token": person["refresh_token"]}).get_json()
    second = client.post("/v1/sessions/refresh",
                         json={"refresh_token": first["refresh_token"]}).get_json()
    assert client.get("/v1/me", headers=bearer(second["access_token"])).status_code == 200
    # The spent first token shown again (a thief's copy): the whole family ends.
    reused = client.post("/v1/sessions/refresh", json={"refresh_token": person["refresh_token"]})
    assert "used already" in check(reused, "/v1/sessions/refresh", "POST", 401)["detail"]
    for token in (second["access_token"], first["access_token"]):
        assert client.get("/v1/me", headers=bearer(token)).status_code == 401
    assert client.post("/v1/sessions/refresh", json={
        "refresh_token": second["refresh_token"]}).status_code == 401
    # The account's other session is untouched.
    assert client.get("/v1/me", headers=bearer(other["access_token"])).status_code == 200
    assert client.post("/v1/sessions/refresh", json={
        "refresh_token": other["refresh_token"]}).status_code == 200


def test_sign_out_ends_this_session_and_everywhere_ends_all(client: FlaskClient) -> None:
    person = sign_up(client)
    name = person["account"]["name"]
    second = sign_in(client, name).get_json()
    third = sign_in(client, name).get_json()
    listed = check(client.get("/v1/me/sessions", headers=bearer(second["access_token"])),
                   "/v1/me/sessions", "GET")
    assert len(listed["sessions"]) == 3
    out = client.delete("/v1/sessions/current", headers=bearer(person["access_token"]))
    assert out.status_code == 204
    assert client.get("/v1/me", headers=bearer(person["access_token"])).status_code == 401
    assert client.post("/v1/sessions/refresh", json={
        "refresh_token": person["refresh_token"]}).status_code == 401
    assert client.get("/v1/me", headers=bearer(second["access_token"])).status_code == 200
    assert client.delete("/v1/me/sessions",
                         headers=bearer(second["access_token"])).status_code == 204
    for pair in (second, third):
        assert client.get("/v1/me", headers=bearer(pair["access_token"])).status_code == 401
        assert client.post("/v1/sessions/refresh", json={
            "refresh_token": pair["refresh_token"]}).status_code == 401
    # A bot's key is no session: signing it out is a 409 (it is revoked by name instead).
    bot = client.post("/v1/accounts", json={"name": fresh("Bot")}).get_json()
    assert check(client.delete("/v1/sessions/current", headers=bearer(bot["key"])),
                 "/v1/sessions/current", "DELETE", 409)


def test_a_password_change_ends_every_session(client: FlaskClient) -> None:
    person = sign_up(client)
    name, token = person["account"]["name"], person["access_token"]
    other = sign_in(client, name).get_json()
    wrong = client.post("/v1/me/password", headers=bearer(token), json={
        "current_password": "not it at all", "new_password": "a new one, longer"})
    assert check(wrong, "/v1/me/password", "POST", 401)
    changed = client.post("/v1/me/password", headers=bearer(token), json={
        "current_password": PASSWORD, "new_password": "a new one, longer"})
    pair = check(changed, "/v1/me/password", "POST")
    for old in (token, other["access_token"]):
        assert client.get("/v1/me", headers=bearer(old)).status_code == 401
    assert client.get("/v1/me", headers=bearer(pair["access_token"])).status_code == 200
    assert sign_in(client, name).status_code == 401
    assert sign_in(client, name, "a new one, longer").status_code == 201


@pytest.mark.parametrize("per", ["name", "address"])
def test_sign_in_attempts_are_limited_per_name_and_per_address(redis_url: str,
                                                               per: str) -> None:
    limits = {"signins_per_name_per_minute": 3 if per == "name" else 100,
              "signins_per_address_per_minute": 3 if per == "address" else 100}
    limited = dataclasses.replace(Settings.from_env(), redis_url=redis_url,
                                  broker_url=redis_url, accounts_per_minute=0, **limits)
    # Not at a minute's end: the four attempts must fall in one window.
    while time.time() % 60 > 55:
        time.sleep(1)
    with create_app(limited).test_client() as client:
        name = sign_up(client)["account"]["name"]
        other = sign_up(client)["account"]["name"]
        addresses = [f"10.9.{random.randrange(256)}.{i}" for i in range(4)]
        for attempt in range(3):
            # Per name: from a new address each time, a wrong password (it counts too).
            env = {"REMOTE_ADDR": addresses[attempt] if per == "name" else "10.8.0.1"}
            answer = client.post("/v1/sessions", environ_base=env, json={
                "name": name if per == "name" else fresh("Nobody"),
                "password": "wrong password"})
            assert answer.status_code == 401
        env = {"REMOTE_ADDR": addresses[3] if per == "name" else "10.8.0.1"}
        refused = client.post("/v1/sessions", environ_base=env,
                              json={"name": name, "password": PASSWORD})
        assert check(refused, "/v1/sessions", "POST", 429)
        assert 1 <= int(refused.headers["Retry-After"]) <= 60
        assert per in refused.get_json()["detail"].replace("per address", "address")
        # Another name from another address still signs in.
        assert client.post("/v1/sessions", environ_base={"REMOTE_ADDR": "10.7.0.1"},
                           json={"name": other, "password": PASSWORD}).status_code == 201


def test_my_matches_lists_live_and_finished_ones(client: FlaskClient) -> None:
    person = sign_up(client)
    token, account_id = person["access_token"], person["account"]["id"]
    live = client.post("/v1/matches", headers=bearer(token), json={
        "game": "savanna", "seed": 1, "seats": [
            {"kind": "account", "account": account_id}, {"kind": "human"}]}).get_json()
    declined = []
    for _ in range(3):  # invitations the person declines: each match ends aborted
        invited = client.post("/v1/matches", json={"game": "savanna", "seats": [
            {"kind": "human"}, {"kind": "account", "account": account_id}]}).get_json()
        answer = client.post(f"/v1/me/invitations/match-{invited['id']}/decline",
                             headers=bearer(token))
        assert answer.status_code == 200, answer.get_json()
        declined.append(invited["id"])
    first = check(client.get("/v1/me/matches?limit=2", headers=bearer(token)),
                  "/v1/me/matches", "GET")
    (mine,) = first["live"]
    assert mine["id"] == live["id"] and mine["status"] == "running"
    assert mine["your_seats"] == [0] and mine["your_turn"] == (0 in live["to_move"])
    assert mine["whose_turn"] == [live["seats"][s]["name"] for s in live["to_move"]]
    assert mine["deadline_at"] == live["deadline_at"]
    assert [m["id"] for m in first["finished"]] == declined[::-1][:2]
    assert all(m["status"] == "aborted" and not m["live"] for m in first["finished"])
    assert first["next"] is not None
    rest = client.get(f"/v1/me/matches?limit=2&before={first['next']}",
                      headers=bearer(token)).get_json()
    assert [m["id"] for m in rest["finished"]] == declined[:1]
    assert rest["next"] is None
    assert client.get("/v1/me/matches").status_code == 401


def test_a_person_joining_an_open_seat_takes_it_as_their_own(client: FlaskClient) -> None:
    """An open seat joined with a person's access token is the account's seat: it carries the
    person's name, the match is among their matches, its turns are theirs to be told of and
    the access token plays it. Joined without a key, it stays a seat of whoever holds its
    token (as before)."""
    person = sign_up(client)
    token, account = person["access_token"], person["account"]
    created = client.post("/v1/matches", json={"game": "savanna", "seed": 4, "seats": [
        {"kind": "human", "name": "Host"}, {"kind": "open"}]}).get_json()
    match_id = created["id"]
    path = f"/v1/matches/{match_id}/join"
    named = client.post(path, headers=bearer(token), json={"name": "Alias"})
    assert check(named, "/v1/matches/{match_id}/join", "POST", 422)["field"] == "name"
    not_a_key = client.post(path, headers=bearer("no-such-key"), json={})
    check(not_a_key, "/v1/matches/{match_id}/join", "POST", 401)
    joined = check(client.post(path, headers=bearer(token), json={}),
                   "/v1/matches/{match_id}/join", "POST", 201)
    seat = joined["match"]["seats"][1]
    assert joined["seat"] == 1 and joined["match"]["status"] == "running"
    assert (seat["kind"], seat["account"], seat["name"]) == ("account", account["id"],
                                                              account["name"])
    mine = client.get("/v1/me/matches", headers=bearer(token)).get_json()
    assert [(m["id"], m["your_seats"]) for m in mine["live"]] == [(match_id, [1])]
    host = created["tokens"][0]["token"]
    for _ in range(10):  # the host moves until the person owes a move
        if 1 in client.get(f"/v1/matches/{match_id}").get_json()["to_move"]:
            break
        play_a_move(client, match_id, host)
    turns = client.get("/v1/me/turns", headers=bearer(token)).get_json()["turns"]
    assert [(t["match"], t["seat"]) for t in turns] == [(match_id, 1)]
    play_a_move(client, match_id, token)
    # Without a key the seat is the token holder's alone, named as the request says.
    other = client.post("/v1/matches", json={"game": "savanna", "seats": [
        {"kind": "human"}, {"kind": "open"}]}).get_json()
    plain = client.post(f"/v1/matches/{other['id']}/join", json={"name": "Guest"}).get_json()
    assert plain["match"]["seats"][1]["kind"] == "open"
    assert plain["match"]["seats"][1]["name"] == "Guest"
    assert "account" not in plain["match"]["seats"][1]


def test_an_unknown_name_takes_as_long_as_a_wrong_password(client: FlaskClient) -> None:
    """Every sign-in verifies an Argon2 hash (a dummy one for a name no person holds), so
    its time does not tell whether the name exists (medians of five against each other).
    Timed as this process's CPU time: the app runs in it, and the other processes of a
    busy machine stretch wall-clock time unevenly (a fresh-clone run measured 0.11 s against
    0.24 s by the clock)."""
    name = sign_up(client)["account"]["name"]

    def median(who: str) -> float:
        took = []
        for _ in range(5):
            started = time.process_time()
            assert sign_in(client, who, "wrong password").status_code == 401
            took.append(time.process_time() - started)
        return sorted(took)[2]

    known, unknown = median(name), median(fresh("Nobody"))
    assert unknown > 0.5 * known, (unknown, known)


def test_deleting_a_person_ends_its_sessions_and_frees_its_name(client: FlaskClient) -> None:
    person = sign_up(client)
    name = person["account"]["name"]
    other = sign_in(client, name).get_json()
    assert client.delete("/v1/me", headers=bearer(person["access_token"])).status_code == 204
    for pair in (person, other):
        # /v1/me/turns reads no account data: only the token's own entry refuses it.
        assert client.get("/v1/me/turns", headers=bearer(pair["access_token"])
                          ).status_code == 401
        assert client.post("/v1/sessions/refresh", json={
            "refresh_token": pair["refresh_token"]}).status_code == 401
    assert sign_in(client, name).status_code == 401
    assert sign_up(client, name)["account"]["id"] != person["account"]["id"]


def test_a_person_mints_no_api_key(client: FlaskClient) -> None:
    """A key would outlive sign-out everywhere and a password change (a thief's way in)."""
    person = sign_up(client)
    minted = client.post("/v1/me/keys", headers=bearer(person["access_token"]),
                         json={"name": "forever"})
    assert check(minted, "/v1/me/keys", "POST", 409)
    assert client.get("/v1/me/keys", headers=bearer(person["access_token"])
                      ).get_json() == {"keys": []}
