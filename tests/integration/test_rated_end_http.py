"""A rated match's end survives a broker that refuses the API: the API that committed the last
move cannot send the task that rates it (its ``BROKER_URL`` names a port where nothing
listens), answers the mover 200 all the same, and the real worker's periodic sweep (its embedded
beat, its own live broker) rates the match from the mark the ending commit left."""

from __future__ import annotations

import random
import time
from pathlib import Path

import redis

from scripts.localredis import free_port
from shared.matches.store import match_key
from shared.ratings.store import RatingStore
from tests.integration.conftest import Client, Worker, running_api, stack_env


def test_a_rated_end_the_api_cannot_send_is_rated_by_the_sweep(
        redis_url: str, worker: Worker, tmp_path: Path) -> None:
    env = stack_env(redis_url, broker_url=f"redis://127.0.0.1:{free_port()}/0")
    with running_api(env, tmp_path, workers=1, graceful=False) as url:
        client = Client(url)
        accounts = [client.call("POST", "/v1/accounts", json={"name": name}).json()
                    for name in ("end-ant", "end-bee")]
        created = client.call("POST", "/v1/matches", accounts[0]["key"], json={
            "game": "savanna", "rated": True, "seats": [
                {"kind": "account", "account": account["id"]} for account in accounts]})
        assert created.status_code == 201, created.text
        match = created.json()
        accepted = client.call("POST", f"/v1/me/invitations/match-{match['id']}/accept",
                               accounts[1]["key"])
        assert accepted.json()["status"] == "running", accepted.text
        rng, answer = random.Random(9), {"status": "running", "to_move": [0]}
        while answer["status"] == "running":
            key = accounts[answer["to_move"][0]]["key"]
            legal = client.call("GET", f"/v1/matches/{match['id']}/moves", key).json()
            response = client.call("POST", f"/v1/matches/{match['id']}/moves", key, json={
                "version": legal["version"], "move_id": rng.choice(legal["moves"])["id"]})
            assert response.status_code == 200, response.text  # the last one too: committed
            answer = response.json()
        assert answer["status"] == "finished"
        assert client.match(match["id"])["status"] == "finished"
    # The sweep runs every 2 s and takes marks older than FINISH_RETRY_AFTER (1 s here).
    store = redis.Redis.from_url(redis_url, decode_responses=True)
    rated = RatingStore(store)
    players = [f"account:{account['id']}" for account in accounts]
    deadline = time.monotonic() + 30
    while store.zscore("evo:finishing", match["id"]) is not None:  # dropped last
        assert time.monotonic() < deadline, "the sweep never handled the match's end"
        time.sleep(0.2)
    found = rated.ratings("savanna", players)
    assert [found[player]["matches"] for player in players] == [1, 1]
    assert list(rated.rated("savanna", [match["id"]])) == [match["id"]]
    log = (tmp_path / "gunicorn.log").read_text()
    assert f"match {match['id']} finished; the task that rates it" in log
    assert store.hget(match_key(match["id"]), "finish_owed") == "false"
