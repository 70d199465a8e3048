"""The webhook signing secret over HTTP: shown once at registration, never by ``/v1/me``,
replaced (and shown once again) by ``POST /v1/me/webhook-secret`` with the account's key."""

from __future__ import annotations

from flask.testing import FlaskClient

from shared.accounts.store import AccountStore
from shared.infra.redis_client import connect
from tests.api.test_openapi import check

PATH = "/v1/me/webhook-secret"


def test_the_secret_is_shown_once_and_rotated_with_the_key_only(client: FlaskClient,
                                                                redis_url: str) -> None:
    response = client.post("/v1/accounts", json={"name": "Signer",
                                                  "webhook": "https://93.184.215.14/hook"})
    created = check(response, "/v1/accounts", "POST")  # a literal address: nothing resolves
    assert response.status_code == 201
    first, key = created["webhook_secret"], created["key"]
    store = AccountStore(connect(redis_url))
    assert first.startswith("whsec_") and store.webhook_secret(created["id"], "x") == first
    auth = {"Authorization": f"Bearer {key}"}
    assert "webhook_secret" not in check(client.get("/v1/me", headers=auth), "/v1/me", "GET")

    for headers in ({}, {"Authorization": "Bearer evk_stranger"}):
        refused = client.post(PATH, headers=headers)
        assert refused.status_code == 401
        check(refused, PATH, "POST")
    assert store.webhook_secret(created["id"], "x") == first  # unchanged by a stranger

    rotated = client.post(PATH, headers=auth)
    assert rotated.status_code == 200
    second = check(rotated, PATH, "POST")["webhook_secret"]
    assert second.startswith("whsec_") and second != first
    assert store.webhook_secret(created["id"], "x") == second
    assert "webhook_secret" not in client.get("/v1/me", headers=auth).get_json()
