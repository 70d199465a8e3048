"""docs/authorization.md lists every route of the app with who may call it; each row that
needs a credential refuses strangers (no credential, a malformed header, another account's
key, another match's seat token, another tournament's owner token) and lets the right one in.
"""

from __future__ import annotations

import dataclasses
import re
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api import create_app
from shared.infra.config import Settings

ROOT = Path(__file__).resolve().parents[2]
TABLE_ROW = re.compile(r"^\| (GET|POST|PUT|PATCH|DELETE) \| `([^`]+)` \| ([^|]+) \|", re.M)
WHO = {"anyone", "anyone (optional seat token)", "anyone (optional account key)",
       "seat token", "account key", "invited account's key", "owner token"}
NEEDS = ("seat token", "account key", "invited account's key", "owner token")


def table() -> dict[tuple[str, str], str]:
    text = (ROOT / "docs" / "authorization.md").read_text(encoding="utf-8")
    rows = {(method, path): who.strip() for method, path, who in TABLE_ROW.findall(text)}
    assert len(rows) == len(TABLE_ROW.findall(text)), "a route is listed twice"
    return rows


ROWS = table()


@pytest.fixture(scope="module")
def app(redis_url: str) -> Flask:
    """The API without rate limits: every test builds its own accounts and tournaments.

    No worker answers a hint here: the rightful asker's hint gives up after 0.3 s, not 8."""
    settings = dataclasses.replace(
        Settings.from_env(), redis_url=redis_url, broker_url=redis_url, matches_per_minute=0,
        joins_per_minute=0, moves_per_minute=0, bot_seats_per_client=0,
        accounts_per_minute=0, tournaments_per_minute=0, tournaments_per_client=0,
        hint_wait_seconds=0.3)
    return create_app(settings)


@pytest.fixture
def client(app: Flask) -> Iterator[FlaskClient]:
    with app.test_client() as test_client:
        yield test_client


def app_routes(app: Flask) -> set[tuple[str, str]]:
    return {(method, rule.rule) for rule in app.url_map.iter_rules()
            for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}}


def test_every_route_of_the_app_is_in_the_table(app: Flask) -> None:
    routes = app_routes(app)
    assert sorted(routes - set(ROWS)) == [], "routes missing from docs/authorization.md"
    assert sorted(set(ROWS) - routes) == [], "docs/authorization.md lists routes the app lacks"
    assert {who for who in ROWS.values()} <= WHO, "a row names no known caller"


def test_the_api_guide_links_the_table() -> None:
    assert "(authorization.md)" in (ROOT / "docs" / "api.md").read_text(encoding="utf-8")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@dataclass
class World:
    """Two accounts, a match of each kind of seat, two tournaments, an invitation."""

    key: str  # the account seated in ``match`` (and invited to ``invited``)
    other_key: str  # an account with no seat in it and no invitation
    match: str
    seat_token: str  # of ``match``'s human seat
    other_match_token: str  # a seat token of another match
    tournament: str
    owner: str
    other_owner: str  # another tournament's owner token
    invitation: str  # the invitation of ``key``'s account to another match
    invited: str  # that match


def make_world(client: FlaskClient) -> World:
    def account(name: str) -> dict[str, Any]:
        # Names are unique (any case) and the store outlives a test: a fresh one each world.
        created = client.post("/v1/accounts", json={"name": f"{name} {secrets.token_hex(4)}"})
        assert created.status_code == 201
        return created.get_json()  # type: ignore[no-any-return]

    mine, other = account("Authz mine"), account("Authz other")
    seated = client.post("/v1/matches", headers=bearer(mine["key"]), json={
        "game": "savanna", "seed": 1, "seats": [
            {"kind": "account", "account": mine["id"]}, {"kind": "human"}]}).get_json()
    assert seated["status"] == "running"
    elsewhere = client.post("/v1/matches", json={"game": "savanna", "seats": [
        {"kind": "human"}, {"kind": "human"}]}).get_json()
    invited = client.post("/v1/matches", json={"game": "savanna", "seats": [
        {"kind": "account", "account": mine["id"]}, {"kind": "human"}]}).get_json()
    assert invited["status"] == "waiting"
    body = {"game": "savanna", "format": "round_robin", "seed": 1, "entrants": [
        {"bot": {"kind": "random"}}, {"bot": {"kind": "greedy"}}]}
    first = client.post("/v1/tournaments", json=body).get_json()
    second = client.post("/v1/tournaments", json=body).get_json()
    return World(mine["key"], other["key"], seated["id"], seated["tokens"][0]["token"],
                 elsewhere["tokens"][0]["token"], first["id"], first["owner_token"],
                 second["owner_token"], f"match-{invited['id']}", invited["id"])


