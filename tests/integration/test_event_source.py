"""A real EventSource (the npm ``eventsource`` package under node) follows a whole match."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.integration.conftest import Client, Worker

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("integration")]
JS = Path(__file__).resolve().parents[1] / "js"


def node_script(name: str) -> list[str]:
    """``node <tests/js/name>``; the packages come from ``make test`` (npm ci in tests/js)."""
    node = shutil.which("node")
    if node is None or not (JS / "node_modules" / "eventsource").is_dir():
        pytest.fail("node and tests/js/node_modules are needed: run `make test` (npm ci)")
    return [node, str(JS / name)]


def play_first_moves(client: Client, match_id: str, token: str) -> dict:
    """Play the seat's first legal move whenever it owes one, until the match is over."""
    match = client.match(match_id, token)
    while match["status"] == "running":
        if match["you"] in match["to_move"]:
            listed = client.call("GET", f"/v1/matches/{match_id}/moves", token).json()
            client.call("POST", f"/v1/matches/{match_id}/moves", token, json={
                "version": listed["version"], "move_id": listed["moves"][0]["id"]})
            match = client.match(match_id, token)
        else:
            match = client.match(match_id, token, version=match["version"], wait=5)
    return match


def test_every_version_arrives_once_across_a_forced_disconnect(client: Client,
                                                               worker: Worker) -> None:
    created = client.create({"game": "savanna", "seats": [
        {"kind": "human"}, {"kind": "bot", "bot": {"kind": "random"}}]})
    token = created["tokens"][0]["token"]
    url = f"{client.base}/v1/matches/{created['id']}/stream?since=0"
    follower = subprocess.Popen([*node_script("follow_stream.mjs"), url, "3", token, "0"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert follower.stdout is not None and follower.stdout.readline().strip() == "open"
        final = play_first_moves(client, created["id"], token)
        out, err = follower.communicate(timeout=60)
    finally:
        follower.kill()
    assert follower.returncode == 0, err
    seen = json.loads(out)
    assert final["status"] == "finished"
    assert seen["versions"] == list(range(1, final["version"] + 1))  # each once, in order
    assert seen["ends"] == [final["version"]]
    # The first connection was cut: the second resumed from the last id it had; after the
    # end the reconnect with the final id got 204, so EventSource closed by itself.
    cut_at = seen["connections"][1]
    assert seen["connections"][0] is None and 3 <= int(cut_at) < final["version"]
    assert seen["connections"][-1] == str(final["version"]) and seen["closed"] is True
    assert seen["foreignMoves"] == 0
