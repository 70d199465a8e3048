"""Bodies of unknown length (chunked) over the real gunicorn: the limit holds (issue 18)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
import requests

from shared.infra.config import Settings

LIMIT = Settings.from_env().max_body_bytes
TWO_HUMANS = {"game": "savanna", "seats": [{"kind": "human"}, {"kind": "human"}]}


def chunked(*parts: bytes) -> Iterator[bytes]:
    yield from parts  # requests sends a generator body with Transfer-Encoding: chunked


def test_a_chunked_body_over_the_limit_is_413(api_url: str) -> None:
    body = chunked(b'{"game": "savanna", "padding": "', b"x" * LIMIT, b'"}')
    response = requests.post(f"{api_url}/v1/matches", data=body, timeout=30,
                             headers={"Content-Type": "application/json"})
    assert response.status_code == 413, response.text
    assert response.headers["Content-Type"] == "application/problem+json"
    assert str(LIMIT) in response.json()["detail"]


def test_a_small_chunked_body_is_read_whole(api_url: str) -> None:
    text = json.dumps(TWO_HUMANS).encode()
    response = requests.post(f"{api_url}/v1/matches", data=chunked(text[:7], text[7:]),
                             timeout=30, headers={"Content-Type": "application/json"})
    assert response.status_code == 201, response.text


@pytest.mark.parametrize(("headers", "path", "status"), [
    ({}, "/v1/games?x=" + "a" * 5000, 414),
    ({"X-Big": "b" * 9000}, "/v1/games", 431),
])
def test_the_http_server_limits_are_documented_problems(
        api_url: str, headers: dict[str, str], path: str, status: int) -> None:
    """A request line or header over gunicorn's limits is refused by gunicorn itself, before
    the app: as problem+json, the way the contract documents every operation's 414 and 431."""
    response = requests.get(f"{api_url}{path}", headers=headers, timeout=10)
    assert response.status_code == status
    assert response.headers["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["status"] == status and body["type"] == "about:blank" and body["detail"]
    assert response.headers["Access-Control-Allow-Origin"] == "*"  # CORS on every answer
