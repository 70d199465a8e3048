"""What browsers and phones rely on: CORS, ETags and 304s, gzip, the faithful event stream."""

from __future__ import annotations

import dataclasses
import gzip
import json
import zlib
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api import create_app
from shared.infra.config import Settings

ORIGIN = "https://play.example"


def new_match(client: FlaskClient, seats: int = 2) -> tuple[str, dict[int, str]]:
    created = client.post("/v1/matches", json={"game": "savanna", "seed": 5,
                                               "seats": [{"kind": "human"}] * seats})
    assert created.status_code == 201
    body = created.get_json()
    return body["id"], {t["seat"]: t["token"] for t in body["tokens"]}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_cors_answers_any_origin_and_preflight(client: FlaskClient) -> None:
    preflight = client.options("/v1/matches", headers={
        "Origin": ORIGIN, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type, authorization"})
    assert preflight.status_code == 200
    assert preflight.headers["Access-Control-Allow-Origin"] == "*"
    assert "POST" in preflight.headers["Access-Control-Allow-Methods"]
    allowed = preflight.headers["Access-Control-Allow-Headers"].lower()
    assert "authorization" in allowed and "content-type" in allowed
    assert "Access-Control-Allow-Credentials" not in preflight.headers
    match_id, _ = new_match(client)
    for url in (f"/v1/matches/{match_id}", "/v1/nowhere"):  # errors too
        response = client.get(url, headers={"Origin": ORIGIN})
        assert response.headers["Access-Control-Allow-Origin"] == "*"
        assert "ETag" in response.headers["Access-Control-Expose-Headers"]


def test_cors_origins_come_from_configuration(redis_url: str) -> None:
    settings = dataclasses.replace(Settings.from_env(), redis_url=redis_url,
                                   broker_url=redis_url, cors_origins=f"{ORIGIN}, http://b")
    app: Flask = create_app(settings)
    with app.test_client() as client:
        allowed = client.get("/v1/games", headers={"Origin": ORIGIN})
        assert allowed.headers["Access-Control-Allow-Origin"] == ORIGIN
        assert "Origin" in allowed.headers["Vary"]
        other = client.get("/v1/games", headers={"Origin": "https://evil.example"})
        assert "Access-Control-Allow-Origin" not in other.headers


@pytest.mark.parametrize("path", ["/v1/games", "/v1/matches", "/static/arena.css"])
def test_a_304_carries_cors_headers(client: FlaskClient, path: str) -> None:
    """A browser checks CORS on a 304 as on a 200: a cross-origin page that revalidates
    with If-None-Match must get Access-Control-Allow-Origin on it (issue 40)."""
    first = client.get(path, headers={"Origin": ORIGIN})
    assert first.status_code == 200 and first.headers["ETag"]
    again = client.get(path, headers={"Origin": ORIGIN, "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    assert again.headers["Access-Control-Allow-Origin"] == "*"
    assert "ETag" in again.headers["Access-Control-Expose-Headers"]


def test_a_304_carries_the_configured_origin(redis_url: str) -> None:
    settings = dataclasses.replace(Settings.from_env(), redis_url=redis_url,
                                   broker_url=redis_url, cors_origins=ORIGIN)
    with create_app(settings).test_client() as client:
        first = client.get("/v1/games", headers={"Origin": ORIGIN})
        again = client.get("/v1/games", headers={"Origin": ORIGIN,
                                                 "If-None-Match": first.headers["ETag"]})
        assert again.status_code == 304
        assert again.headers["Access-Control-Allow-Origin"] == ORIGIN
        assert "Origin" in again.headers["Vary"]
        other = client.get("/v1/games", headers={"Origin": "https://evil.example",
                                                 "If-None-Match": first.headers["ETag"]})
        assert other.status_code == 304 and "Access-Control-Allow-Origin" not in other.headers


@pytest.mark.parametrize("path", ["", "/moves", "/events"])
def test_etag_answers_if_none_match_with_304(client: FlaskClient, path: str) -> None:
    match_id, tokens = new_match(client)
    url = f"/v1/matches/{match_id}{path}"
    first = client.get(url, headers=bearer(tokens[0]))
    assert first.status_code == 200 and first.headers["ETag"]
    assert "Authorization" in first.headers["Vary"]
    again = client.get(url, headers={**bearer(tokens[0]),
                                     "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    assert again.headers["ETag"] == first.headers["ETag"]
    moves = client.get(f"/v1/matches/{match_id}/moves", headers=bearer(tokens[1])).get_json()
    client.post(f"/v1/matches/{match_id}/moves", headers=bearer(tokens[1]),
                json={"version": moves["version"], "move_id": moves["moves"][0]["id"]})
    changed = client.get(url, headers={**bearer(tokens[0]),
                                       "If-None-Match": first.headers["ETag"]})
    assert changed.status_code == 200 and changed.headers["ETag"] != first.headers["ETag"]


def test_json_is_gzipped_for_clients_that_accept_it(client: FlaskClient) -> None:
    match_id, tokens = new_match(client, 4)
    plain = client.get(f"/v1/matches/{match_id}", headers=bearer(tokens[0]))
    packed = client.get(f"/v1/matches/{match_id}",
                        headers={**bearer(tokens[0]), "Accept-Encoding": "gzip, br"})
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert json.loads(gzip.decompress(packed.data)) == plain.get_json()
    assert len(packed.data) < len(plain.data) / 2
    revalidated = client.get(f"/v1/matches/{match_id}", headers={
        **bearer(tokens[0]), "Accept-Encoding": "gzip", "If-None-Match": packed.headers["ETag"]})
    assert revalidated.status_code == 304
    # The 304 names the representation revalidated: the gzipped one's tag (issue 40).
    assert revalidated.headers["ETag"] == packed.headers["ETag"]


def read_events(client: FlaskClient, url: str, headers: dict[str, str] | None = None,
                stop_after: int = 100) -> list[dict[str, Any]]:
    """The events of a stream (``name``, ``id``, ``data``) until it ends or ``stop_after``."""
    response = client.get(url, headers=headers or {}, buffered=False)
    assert response.status_code == 200, response.status_code
    unzip = (zlib.decompressobj(31) if response.headers.get("Content-Encoding") == "gzip"
             else None)
    buffer, events = "", []
    try:
        for chunk in response.response:
            raw = chunk if isinstance(chunk, bytes) else chunk.encode()
            buffer += (unzip.decompress(raw) if unzip else raw).decode()
            while "\n\n" in buffer and len(events) < stop_after:
                block, buffer = buffer.split("\n\n", 1)
                fields = dict(line.split(": ", 1) for line in block.split("\n")
                              if not line.startswith(":") and ": " in line)
                if "event" in fields:
                    events.append({"name": fields["event"], "id": int(fields["id"]),
                                   "data": json.loads(fields["data"])})
            if len(events) >= stop_after:
                break
    finally:
        response.close()
    return events


def play_to_the_end(client: FlaskClient, match_id: str, tokens: dict[int, str]) -> int:
    while True:
        match = client.get(f"/v1/matches/{match_id}").get_json()
        if match["status"] == "finished":
            return match["version"]
        seat = match["to_move"][0]
        moves = client.get(f"/v1/matches/{match_id}/moves", headers=bearer(tokens[seat]))
        listed = moves.get_json()
        client.post(f"/v1/matches/{match_id}/moves", headers=bearer(tokens[seat]),
                    json={"version": listed["version"], "move_id": listed["moves"][0]["id"]})


def test_stream_replays_every_version_once_redacted_then_ends(client: FlaskClient) -> None:
    match_id, tokens = new_match(client)
    url = f"/v1/matches/{match_id}/stream"
    live = read_events(client, url, stop_after=1)
    assert [(e["name"], e["id"]) for e in live] == [("version", 1)]
    assert live[0]["data"]["entry"] is None
    # Three moves, then a reconnect from version 2 gets versions 3 and 4, redacted for seat 0.
    for _ in range(3):
        match = client.get(f"/v1/matches/{match_id}").get_json()
        seat = match["to_move"][0]
        listed = client.get(f"/v1/matches/{match_id}/moves",
                            headers=bearer(tokens[seat])).get_json()
        client.post(f"/v1/matches/{match_id}/moves", headers=bearer(tokens[seat]),
                    json={"version": listed["version"], "move_id": listed["moves"][0]["id"]})
    resumed = read_events(client, url, {**bearer(tokens[0]), "Last-Event-ID": "2"}, 2)
    assert [e["id"] for e in resumed] == [3, 4]
    for event in resumed:
        entry = event["data"]["entry"]
        assert entry["version"] == event["id"]
        assert ("move" in entry) == (entry["seat"] == 0)  # only seat 0's own move shows
    final = play_to_the_end(client, match_id, tokens)
    rest = read_events(client, url, {"Last-Event-ID": "4", "Accept-Encoding": "gzip"})
    assert [e["id"] for e in rest] == [*range(5, final + 1), final]
    assert rest[-1]["name"] == "end" and rest[-1]["data"]["result"] is not None
    assert all("move" in e["data"]["entry"] for e in rest[:-1])  # over: nothing is secret
    done = client.get(url, headers={"Last-Event-ID": str(final)})
    assert done.status_code == 204


def test_the_lobby_lists_matches_not_over(client: FlaskClient) -> None:
    from tests.api.test_openapi import check

    waiting = client.post("/v1/matches", json={"game": "savanna", "seats": [
        {"kind": "human"}, {"kind": "open"}]}).get_json()
    running, _ = new_match(client)
    listed = check(client.get("/v1/matches?limit=100"), "/v1/matches", "GET")["matches"]
    ids = [m["id"] for m in listed]
    assert ids.index(running) < ids.index(waiting["id"])  # the latest change first
    open_only = client.get("/v1/matches?open=true&limit=100").get_json()["matches"]
    assert waiting["id"] in [m["id"] for m in open_only]
    assert running not in [m["id"] for m in open_only]
    assert all(m["open_seats"] for m in open_only)
    by_status = client.get("/v1/matches?status=running&game=savanna").get_json()["matches"]
    assert by_status and all(m["status"] == "running" for m in by_status)
    assert client.get("/v1/matches?status=finished").status_code == 422
    assert "token" not in json.dumps(listed)


def test_swagger_ui_is_served_from_the_package(client: FlaskClient) -> None:
    page = client.get("/docs/try/")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert '"url": "/openapi.yaml"' in html
    scripts = [src for src in html.split('src="')[1:]]
    assert scripts and all(src.startswith("/docs/try/") for src in scripts)  # no CDN
    bundle = client.get("/docs/try/swagger-ui-bundle.js")
    assert bundle.status_code == 200 and len(bundle.data) > 100_000
    assert client.get("/docs/try/no-such-file.js").status_code == 404
    assert 'href="/docs/try/"' in client.get("/docs").get_data(as_text=True)


def test_the_lobby_tells_a_seeded_match(client: FlaskClient) -> None:
    """A seed the creator chose foresees every hidden card: the lobby says so (issue 39)."""
    from tests.api.test_openapi import check

    seats = [{"kind": "human"}, {"kind": "open"}]
    seeded = client.post("/v1/matches", json={"game": "savanna", "seed": 5,
                                              "seats": seats}).get_json()
    drawn = client.post("/v1/matches", json={"game": "savanna", "seats": seats}).get_json()
    listed = check(client.get("/v1/matches?limit=100"), "/v1/matches", "GET")["matches"]
    by_id = {m["id"]: m for m in listed}
    assert by_id[seeded["id"]]["seeded"] is True
    assert by_id[drawn["id"]]["seeded"] is False
