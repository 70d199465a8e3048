"""A revoked key over the real stack: gunicorn with two worker processes (each its own
stores), both having served the key, refuse it from the request after the revocation."""

from __future__ import annotations

import uuid
from pathlib import Path

from tests.integration.conftest import Client, running_api, stack_env


def test_a_revoked_key_is_refused_by_every_gunicorn_worker(redis_url: str,
                                                           tmp_path: Path) -> None:
    with running_api(stack_env(redis_url), tmp_path, workers=2) as url:
        client = Client(url)
        name = f"Rotor {uuid.uuid4().hex[:8]}"
        created = client.call("POST", "/v1/accounts", json={"name": name})
        assert created.status_code == 201, created.text
        old = created.json()["key"]
        # Many requests, fresh connections: both workers serve (and used to remember) the key.
        for _ in range(20):
            seen = Client(url)
            assert seen.call("GET", "/v1/me/turns", old).status_code == 200
            assert seen.call("GET", "/v1/me", old).status_code == 200
        new = client.call("POST", "/v1/me/keys", old, json={"name": "next"})
        assert new.status_code == 201, new.text
        assert client.call("DELETE", "/v1/me/keys/default", new.json()["key"]).status_code == 204
        for _ in range(20):
            fresh = Client(url)
            assert fresh.call("GET", "/v1/me/turns", old).status_code == 401
            assert fresh.call("GET", "/v1/me", old).status_code == 401
            assert fresh.call("GET", "/v1/me", new.json()["key"]).status_code == 200
