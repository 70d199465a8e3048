"""The replay route: a finished match replayed step by step from its revealed seed, each
step's view exactly what the live match served that seat (or a spectator) at that version;
refused while the match runs or is sealed; cacheable (ETag, 304)."""

from __future__ import annotations

import random
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from shared.matches.service import MatchService
from tests.api.test_openapi import check

REPLAY = "/v1/matches/{match_id}/replay"
Views = dict[tuple[int | None, int], Any]  # (seat or None, version) -> the view served


def matches(app: Flask) -> MatchService:
    found: MatchService = app.extensions["evo.service"]
    return found


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def play_out(client: FlaskClient, game: str, seed: int) -> tuple[str, Views]:
    """A 2-seat match of ``game`` played to its end with random legal moves over the API;
    every view each seat and a spectator was served after every version."""
    created = client.post("/v1/matches", json={"game": game, "seed": seed, "seats": [
        {"kind": "human"}, {"kind": "human"}]}).get_json()
    match_id = created["id"]
    tokens = {t["seat"]: t["token"] for t in created["tokens"]}
    rng = random.Random(seed)
    served: Views = {}

    def record() -> dict[str, Any]:
        spectator = client.get(f"/v1/matches/{match_id}").get_json()
        served[(None, spectator["version"])] = spectator["view"]
        for seat, token in tokens.items():
            seen = client.get(f"/v1/matches/{match_id}", headers=bearer(token)).get_json()
            served[(seat, seen["version"])] = seen["view"]
        return dict(spectator)

    match = record()
    while match["status"] == "running":
        seat = rng.choice(match["to_move"])
        moves = client.get(f"/v1/matches/{match_id}/moves",
                           headers=bearer(tokens[seat])).get_json()
        answer = client.post(f"/v1/matches/{match_id}/moves", headers=bearer(tokens[seat]),
                             json={"version": moves["version"],
                                   "move_id": rng.choice(moves["moves"])["id"]})
        assert answer.status_code == 200, answer.get_json()
        match = record()
    return match_id, served


@pytest.fixture(scope="module")
def finished(app: Flask) -> tuple[str, Views]:
    with app.test_client() as client:
        return play_out(client, "savanna", 4242)


def replay(client: FlaskClient, match_id: str, checked: bool = True, **params: Any) -> Any:
    """The replay's body (checked against the contract unless not ``checked``: validating a
    whole log's moves is slow) and the response."""
    response = client.get(REPLAY.format(match_id=match_id), query_string=params)
    body = check(response, REPLAY, "GET") if checked else response.get_json()
    return body, response


@pytest.mark.parametrize("seat", [0, 1, None])
def test_each_step_shows_what_the_live_match_served_that_seat(
        client: FlaskClient, finished: tuple[str, Views], seat: int | None) -> None:
    match_id, served = finished
    first, _ = replay(client, match_id, **({} if seat is None else {"seat": seat}))
    assert first["step"] == 0 and first["steps"] == len(first["moves"]) > 10
    for step in range(first["steps"] + 1):
        params = {"step": step} | ({} if seat is None else {"seat": seat})
        body, _ = replay(client, match_id, step in (1, first["steps"]), **params)
        assert body["step"] == step and body["seat"] == seat
        assert body["view"] == served[(seat, body["version"])], f"step {step}"
        if step:  # the step's move is the log's, with its label
            assert body["version"] == body["moves"][step - 1]["version"]
            assert body["moves"][step - 1]["label"]


def test_a_spectator_replay_hides_the_hands(client: FlaskClient,
                                            finished: tuple[str, Views]) -> None:
    match_id, _ = finished
    mine, _ = replay(client, match_id, seat=0, step=1)
    public, _ = replay(client, match_id, step=1)
    assert mine["view"]["hand"]  # the seat's own cards
    assert "hand" not in public["view"] and "pending" not in public["view"]
    assert public["moves"] == mine["moves"]  # the log is public once finished


def test_unknown_running_and_out_of_range_are_refused(
        client: FlaskClient, finished: tuple[str, Views]) -> None:
    match_id, _ = finished
    assert replay(client, "0" * 16)[1].status_code == 404
    running = client.post("/v1/matches", json={"game": "savanna", "seats": [
        {"kind": "human"}, {"kind": "human"}]}).get_json()
    refused, answer = replay(client, running["id"])
    assert answer.status_code == 409 and refused["match_status"] == "running"
    steps = replay(client, match_id)[0]["steps"]
    assert replay(client, match_id, step=steps + 1)[1].status_code == 422
    assert replay(client, match_id, seat=2)[1].status_code == 422
    assert replay(client, match_id, step=steps)[1].status_code == 200


def test_a_sealed_match_replays_only_once_revealed(app: Flask, client: FlaskClient) -> None:
    service = matches(app)
    record, _ = service.create_match("savanna", None, None, [
        {"kind": "human"}, {"kind": "human"}], sealed=True)
    rng = random.Random(7)
    while record.status == "running":
        seat = record.to_move[0]
        move = rng.choice(service.legal_moves(record, seat))
        service.submit_move(record.id, seat, record.version, move["move"])
        record = service.load(record.id)
    refused, answer = replay(client, record.id, seat=0)
    assert answer.status_code == 409 and refused["sealed"] is True
    service.unseal(record.id)
    body, answer = replay(client, record.id, seat=0, step=3)
    assert answer.status_code == 200 and body["seed"] == record.seed
    assert body["view"] == service.state_at(
        record, __import__("shared.games", fromlist=["get_game"]).get_game("savanna"),
        body["version"]).view(0)


def test_a_replay_is_cacheable_and_revalidates_with_a_304(
        client: FlaskClient, finished: tuple[str, Views]) -> None:
    match_id, _ = finished
    url = REPLAY.format(match_id=match_id)
    first = client.get(url, query_string={"seat": 1, "step": 2})
    assert "public" in first.headers["Cache-Control"]
    assert "immutable" in first.headers["Cache-Control"]
    tag = first.headers["ETag"]
    again = client.get(url, query_string={"seat": 1, "step": 2},
                       headers={"If-None-Match": tag, "Origin": "https://elsewhere.example"})
    check(again, REPLAY, "GET")
    assert again.status_code == 304 and again.headers["ETag"] == tag
    other = client.get(url, query_string={"seat": 0, "step": 2}, headers={"If-None-Match": tag})
    assert other.status_code == 200 and other.headers["ETag"] != tag


def test_a_match_kept_only_after_its_end_still_replays_until_its_log_expires(
        client: FlaskClient, redis_url: str) -> None:
    match_id, served = play_out(client, "savanna", 99)
    live, _ = replay(client, match_id, seat=1, step=5)
    store = redis.Redis.from_url(redis_url, decode_responses=True)
    try:
        # As ENDED_TTL does: the state and the tokens go; the result and the log stay.
        store.delete(f"evo:m:{{{match_id}}}", f"evo:m:{{{match_id}}}:tok")
        assert client.get(f"/v1/matches/{match_id}").get_json()["archived"] is True
        kept, _ = replay(client, match_id, seat=1, step=5)
        assert kept == live and kept["view"] == served[(1, kept["version"])]
        store.delete(f"evo:m:{{{match_id}}}:logz")  # as LOG_TTL does
        assert replay(client, match_id, seat=1)[1].status_code == 410
    finally:
        store.close()
