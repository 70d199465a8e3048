"""An account's lifecycle over HTTP (issue 39): named keys made, listed and revoked (refused at
once, by every API process), the name and webhook changed, names unique whatever their case
and free of control and format characters, and the account deleted (its name free, its live
seats forfeited, its leaderboard rows anonymised). Each answer is checked against the
contract."""

from __future__ import annotations

import dataclasses
import json
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from prometheus_client import REGISTRY

from api import create_app
from shared.accounts import store as account_store
from shared.accounts.lifecycle import DELETED_NAME
from shared.infra.config import Settings
from tests.api.test_errors import assert_problem
from tests.api.test_openapi import SPEC, check


def make_app(redis_url: str) -> Flask:
    settings = dataclasses.replace(Settings.from_env(), redis_url=redis_url,
                                   broker_url=redis_url, matches_per_minute=0,
                                   joins_per_minute=0, moves_per_minute=0,
                                   accounts_per_minute=0, bot_seats_per_client=0)
    return create_app(settings)


@pytest.fixture(scope="module")
def app(redis_url: str) -> Flask:
    return make_app(redis_url)


@pytest.fixture
def client(app: Flask) -> Iterator[FlaskClient]:
    with app.test_client() as test_client:
        yield test_client


def auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def unique(prefix: str) -> str:
    return f"{prefix} {uuid.uuid4().hex[:8]}"


def register(client: FlaskClient, name: str | None = None) -> dict[str, Any]:
    created = client.post("/v1/accounts", json={"name": name or unique("Bot")})
    account: dict[str, Any] = check(created, "/v1/accounts", "POST")
    assert created.status_code == 201, account
    return account


def test_a_rotated_key_is_refused_at_once_by_every_process(client: FlaskClient,
                                                           redis_url: str) -> None:
    account = register(client)
    old = account["key"]
    other = make_app(redis_url).test_client()  # a second API process: its own stores
    for api in (client, other):  # each process has seen the key (its account, its turns)
        assert api.get("/v1/me", headers=auth(old)).status_code == 200
        assert api.get("/v1/me/turns", headers=auth(old)).get_json() == {
            "turns": [], "invitations": []}
    listed = check(client.get("/v1/me/keys", headers=auth(old)), "/v1/me/keys", "GET")
    assert [row["name"] for row in listed["keys"]] == ["default"]
    made = client.post("/v1/me/keys", headers=auth(old), json={"name": "ci-2"})
    new = check(made, "/v1/me/keys", "POST")
    assert made.status_code == 201 and new["name"] == "ci-2" and new["key"] != old
    assert client.get("/v1/me", headers=auth(new["key"])).get_json()["id"] == account["id"]
    gone = client.delete("/v1/me/keys/default", headers=auth(new["key"]))
    assert gone.status_code == 204, gone.get_data(as_text=True)
    assert gone.get_data() == b"" and "204" in SPEC["paths"]["/v1/me/keys/{name}"]["delete"][
        "responses"]
    for api in (client, other):
        refused = api.get("/v1/me", headers=auth(old))
        assert_problem(refused, 401)
        assert_problem(api.get("/v1/me/turns", headers=auth(old)), 401)
        assert api.get("/v1/me", headers=auth(new["key"])).status_code == 200
    listed = client.get("/v1/me/keys", headers=auth(new["key"])).get_json()
    assert [row["name"] for row in listed["keys"]] == ["ci-2"]
    assert "key" not in listed["keys"][0]


def test_a_revoked_key_no_longer_plays_the_accounts_seat(client: FlaskClient,
                                                         redis_url: str) -> None:
    """The key checked with a match's read (no round trip of its own) is refused at once."""
    account = register(client)
    match = client.post("/v1/matches", json={"game": "savanna", "seats": [
        {"kind": "account", "account": account["id"]}, {"kind": "human"}]}).get_json()
    url = f"/v1/matches/{match['id']}/moves"
    other = make_app(redis_url).test_client()
    assert other.get(url, headers=auth(account["key"])).get_json()["seat"] == 0
    spare = client.post("/v1/me/keys", headers=auth(account["key"]),
                        json={"name": "spare"}).get_json()
    assert client.delete("/v1/me/keys/default", headers=auth(spare["key"])).status_code == 204
    assert_problem(other.get(url, headers=auth(account["key"])), 403)
    assert_problem(other.get(f"/v1/matches/{match['id']}", headers=auth(account["key"])), 403)
    assert other.get(url, headers=auth(spare["key"])).get_json()["seat"] == 0


