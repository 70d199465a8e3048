"""``GET /v1/games/{game_id}/components``: every game's catalogue answers, fits the contract,
is cacheable by anyone (strong ETag, ``Cache-Control: public``) and revalidates with a 304.

What the catalogue holds (every id a view names, names and texts) is checked without the API
in ``tests/shared/test_components.py``.
"""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.api.test_openapi import SPEC, check

PATH = "/v1/games/{game_id}/components"


def test_every_game_catalogue_answers_and_fits_the_contract(client: FlaskClient) -> None:
    games = [game["id"] for game in client.get("/v1/games").get_json()["games"]]
    assert games
    for game_id in games:
        response = client.get(f"/v1/games/{game_id}/components")
        assert response.status_code == 200, game_id
        body = check(response, PATH, "GET")
        assert body["game"] == game_id and body["components"], game_id
        assert {c["category"] for c in body["components"]} == {
            c["id"] for c in body["categories"]}, game_id


def test_the_catalogue_is_public_and_revalidates_with_a_304(client: FlaskClient) -> None:
    game_id = client.get("/v1/games").get_json()["games"][0]["id"]
    url = f"/v1/games/{game_id}/components"
    first = client.get(url)
    tag = first.headers["ETag"]
    assert not tag.startswith("W/"), "a strong ETag"
    assert first.headers["Cache-Control"] == "public, max-age=3600"
    assert "Authorization" not in first.headers.get("Vary", "")  # the same for every seat
    again = client.get(url, headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.get_data() == b""
    assert "304" in SPEC["paths"][PATH]["get"]["responses"]
    assert again.headers["ETag"] == tag
    assert again.headers["Cache-Control"] == "public, max-age=3600"
    other = client.get(url, headers={"If-None-Match": '"not-this-one"'})
    assert other.status_code == 200 and other.get_data() == first.get_data()
    # Another game's catalogue is another body, so another tag.
    second = client.get("/v1/games").get_json()["games"][1]["id"]
    assert client.get(f"/v1/games/{second}/components").headers["ETag"] != tag


def test_a_seat_answer_stays_private(client: FlaskClient) -> None:
    """Only a route that says ``public`` is cacheable by shared caches: the rest keep
    ``private, no-cache``."""
    response = client.get("/v1/games")
    assert response.headers["Cache-Control"] == "private, no-cache"
    assert "Authorization" in response.headers.get("Vary", "")


def test_unknown_game_and_unknown_query_are_problems(client: FlaskClient) -> None:
    missing = client.get("/v1/games/no-such-game/components")
    assert missing.status_code == 404
    check(missing, PATH, "GET")
    game_id = client.get("/v1/games").get_json()["games"][0]["id"]
    # ``lang`` is the catalogue's language (tests/api/test_languages_api.py); others are refused.
    refused = client.get(f"/v1/games/{game_id}/components?language=fi")
    assert refused.status_code == 422
    check(refused, PATH, "GET")
