"""Every status the API can answer is in the contract, operation by operation (issue 39).

Statuses come from three places, each enumerated here against ``openapi.yaml``:

* the guards every request passes (``api/guards.py``, ``api/context.py``, ``api/errors.py``):
  an unknown query parameter (422), an id that cannot be one (404), a body that is not JSON
  (400), too large (413) or invalid (422);
* the HTTP server before the app (``gunicorn.conf.py``): a request line over its limit (414),
  headers over theirs (431);
* the store: unreachable (503) and full (507), found by calling every operation against a
  store in that state, whatever it answers then must be documented.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from api import create_app
from api.guards import ID_PATTERNS
from scripts.localredis import free_port, start_redis
from shared.infra.config import Settings
from tests.api.test_openapi import SPEC, check

METHODS = ("get", "post", "put", "patch", "delete")
#: The answers of the HTTP server itself, possible on every operation.
SERVER = {"414", "431"}


def operations() -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in SPEC["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                yield path, method, operation


def documented(operation: dict[str, Any]) -> set[str]:
    return set(operation["responses"])


def test_every_operation_documents_what_its_guards_answer() -> None:
    missing = []
    for path, method, operation in operations():
        wanted = {"422"} | SERVER  # any operation: an undeclared query parameter, the server
        names_one = any(f"{{{name}}}" in path for name in ID_PATTERNS)
        if names_one:
            wanted.add("404")  # an id that cannot be one
        if "requestBody" in operation:
            wanted |= {"400", "413", "422"}  # not JSON, too large, invalid
        if operation.get("security"):
            wanted.add("401")  # no token, a malformed one (an account key unknown)
            schemes = {name for option in operation["security"] for name in option}
            if (names_one and "{invitation_id}" not in path
                    and schemes & {"seatToken", "ownerToken"}):
                # A token, not this match's seat's (this tournament's). An invitation is
                # another account's: 404, as for none (its existence is not told). Where
                # only an account's key is taken (joining as the account), it acts as
                # itself: no seat or owner to be wrong about.
                wanted.add("403")
        lacking = wanted - documented(operation)
        if lacking:
            missing.append(f"{method.upper()} {path}: {sorted(lacking)}")
    assert missing == []


def test_an_undeclared_query_parameter_is_a_documented_422(client: FlaskClient) -> None:
    for path in ("/healthz", "/v1/games", "/v1/bots", "/openapi.yaml"):
        check(client.get(f"{path}?surprise=1"), path, "GET")


# -- the store in a bad state: every operation called, every answer documented ---------------

def fill(path: str, ids: dict[str, str]) -> str:
    return re.sub(r"\{([^}]+)\}", lambda m: ids[m.group(1)], path)


#: A body each operation accepts (so that it reaches the store), by (method, path).
BODIES: dict[tuple[str, str], Any] = {
    ("post", "/v1/matches"): {"game": "savanna", "seats": [{"kind": "human"},
                                                          {"kind": "open"}]},
    ("post", "/v1/matches/{match_id}/join"): {},
    ("post", "/v1/accounts"): {"name": "Marvin"},
    ("post", "/v1/tournaments"): {"game": "savanna", "format": "round_robin", "entrants": [
        {"bot": {"kind": "random"}}, {"bot": {"kind": "random"}}]},
    ("post", "/v1/me/keys"): {"name": "second"},
    ("patch", "/v1/me"): {"name": "Renamed"},
    ("post", "/v1/me/pool"): {"game": "savanna", "players": 2},
}


def call_every_operation(http: FlaskClient, ids: dict[str, str], tokens: dict[str, str],
                         move: dict[str, Any] | None) -> list[tuple[str, str, int]]:
    """(method, path, status) of one call of every operation, with the token ``tokens`` gives
    for the path's first two segments (a seat's, an account's key, a tournament owner's);
    each answer checked against the contract (status and schema)."""
    seen = []
    for path, method, _ in operations():
        if path.endswith("/stream"):
            continue  # a stream holds the connection: its first answer is checked elsewhere
        body = BODIES.get((method, path))
        if (method, path) == ("post", "/v1/matches/{match_id}/moves"):
            body = move or {"version": 1, "move_id": "x"}
        token = tokens.get("/".join(path.split("/")[:3]), tokens.get("", ""))
        if (method, path) in (("post", "/v1/matches"), ("post", "/v1/tournaments")):
            token = ""  # a creation takes an account key only (a seat token is a 401)
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        url = fill(path, ids)
        response = http.open(url, method=method.upper(), headers=headers,
                             json=body if method != "get" else None)
        check(response, path, method.upper())
        seen.append((method, path, response.status_code))
    return seen


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[tuple[str, redis.Redis]]:
    port = free_port()
    process = start_redis(tmp_path, port, appendonly=False)
    url = f"redis://127.0.0.1:{port}/0"
    admin = redis.Redis.from_url(url, decode_responses=True)
    try:
        yield url, admin
    finally:
        admin.close()
        process.terminate()
        process.wait(timeout=10)


def app_on(url: str) -> Flask:
    return create_app(dataclasses.replace(
        Settings.from_env(), redis_url=url, broker_url=url, matches_per_minute=0,
        joins_per_minute=0, moves_per_minute=0, bot_seats_per_client=0))


def test_with_the_store_full_every_answer_is_documented(
        own_redis: tuple[str, redis.Redis]) -> None:
    url, admin = own_redis
    http = app_on(url).test_client()
    created = http.post("/v1/matches", json={"game": "savanna", "seats": [
        {"kind": "human"}, {"kind": "human"}]}).get_json()
    waiting = http.post("/v1/matches", json=BODIES[("post", "/v1/matches")]).get_json()
    token = created["tokens"][0]["token"]
    moves = http.get(f"/v1/matches/{created['id']}/moves",
                     headers={"Authorization": f"Bearer {token}"}).get_json()
    move = {"version": moves["version"], "move_id": moves["moves"][0]["id"]}
    account = http.post("/v1/accounts", json={"name": "Full"}).get_json()
    tournament = http.post("/v1/tournaments",
                           json=BODIES[("post", "/v1/tournaments")]).get_json()
    ids = {"match_id": created["id"], "tournament_id": tournament["id"], "game_id": "savanna",
           "filename": "arena.css", "path": "index.html", "name": "default",
           "player": "bot:random", "invitation_id": "match-" + "0" * 16,
           "delivery_id": "n_" + "0" * 24}
    tokens = {"/v1/matches": token, "/v1/me": account["key"],
              "/v1/tournaments": tournament["owner_token"]}
    admin.config_set("maxmemory", 1)  # every write is now refused with OOM (noeviction)
    try:
        seen = call_every_operation(http, ids, tokens, move)
        joined = http.post(f"/v1/matches/{waiting['id']}/join", json={})
        check(joined, "/v1/matches/{match_id}/join", "POST")
    finally:
        admin.config_set("maxmemory", 0)
    full = {(method, path) for method, path, status in seen if status == 507}
    assert {("post", "/v1/matches"), ("post", "/v1/matches/{match_id}/moves"),
            ("post", "/v1/accounts"), ("post", "/v1/tournaments")} <= full, seen
    assert joined.status_code == 507


def test_with_the_store_unreachable_every_answer_is_documented() -> None:
    http = app_on("redis://127.0.0.1:1/0").test_client()
    ids = {"match_id": "0" * 16, "tournament_id": "0" * 16, "game_id": "savanna",
           "filename": "arena.css", "path": "index.html", "name": "default",
           "player": "bot:random", "invitation_id": "match-" + "0" * 16,
           "delivery_id": "n_" + "0" * 24}
    seen = call_every_operation(http, ids, {"": "x" * 20}, None)
    assert ("post", "/v1/matches", 503) in seen