def url(path: str, world: World) -> str:
    return (path.replace("<match_id>", world.match)
            .replace("<tournament_id>", world.tournament)
            .replace("<invitation_id>", world.invitation))


def call(client: FlaskClient, method: str, path: str, headers: dict[str, str]) -> int:
    """The status of one request (a stream is closed unread: only its status is looked at)."""
    body = {"version": 1, "move_id": "none"} if method == "POST" else None
    response = client.open(path, method=method, headers=headers, json=body, buffered=False)
    status = response.status_code
    response.close()
    return status


def strangers(who: str, world: World) -> dict[str, dict[str, str]]:
    """The credentials that must be refused on a row of ``who``."""
    common = {"none": {}, "malformed": {"Authorization": "Basic x"},
              "unknown": bearer("evk_nobody")}
    if who == "seat token":  # a key of an account with no seat; another match's token
        return {**common, "other account's key": bearer(world.other_key),
                "other match's seat token": bearer(world.other_match_token),
                "owner token": bearer(world.owner)}
    if who in ("account key", "invited account's key"):
        found = {**common, "a seat token": bearer(world.seat_token),
                 "owner token": bearer(world.owner)}
        if who == "invited account's key":  # another account has no such invitation
            found["other account's key"] = bearer(world.other_key)
        return found
    assert who == "owner token"
    return {**common, "other tournament's owner token": bearer(world.other_owner),
            "an account's key": bearer(world.key), "a seat token": bearer(world.seat_token)}


def rightful(who: str, world: World) -> dict[str, str]:
    return bearer({"seat token": world.seat_token, "account key": world.key,
                   "invited account's key": world.key, "owner token": world.owner}[who])


GUARDED = sorted((method, path, who) for (method, path), who in ROWS.items() if who in NEEDS)


def test_some_rows_need_each_credential() -> None:
    assert {who for _, _, who in GUARDED} == set(NEEDS)


@pytest.mark.parametrize(("method", "path", "who"), GUARDED)
def test_a_stranger_is_refused(client: FlaskClient, method: str, path: str, who: str) -> None:
    world = make_world(client)
    target = url(path, world)
    for name, headers in strangers(who, world).items():
        status = call(client, method, target, headers)
        allowed = {401, 403, 404} if name == "other account's key" and "invit" in who \
            else {401, 403}
        assert status in allowed, (name, method, target, status)
        if name in ("none", "malformed"):
            assert status == 401, (name, method, target, status)
    # Nothing a stranger sent changed what the credential governs.
    assert client.get(f"/v1/matches/{world.invited}").get_json()["status"] == "waiting"
    assert client.get(f"/v1/tournaments/{world.tournament}").get_json()["status"] == "running"
    # The rightful credential gets past the check (whatever the request then deserves).
    assert call(client, method, target, rightful(who, world)) not in (401, 403)


OPTIONAL = sorted((method, path) for (method, path), who in ROWS.items()
                  if who == "anyone (optional seat token)")


@pytest.mark.parametrize(("method", "path"), OPTIONAL)
def test_an_optional_seat_token_must_be_the_matchs(client: FlaskClient, method: str,
                                                    path: str) -> None:
    world = make_world(client)
    target = url(path, world)
    assert call(client, method, target, bearer(world.other_match_token)) == 403
    assert call(client, method, target, bearer(world.other_key)) == 403
    assert call(client, method, target, {"Authorization": "Basic x"}) == 401


@pytest.mark.parametrize("path", ["/v1/matches", "/v1/tournaments"])
def test_creating_with_a_credential_that_is_no_account_key_is_refused(
        client: FlaskClient, path: str) -> None:
    """A creation never drops the credential it was sent with and goes on without it."""
    world = make_world(client)
    body: dict[str, Any] = {"game": "savanna", "seats": [
        {"kind": "human"}, {"kind": "bot", "bot": {"kind": "random"}}]}
    if path == "/v1/tournaments":
        body = {"game": "savanna", "format": "round_robin", "entrants": [
            {"bot": {"kind": "random"}}, {"bot": {"kind": "greedy"}}]}
    for headers in (bearer(world.seat_token), bearer(world.owner), bearer("evk_nobody")):
        assert client.post(path, json=body, headers=headers).status_code == 401
