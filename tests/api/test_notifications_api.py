"""Notifications through the API on a real Redis (no worker: the delivery tasks wait in the
queue): invitations to a match and to a tournament are "challenge" notifications, a match
that starts is "match_found" for each of its accounts, the notification webhook is checked
like a bot's, and the delivery log's routes answer as the contract says."""

from __future__ import annotations

import secrets
from typing import Any

from flask.testing import FlaskClient


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def account(client: FlaskClient, name: str) -> dict[str, Any]:
    made = client.post("/v1/accounts", json={"name": f"{name} {secrets.token_hex(4)}"})
    assert made.status_code == 201
    return made.get_json()  # type: ignore[no-any-return]


def log(client: FlaskClient, key: str) -> list[dict[str, Any]]:
    answer = client.get("/v1/me/deliveries", headers=bearer(key))
    assert answer.status_code == 200
    return answer.get_json()["deliveries"]  # type: ignore[no-any-return]


def test_invitations_are_challenges_and_a_start_is_match_found(client: FlaskClient) -> None:
    host, guest = account(client, "Host"), account(client, "Guest")
    match = client.post("/v1/matches", headers=bearer(host["key"]), json={
        "game": "savanna", "seats": [{"kind": "account", "account": host["id"]},
                                     {"kind": "account", "account": guest["id"]}]}).get_json()
    (challenge,) = log(client, guest["key"])
    assert (challenge["kind"], challenge["state"]) == ("challenge", "no_webhook")
    assert challenge["data"]["id"] == f"match-{match['id']}"
    assert log(client, host["key"]) == []  # the creator took its seat: nothing to tell it
    accepted = client.post(f"/v1/me/invitations/match-{match['id']}/accept",
                           headers=bearer(guest["key"]))
    assert accepted.status_code == 200
    for who in (host, guest):
        kinds = [d["kind"] for d in log(client, who["key"])]
        assert "match_found" in kinds
        assert "your_turn" in kinds  # Savanna starts with every seat picking
    tournament = client.post("/v1/tournaments", json={
        "game": "savanna", "format": "round_robin", "entrants": [
            {"account": guest["id"]}, {"bot": {"kind": "random"}}]})
    assert tournament.status_code == 201, tournament.get_data(as_text=True)
    newest = log(client, guest["key"])[0]
    assert (newest["kind"], newest["data"]["kind"]) == ("challenge", "tournament")


def test_the_notification_webhook_is_checked_and_the_log_answers(client: FlaskClient) -> None:
    owner = account(client, "Owner")
    headers = bearer(owner["key"])
    assert client.get("/v1/me/notification-webhook", headers=headers).get_json() == {
        "url": None}
    refused = client.put("/v1/me/notification-webhook", headers=headers,
                         json={"url": "http://10.1.2.3/hook"})
    assert refused.status_code == 422  # not public, and this app allows no network
    assert client.put("/v1/me/notification-webhook", headers=headers,
                      json={"url": "http://10.1.2.3/hook", "x": 1}).status_code == 422
    assert client.delete("/v1/me/notification-webhook", headers=headers).status_code == 204
    assert client.post("/v1/me/deliveries/not-an-id/redeliver",
                       headers=headers).status_code == 404
    assert client.post(f"/v1/me/deliveries/n_{'0' * 24}/redeliver",
                       headers=headers).status_code == 404
    other = account(client, "Other")
    client.post("/v1/matches", headers=bearer(other["key"]), json={
        "game": "savanna", "seats": [{"kind": "account", "account": other["id"]},
                                     {"kind": "account", "account": owner["id"]}]})
    (challenge,) = log(client, owner["key"])
    again = client.post(f"/v1/me/deliveries/{challenge['id']}/redeliver", headers=headers)
    assert again.status_code == 409  # no webhook to deliver to
    assert client.get("/v1/me/deliveries?limit=0", headers=headers).status_code == 422
    deleted = client.delete("/v1/me", headers=headers)
    assert deleted.status_code == 204
    assert client.get("/v1/me/deliveries", headers=headers).status_code == 401
