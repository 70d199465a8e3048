"""Rate limits and the bot-work cap (issue 18): 429 with Retry-After and problem+json, at
the configured rates, per client address and per token, kept in Redis."""

from __future__ import annotations

import dataclasses
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from api import create_app
from shared.infra.config import Settings
from tests.api.test_errors import TWO_HUMANS, assert_problem


def limited_app(redis_url: str, **limits: int) -> Flask:
    off = dict(matches_per_minute=0, joins_per_minute=0, moves_per_minute=0,
               bot_seats_per_client=0)
    return create_app(dataclasses.replace(Settings.from_env(), redis_url=redis_url,
                                          broker_url=redis_url, **{**off, **limits}))


def post(client: FlaskClient, path: str, body: dict[str, Any], address: str,
         token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.post(path, json=body, headers=headers, environ_base={"REMOTE_ADDR": address})


def assert_429(response: Any) -> None:
    assert_problem(response, 429, mentions="a minute" if "bot seats" not in
                   response.get_data(as_text=True) else "bot seats")
    retry = int(response.headers["Retry-After"])
    assert 1 <= retry <= 60 and response.get_json()["retry_after"] == retry


@pytest.fixture(autouse=True)
def clean(redis_client: redis.Redis) -> None:
    """A fresh database: windows of earlier tests do not count here."""


def test_match_creation_is_limited_per_address(redis_url: str) -> None:
    client = limited_app(redis_url, matches_per_minute=5).test_client()
    codes = [post(client, "/v1/matches", TWO_HUMANS, "192.0.2.1").status_code
             for _ in range(7)]
    assert codes == [201] * 5 + [429] * 2
    assert_429(post(client, "/v1/matches", TWO_HUMANS, "192.0.2.1"))
    assert post(client, "/v1/matches", TWO_HUMANS, "192.0.2.2").status_code == 201


def test_joins_are_limited(redis_url: str) -> None:
    client = limited_app(redis_url, joins_per_minute=2).test_client()
    open_seats = {"game": "savanna", "seats": [{"kind": "human"}] + [{"kind": "open"}] * 3}
    match = post(client, "/v1/matches", open_seats, "192.0.2.3").get_json()
    codes = [post(client, f"/v1/matches/{match['id']}/join", {}, "192.0.2.4").status_code
             for _ in range(3)]
    assert codes == [201, 201, 429]


def test_moves_are_limited_per_token_and_per_address(redis_url: str) -> None:
    client = limited_app(redis_url, moves_per_minute=3).test_client()
    match = post(client, "/v1/matches", TWO_HUMANS, "192.0.2.5").get_json()
    url = f"/v1/matches/{match['id']}/moves"
    token = match["tokens"][0]["token"]
    # Four refused moves (stale version: a 409 each) from four addresses: the token's limit.
    codes = [post(client, url, {"version": 99, "move_id": "x"}, f"192.0.2.{10 + i}",
                  token).status_code for i in range(4)]
    assert codes == [409, 409, 409, 429]
    other = match["tokens"][1]["token"]
    assert post(client, url, {"version": 99, "move_id": "x"}, "192.0.2.20",
                other).status_code == 409
    # The address's own limit holds across tokens.
    codes = [post(client, url, {"version": 99, "move_id": "x"}, "192.0.2.20",
                  other).status_code for _ in range(3)]
    assert codes == [409, 409, 429]


def test_bot_seats_in_live_matches_are_capped_per_address(redis_url: str) -> None:
    client = limited_app(redis_url, bot_seats_per_client=4).test_client()
    bots = {"game": "savanna", "seats": [{"kind": "human"}] + [
        {"kind": "bot", "bot": {"kind": "random"}}] * 2}
    assert post(client, "/v1/matches", bots, "192.0.2.30").status_code == 201
    assert post(client, "/v1/matches", bots, "192.0.2.30").status_code == 201
    refused = post(client, "/v1/matches", bots, "192.0.2.30")
    assert_429(refused)
    assert post(client, "/v1/matches", TWO_HUMANS, "192.0.2.30").status_code == 201
    assert post(client, "/v1/matches", bots, "192.0.2.31").status_code == 201


def test_an_ended_match_frees_its_bot_seats(redis_url: str) -> None:
    app = limited_app(redis_url, bot_seats_per_client=2)
    client = app.test_client()
    bots = {"game": "savanna", "seats": [{"kind": "human"}] + [
        {"kind": "bot", "bot": {"kind": "random"}}] * 2}
    first = post(client, "/v1/matches", bots, "192.0.2.40").get_json()
    assert post(client, "/v1/matches", bots, "192.0.2.40").status_code == 429
    assert app.extensions["evo.service"].abort(first["id"], "test over")
    assert post(client, "/v1/matches", bots, "192.0.2.40").status_code == 201


def test_behind_a_load_balancer_the_limit_counts_the_forwarded_address(redis_url: str) -> None:
    """With PROXY_HOPS=1 (the cluster profile's nginx) two clients behind the same balancer
    have their own limits; without it a forged X-Forwarded-For changes nothing."""
    balanced = create_app(dataclasses.replace(
        Settings.from_env(), redis_url=redis_url, broker_url=redis_url, matches_per_minute=2,
        joins_per_minute=0, moves_per_minute=0, bot_seats_per_client=0,
        proxy_hops=1)).test_client()

    def via_balancer(client: FlaskClient, forwarded: str) -> int:
        return client.post("/v1/matches", json=TWO_HUMANS,
                           headers={"X-Forwarded-For": forwarded},
                           environ_base={"REMOTE_ADDR": "10.0.0.2"}).status_code

    assert [via_balancer(balanced, "198.51.100.1") for _ in range(3)] == [201, 201, 429]
    assert via_balancer(balanced, "198.51.100.2") == 201
    direct = limited_app(redis_url, matches_per_minute=2).test_client()
    assert [via_balancer(direct, f"198.51.100.{n}") for n in range(10, 13)] == [201, 201, 429]


def test_concurrent_creations_never_exceed_the_bot_seat_cap(redis_url: str) -> None:
    """Sixteen creations of two-bot matches from one address at once, against a cap of 4
    seats: the count and the reservation are one atomic step, so at most two get a 201."""
    app = limited_app(redis_url, bot_seats_per_client=4)
    bots = {"game": "savanna", "seats": [{"kind": "human"}] + [
        {"kind": "bot", "bot": {"kind": "random"}}] * 2}
    start = threading.Barrier(16)

    def create(_: int) -> int:
        client = app.test_client()
        start.wait()
        return post(client, "/v1/matches", bots, "192.0.2.50").status_code

    with ThreadPoolExecutor(16) as pool:
        codes = list(pool.map(create, range(16)))
    assert sorted(codes) == [201, 201] + [429] * 14, codes
    live = app.extensions["evo.service"].store.redis.hgetall("evo:bots:192.0.2.50")
    assert sum(int(value.partition(":")[0]) for value in live.values()) == 4


def test_a_keyed_retry_of_an_accepted_move_gets_its_answer_past_the_limit(
        redis_url: str) -> None:
    """The move is applied; its retry (same Idempotency-Key) is answered from the store even
    once the token (and the address) is over its limit, and is not counted as a new move."""
    client = limited_app(redis_url, moves_per_minute=2).test_client()
    match = post(client, "/v1/matches", TWO_HUMANS, "192.0.2.50").get_json()
    url, token = f"/v1/matches/{match['id']}/moves", match["tokens"][0]["token"]
    moves = client.get(f"/v1/matches/{match['id']}/moves",
                       headers={"Authorization": f"Bearer {token}"}).get_json()
    body = {"version": moves["version"], "move_id": moves["moves"][0]["id"]}
    headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": "retry-1"}
    first = client.post(url, json=body, headers=headers,
                        environ_base={"REMOTE_ADDR": "192.0.2.50"})
    assert first.status_code == 200
    assert post(client, url, {"version": 99, "move_id": "x"}, "192.0.2.50",
                token).status_code == 409
    assert_429(post(client, url, {"version": 99, "move_id": "x"}, "192.0.2.50", token))
    for _ in range(3):
        retry = client.post(url, json=body, headers=headers,
                            environ_base={"REMOTE_ADDR": "192.0.2.50"})
        assert retry.status_code == 200 and retry.get_json() == first.get_json()
    # A key reused for another move is still refused, limit or not (a 422 before the 429).
    other = {**body, "move_id": moves["moves"][-1]["id"]}
    assert client.post(url, json=other, headers=headers,
                       environ_base={"REMOTE_ADDR": "192.0.2.50"}).status_code == 422
    # A new key is a new move: limited.
    assert_429(client.post(url, json=body, headers={**headers, "Idempotency-Key": "new"},
                           environ_base={"REMOTE_ADDR": "192.0.2.50"}))


def test_account_seats_count_toward_the_bot_seat_cap(redis_url: str) -> None:
    """An account's seat costs the workers as a bot's does (its webhook is called by them):
    it counts toward the address's cap of bot seats in live matches (issue 39)."""
    client = limited_app(redis_url, bot_seats_per_client=3).test_client()
    account = post(client, "/v1/accounts", {"name": "Capped"}, "192.0.2.60").get_json()
    seat = {"kind": "account", "account": account["id"]}
    two = {"game": "savanna", "seats": [{"kind": "human"}, seat, seat]}
    assert post(client, "/v1/matches", two, "192.0.2.61").status_code == 201
    mixed = {"game": "savanna", "seats": [{"kind": "human"}, seat,
                                          {"kind": "bot", "bot": {"kind": "random"}}]}
    assert_429(post(client, "/v1/matches", mixed, "192.0.2.61"))
    one = {"game": "savanna", "seats": [{"kind": "human"}, seat]}
    assert post(client, "/v1/matches", one, "192.0.2.61").status_code == 201
    assert_429(post(client, "/v1/matches", one, "192.0.2.61"))
    assert post(client, "/v1/matches", one, "192.0.2.62").status_code == 201


def test_a_keyed_retry_of_a_creation_or_a_join_gets_its_answer_past_the_limit(
        redis_url: str) -> None:
    """The match or seat exists already: a client that lost the answer learns its tokens even
    when its address is over the limit now (and a new request with a new key is still a 429)."""
    client = limited_app(redis_url, matches_per_minute=1, joins_per_minute=1).test_client()
    address, key, join_key = "192.0.2.40", "created-under-key-0001", "joined-under-key-0001"
    body = {"game": "savanna", "seats": [{"kind": "human"}, {"kind": "open"}, {"kind": "open"}]}

    def send(path: str, payload: dict[str, Any], retry: str) -> Any:
        return client.post(path, json=payload, headers={"Idempotency-Key": retry},
                           environ_base={"REMOTE_ADDR": address})

    first = send("/v1/matches", body, key)
    assert first.status_code == 201
    assert_429(send("/v1/matches", body, key + "-another"))
    again = send("/v1/matches", body, key)
    assert again.status_code == 201 and again.get_json()["tokens"] == first.get_json()["tokens"]
    join = f"/v1/matches/{first.get_json()['id']}/join"
    joined = send(join, {}, join_key)
    assert joined.status_code == 201
    assert_429(send(join, {}, join_key + "-another"))
    rejoined = send(join, {}, join_key)
    assert rejoined.status_code == 201
    assert rejoined.get_json()["token"] == joined.get_json()["token"]