def test_last_used_moves_when_a_key_is_used(client: FlaskClient,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    account = register(client)
    before = client.get("/v1/me/keys", headers=auth(account["key"])).get_json()["keys"][0]
    assert before["last_used"] is None  # within its first minute: not noted yet
    monkeypatch.setattr(account_store, "USED_EVERY", 0.0)  # note every use, not one a minute
    client.get("/v1/me/turns", headers=auth(account["key"]))
    after = client.get("/v1/me/keys", headers=auth(account["key"])).get_json()["keys"][0]
    assert after["last_used"] > before["created_at"]
    client.get("/v1/me", headers=auth(account["key"]))
    again = client.get("/v1/me/keys", headers=auth(account["key"])).get_json()["keys"][0]
    assert again["last_used"] > after["last_used"]
    assert again["created_at"] == before["created_at"]


def test_the_last_key_cannot_be_revoked_and_an_unknown_one_is_404(client: FlaskClient) -> None:
    account = register(client)
    last = client.delete("/v1/me/keys/default", headers=auth(account["key"]))
    assert_problem(last, 409, mentions="last key")
    check(last, "/v1/me/keys/{name}", "DELETE")
    assert client.get("/v1/me", headers=auth(account["key"])).status_code == 200
    missing = client.delete("/v1/me/keys/nope", headers=auth(account["key"]))
    assert_problem(missing, 404)
    check(missing, "/v1/me/keys/{name}", "DELETE")
    twice = client.post("/v1/me/keys", headers=auth(account["key"]), json={"name": "default"})
    assert_problem(twice, 409)
    bad = client.post("/v1/me/keys", headers=auth(account["key"]), json={"name": "a b"})
    assert_problem(bad, 422)
    assert_problem(client.get("/v1/me/keys"), 401)
    assert_problem(client.delete("/v1/me/keys/default", headers=auth("evk_nobody")), 401)


def test_names_are_unique_whatever_their_case(client: FlaskClient) -> None:
    name = unique("Bender")
    first = register(client, name)
    for other in (name.upper(), name.lower(), name.replace("B", "\uff22")):  # full-width B
        taken = client.post("/v1/accounts", json={"name": other})
        assert_problem(taken, 409, mentions="taken")
        check(taken, "/v1/accounts", "POST")
    second = register(client)
    renamed = client.patch("/v1/me", headers=auth(second["key"]), json={"name": name.swapcase()})
    assert_problem(renamed, 409, mentions="taken")
    check(renamed, "/v1/me", "PATCH")
    assert client.get("/v1/me", headers=auth(second["key"])).get_json()["name"] == second["name"]
    # The owner may change its own name's case; the old one is then not freed for others.
    own = client.patch("/v1/me", headers=auth(first["key"]), json={"name": name.upper()})
    assert check(own, "/v1/me", "PATCH")["name"] == name.upper()
    assert_problem(client.post("/v1/accounts", json={"name": name}), 409)


@pytest.mark.parametrize("name", ["evil\u202eman", "zero\u200bwidth", "bell\u0007", " lead",
                                  "trail ", "\u2066isolate\u2069", "soft\u00adhyphen"])
def test_control_format_and_padded_names_are_refused(client: FlaskClient, name: str) -> None:
    refused = client.post("/v1/accounts", json={"name": name})
    assert_problem(refused, 422)
    check(refused, "/v1/accounts", "POST")
    account = register(client)
    renamed = client.patch("/v1/me", headers=auth(account["key"]), json={"name": name})
    assert_problem(renamed, 422)
    check(renamed, "/v1/me", "PATCH")


def test_a_rename_frees_the_old_name(client: FlaskClient) -> None:
    old, new = unique("Old"), unique("New")
    account = register(client, old)
    renamed = client.patch("/v1/me", headers=auth(account["key"]), json={"name": new})
    assert check(renamed, "/v1/me", "PATCH")["name"] == new
    assert client.get("/v1/me", headers=auth(account["key"])).get_json()["name"] == new
    register(client, old)
    assert_problem(client.post("/v1/accounts", json={"name": new.lower()}), 409)


def test_the_webhook_is_changed_checked_and_removed(client: FlaskClient) -> None:
    account = register(client)
    key = auth(account["key"])
    hook = "https://93.184.215.14/bot"  # a public address, as text: never called here
    changed = client.patch("/v1/me", headers=key, json={"webhook": hook})
    assert check(changed, "/v1/me", "PATCH")["webhook"] == hook
    name = unique("Never")
    refused = client.patch("/v1/me", headers=key, json={"webhook": "http://127.0.0.1:6379/",
                                                        "name": name})
    assert_problem(refused, 422, mentions="non-public")
    assert check(refused, "/v1/me", "PATCH")["field"] == "webhook"
    now = client.get("/v1/me", headers=key).get_json()
    assert now["webhook"] == hook and now["name"] == account["name"]  # nothing half-applied
    register(client, name)  # the refused request did not claim the name either
    removed = client.patch("/v1/me", headers=key, json={"webhook": None})
    assert check(removed, "/v1/me", "PATCH")["webhook"] is None
    assert_problem(client.patch("/v1/me", headers=key, json={}), 422)
    assert_problem(client.patch("/v1/me", headers=key, json={"id": "x"}), 422)
    assert_problem(client.patch("/v1/me", json={"name": "x"}), 401)


def test_deleting_frees_the_name_revokes_keys_and_anonymises_the_leaderboard(
        app: Flask, client: FlaskClient) -> None:
    name = unique("Doomed")
    account = register(client, name)
    spare = client.post("/v1/me/keys", headers=auth(account["key"]),
                        json={"name": "spare"}).get_json()
    # A rated result, as the finish handling records it (the ratings' own store).
    ratings = app.extensions["evo.tournaments"].ratings
    ratings.rate_once("savanna", f"m-{account['id']}",
                      [(f"account:{account['id']}", name), ("bot:random", "random")],
                      lambda _current: [(27.5, 7.0), (22.5, 7.0)])
    board = client.get("/v1/games/savanna/leaderboard").get_json()["leaderboard"]
    (row,) = [r for r in board if r["player"] == f"account:{account['id']}"]
    assert row["name"] == name
    # A live match: the account's seat against a person.
    match = client.post("/v1/matches", headers=auth(account["key"]), json={
        "game": "savanna", "seats": [
            {"kind": "account", "account": account["id"]}, {"kind": "human"}]}).get_json()

    deleted = client.delete("/v1/me", headers=auth(account["key"]))
    assert deleted.status_code == 204, deleted.get_data(as_text=True)
    assert deleted.get_data() == b"" and "204" in SPEC["paths"]["/v1/me"]["delete"]["responses"]
    for key in (account["key"], spare["key"]):
        assert_problem(client.get("/v1/me", headers=auth(key)), 401)
        assert_problem(client.get(f"/v1/matches/{match['id']}/moves", headers=auth(key)), 403)
    board = client.get("/v1/games/savanna/leaderboard").get_json()["leaderboard"]
    (after,) = [r for r in board if r["player"] == f"account:{account['id']}"]
    assert after["name"] == DELETED_NAME
    assert {k: after[k] for k in ("mu", "sigma", "matches")} == {
        k: row[k] for k in ("mu", "sigma", "matches")}
    live = client.get(f"/v1/matches/{match['id']}").get_json()
    assert live["status"] == "running" and live["forfeited"] == [0]
    assert live["seats"][0]["name"] == DELETED_NAME
    events = client.get(f"/v1/matches/{match['id']}/events").get_json()["events"]
    assert {"type": "forfeit", "seat": 0, "reason": "account deleted"} in [
        e for entry in events for e in entry.get("events", [])]
    again = register(client, name.lower())  # the name is free
    assert again["id"] != account["id"]
    assert_problem(client.delete("/v1/me", headers=auth(account["key"])), 401)


def test_an_entrant_of_a_running_tournament_is_not_deleted(client: FlaskClient) -> None:
    account = register(client)
    created = client.post("/v1/tournaments", json={
        "game": "savanna", "format": "round_robin", "seats": 2,
        "entrants": [{"account": account["id"]}, {"bot": {"kind": "random"}}]})
    assert created.status_code == 201, created.get_data(as_text=True)
    tournament = created.get_json()
    refused = client.delete("/v1/me", headers=auth(account["key"]))
    assert_problem(refused, 409, mentions=tournament["id"])
    check(refused, "/v1/me", "DELETE")
    assert client.get("/v1/me", headers=auth(account["key"])).status_code == 200
    cancelled = client.post(f"/v1/tournaments/{tournament['id']}/cancel",
                            headers=auth(tournament["owner_token"]))
    assert cancelled.status_code == 200, cancelled.get_data(as_text=True)
    assert client.delete("/v1/me", headers=auth(account["key"])).status_code == 204


def test_deleting_anonymises_the_kept_records_of_ended_matches(
        app: Flask, client: FlaskClient, redis_client: Any) -> None:
    name = unique("Historic")
    account = register(client, name)
    match = client.post("/v1/matches", json={"game": "savanna", "seats": [
        {"kind": "account", "account": account["id"]}, {"kind": "human"}]}).get_json()
    matches = app.extensions["evo.service"]
    assert matches.abort(match["id"], "ended for the test")
    assert matches.kept_result(match["id"])["seats"][0]["name"] == name
    # The bot asks for its turns: the ended match leaves its set of running matches.
    assert client.get("/v1/me/turns", headers=auth(account["key"])).get_json()["turns"] == []
    result_key = f"evo:m:{{{match['id']}}}:result"
    before = redis_client.pttl(result_key)
    assert before > 0

    assert client.delete("/v1/me", headers=auth(account["key"])).status_code == 204
    shown = client.get(f"/v1/matches/{match['id']}").get_json()
    assert shown["status"] == "aborted" and shown["seats"][0]["name"] == DELETED_NAME
    assert matches.kept_result(match["id"])["seats"][0]["name"] == DELETED_NAME
    assert 0 < redis_client.pttl(result_key) <= before  # its time to live unchanged
    assert name not in json.dumps([redis_client.hgetall(f"evo:m:{{{match['id']}}}")])


def seat_later(app: Flask, account_id: str, delay: float) -> threading.Thread:
    """After ``delay`` seconds, a new match seats the account (which wakes its waiters)."""
    def run() -> None:
        time.sleep(delay)
        with app.test_client() as other:
            created = other.post("/v1/matches", json={"game": "savanna", "seats": [
                {"kind": "account", "account": account_id}, {"kind": "human"}]})
            assert created.status_code == 201

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def revoke_default(client: FlaskClient, key: str) -> None:
    spare = client.post("/v1/me/keys", headers=auth(key), json={"name": "spare"}).get_json()
    assert client.delete("/v1/me/keys/default", headers=auth(spare["key"])).status_code == 204


def waiting_now() -> float:
    """Long polls waiting in this process (the ``evo_waiting_clients`` gauge)."""
    return REGISTRY.get_sample_value("evo_waiting_clients") or 0.0


def test_a_long_poll_of_a_key_revoked_while_it_waits_gets_no_turns(
        app: Flask, client: FlaskClient) -> None:
    account = register(client)
    answers: list[Any] = []

    def poll() -> None:
        with app.test_client() as poller:
            answers.append(poller.get("/v1/me/turns?wait=10", headers=auth(account["key"])))

    before = waiting_now()
    waiter = threading.Thread(target=poll)
    waiter.start()
    deadline = time.monotonic() + 10  # waiting now (its key checked), not merely started
    while waiting_now() <= before:
        assert time.monotonic() < deadline, "the long poll never started waiting"
        time.sleep(0.02)
    revoke_default(client, account["key"])
    seat_later(app, account["id"], 0.0).join()
    waiter.join(timeout=15)
    (answer,) = answers
    assert_problem(answer, 401, mentions="revoked")
    check(answer, "/v1/me/turns", "GET")


def test_a_stream_of_a_revoked_key_ends_at_its_next_news(app: Flask,
                                                          client: FlaskClient) -> None:
    """The stream checks the key again at each wake: a revoked key's stream ends there."""
    account = register(client)
    streamer = app.test_client()  # its own client: the stream's context stays its own
    response = streamer.get("/v1/me/stream", headers=auth(account["key"]), buffered=False)
    assert response.status_code == 200
    chunks = iter(response.response)
    try:
        text = ""
        while "event: turns" not in text:
            chunk = next(chunks)
            text += chunk.decode() if isinstance(chunk, bytes) else chunk
        revoke_default(app.test_client(), account["key"])
        news = seat_later(app, account["id"], 0.5)
        rest = ""
        started = time.monotonic()
        for chunk in chunks:  # ends when the stream does
            rest += chunk.decode() if isinstance(chunk, bytes) else chunk
            if time.monotonic() - started > 20:
                break
        news.join()
    finally:
        response.close()
    assert "event: turns" not in rest, rest
    assert time.monotonic() - started < 10  # ended at the news, not by its time limit
