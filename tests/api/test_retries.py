"""Creating a match and joining one are safe to send again: with the same Idempotency-Key a
client that lost the answer (a phone between networks) gets the same match, seat and seat
tokens, never a second match or a seat nobody can play; the key of another request is a 422,
a key short enough to guess a 422, and the same request sent twice at once creates one match.
"""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from shared.matches.service import CREATION_CLAIM
from tests.api.test_openapi import check

GAME = {"game": "savanna", "seats": [{"kind": "human"}, {"kind": "open"}]}


def keyed(key: str) -> dict[str, str]:
    return {"Idempotency-Key": key}


def moves(client: FlaskClient, match_id: str, token: str) -> int:
    return client.get(f"/v1/matches/{match_id}/moves",
                      headers={"Authorization": f"Bearer {token}"}).status_code


def test_a_match_created_again_under_its_key_is_the_same_match(client: FlaskClient) -> None:
    key = str(uuid.uuid4())
    first = check(client.post("/v1/matches", json=GAME, headers=keyed(key)),
                  "/v1/matches", "POST")
    again = check(client.post("/v1/matches", json=GAME, headers=keyed(key)),
                  "/v1/matches", "POST")
    assert again["id"] == first["id"] and again["tokens"] == first["tokens"]
    assert moves(client, first["id"], first["tokens"][0]["token"]) == 200
    other = client.post("/v1/matches", json={**GAME, "seed": 3}, headers=keyed(key))
    assert check(other, "/v1/matches", "POST")["status"] == 422
    fresh = client.post("/v1/matches", json=GAME, headers=keyed(str(uuid.uuid4()))).get_json()
    assert fresh["id"] != first["id"]
    assert fresh["tokens"][0]["token"] != first["tokens"][0]["token"]


def test_a_seat_joined_again_under_its_key_is_the_same_seat(client: FlaskClient) -> None:
    match = client.post("/v1/matches", json=GAME).get_json()
    path, key = f"/v1/matches/{match['id']}/join", str(uuid.uuid4())
    first = check(client.post(path, json={"name": "Bo"}, headers=keyed(key)),
                  "/v1/matches/{match_id}/join", "POST")
    again = check(client.post(path, json={"name": "Bo"}, headers=keyed(key)),
                  "/v1/matches/{match_id}/join", "POST")
    assert (again["seat"], again["token"]) == (first["seat"], first["token"]) == (
        1, again["token"])
    assert again["match"]["status"] == "running"
    assert moves(client, match["id"], first["token"]) == 200
    renamed = client.post(path, json={"name": "Cy"}, headers=keyed(key))
    assert check(renamed, "/v1/matches/{match_id}/join", "POST")["status"] == 422
    taken = client.post(path, json={}, headers=keyed(str(uuid.uuid4())))
    assert check(taken, "/v1/matches/{match_id}/join", "POST")["status"] == 409


def test_a_guessable_key_is_refused_where_no_token_guards_the_request(
        client: FlaskClient) -> None:
    match = client.post("/v1/matches", json=GAME).get_json()
    for path, operation in (("/v1/matches", "/v1/matches"),
                            (f"/v1/matches/{match['id']}/join",
                             "/v1/matches/{match_id}/join")):
        short = client.post(path, json=GAME if path == "/v1/matches" else {},
                            headers=keyed("1"))
        assert check(short, operation, "POST")["status"] == 422
        assert "Idempotency-Key" in short.get_json()["detail"]
    assert client.get(f"/v1/matches/{match['id']}").get_json()["status"] == "waiting"


def test_one_match_for_a_key_sent_twice_at_once(app: Flask) -> None:
    key = str(uuid.uuid4())

    def create(_: int) -> tuple[int, dict[str, Any], str | None]:
        with app.test_client() as own:
            answer = own.post("/v1/matches", json=GAME, headers=keyed(key))
            return answer.status_code, answer.get_json(), answer.headers.get("Retry-After")

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(create, range(8)))
    made = {body["id"] for status, body, _ in answers if status == 201}
    assert len(made) == 1, answers
    assert all(status == 201 or (status == 409 and after == "1")
               for status, _, after in answers), answers


def test_a_claim_left_by_a_dead_request_frees_the_key_soon(
        app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A creation holds its key only briefly until its match exists (a process that died in
    between would otherwise answer every retry 409 for a day); once made, the match is kept
    under the key for the idempotency window."""
    service = app.extensions["evo.service"]
    store, key = service.store, str(uuid.uuid4())
    assert client.post("/v1/matches", json=GAME, headers=keyed(key)).status_code == 201
    kept = store.redis.ttl(store._creation_key(key))
    assert service.idempotency_ttl - 60 < kept <= service.idempotency_ttl

    def dies(*_: Any) -> bool:
        raise SystemExit("the process is killed between the claim and the creation")

    dead = str(uuid.uuid4())
    monkeypatch.setattr(store, "create", dies)
    with pytest.raises(SystemExit):
        client.post("/v1/matches", json=GAME, headers=keyed(dead))
    monkeypatch.undo()
    assert 0 < store.redis.ttl(store._creation_key(dead)) <= CREATION_CLAIM <= 60
    waiting = client.post("/v1/matches", json=GAME, headers=keyed(dead))
    assert waiting.status_code == 409 and waiting.headers["Retry-After"] == "1"
