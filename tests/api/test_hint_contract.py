"""The hint route's answers when no bot worker runs (the API tests start none)."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.api.test_errors import TWO_HUMANS
from tests.api.test_openapi import MATCH, check


def test_no_worker_means_searching_not_a_server_error(client: FlaskClient) -> None:
    # Evolution: one seat owes at a time (Savanna's seats pick at once).
    created = client.post("/v1/matches", json={**TWO_HUMANS, "game": "evolution",
                                               "seed": 5}).get_json()
    match_id, tokens = created["id"], {t["seat"]: t["token"] for t in created["tokens"]}
    owing = created["to_move"][0]
    url = f"/v1/matches/{match_id}/hint"
    waited = client.get(url, headers={"Authorization": f"Bearer {tokens[owing]}"})
    body = check(waited, MATCH + "/hint", "GET")
    assert waited.status_code == 202 and body["status"] == "searching"
    assert int(waited.headers["Retry-After"]) == body["retry_after"] >= 1
    again = client.get(url, headers={"Authorization": f"Bearer {tokens[owing]}"})
    assert check(again, MATCH + "/hint", "GET")["status"] == 429
    assert "Retry-After" in again.headers
    other = client.get(url, headers={"Authorization": f"Bearer {tokens[1 - owing]}"})
    assert check(other, MATCH + "/hint", "GET")["status"] == 409
