"""A player's rating history through the HTTP routes (issue 39): served as JSON against the
contract, and drawn by the server as an SVG line on the player's page; the leaderboard (JSON
and page) marks the anchors."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import redis
from flask.testing import FlaskClient

from api.rating_chart import HEIGHT, LABEL, PAD, WIDTH, history_svg
from shared.games import all_games
from shared.infra.redis_client import connect
from shared.ratings import model as ratings
from shared.ratings.anchors import read
from shared.ratings.store import RatingStore
from tests.api.test_openapi import check

HISTORY = "/v1/games/{game_id}/ratings/{player}/history"
SVG = "{http://www.w3.org/2000/svg}"


def rate_matches(redis_url: str, outcomes: list[list[int]]) -> None:
    """Rate matches between an account and the ``greedy`` anchor, as the finish handling
    does (the repository's anchors)."""
    store = RatingStore(connect(redis_url))
    players = [("account:0123456789abcdef", "Ada <script>"), ("bot:greedy", "greedy")]
    for n, places in enumerate(outcomes):
        store.rate_once("savanna", f"match{n}", players,
                        lambda current, p=places: ratings.rate(current, p))  # type: ignore[misc]


def test_the_history_is_served_against_the_contract(client: FlaskClient, redis_url: str,
                                                    redis_client: redis.Redis) -> None:
    rate_matches(redis_url, [[1, 2], [1, 2], [2, 1]])
    url = "/v1/games/savanna/ratings/account:0123456789abcdef/history"
    found = check(client.get(url), HISTORY, "GET")
    assert found["player"] == "account:0123456789abcdef" and found["anchor"] is False
    assert found["account"] == "0123456789abcdef" and found["rating"]["matches"] == 3
    assert [e["match"] for e in found["history"]] == ["match0", "match1", "match2"]
    assert found["history"][0]["conservative"] < found["history"][1]["conservative"]
    assert found["history"][-1]["mu"] == found["rating"]["mu"]
    assert [e["match"] for e in check(client.get(url + "?limit=2"), HISTORY, "GET")[
        "history"]] == ["match1", "match2"]
    bot = check(client.get("/v1/games/savanna/ratings/bot:greedy/history"), HISTORY, "GET")
    fixed = read().fixed("savanna", ["bot:greedy"])["bot:greedy"]
    assert bot["anchor"] is True and bot["rating"]["mu"] == fixed["mu"]
    assert {e["mu"] for e in bot["history"]} == {fixed["mu"]}

    board = check(client.get("/v1/games/savanna/leaderboard"),
                  "/v1/games/{game_id}/leaderboard", "GET")["leaderboard"]
    assert {row["player"]: row["anchor"] for row in board} == {
        "account:0123456789abcdef": False, "bot:greedy": True}

    for path, status in (("/v1/games/savanna/ratings/account:nobody/history", 404),
                         ("/v1/games/nope/ratings/bot:greedy/history", 404),
                         ("/v1/games/savanna/ratings/greedy/history", 404),
                         (url + "?limit=0", 422), (url + "?limit=501", 422),
                         (url + "?since=1", 422)):
        response = client.get(path)
        assert response.status_code == status, path
        check(response, HISTORY, "GET")


def test_the_player_page_draws_the_conservative_rating_as_an_svg_line(
        client: FlaskClient, redis_url: str, redis_client: redis.Redis) -> None:
    rate_matches(redis_url, [[1, 2], [1, 2], [2, 1], [1, 2]])
    history = check(client.get("/v1/games/savanna/ratings/account:0123456789abcdef/history"),
                    HISTORY, "GET")["history"]
    page = client.get("/ratings/savanna/account:0123456789abcdef")
    html = check(page, "/ratings/{game_id}/{player}", "GET")
    assert page.mimetype == "text/html" and "<script>" not in html  # the name is escaped
    assert "Ada &lt;script&gt;" in html
    svg = ET.fromstring(re.search(r"<svg.*?</svg>", html, re.S).group(0))  # type: ignore[union-attr]
    line = svg.find(f"{SVG}polyline")
    assert line is not None
    points = [tuple(map(float, p.split(","))) for p in line.attrib["points"].split()]
    assert len(points) == 4
    values = [e["conservative"] for e in history]
    # Higher rating, higher on the chart (smaller y); the lowest and highest at the edges.
    for (_, y0), (_, y1), v0, v1 in zip(points, points[1:], values, values[1:], strict=False):
        assert (y1 < y0) == (v1 > v0)
    assert min(y for _, y in points) == PAD and max(y for _, y in points) == HEIGHT - PAD
    assert points[0][0] == LABEL and points[-1][0] == WIDTH - PAD
    texts = [t.text for t in svg.iter(f"{SVG}text")]
    assert f"{max(values):.1f}" in texts and f"{min(values):.1f}" in texts
    for entry in history:
        assert f"/play/{entry['match']}" in html
    # Counts read right for one match too (it said "1 rated matches").
    assert "Rated matches: 4." in html and "(4 shown)" in html

    bot_page = client.get("/ratings/savanna/bot:greedy")
    assert bot_page.status_code == 200 and "fixed rating" in bot_page.get_data(as_text=True)
    for path in ("/ratings/savanna/account:nobody", "/ratings/nope/bot:greedy"):
        missing = client.get(path)
        assert missing.status_code == 404
        check(missing, "/ratings/{game_id}/{player}", "GET")


def test_the_leaderboard_page_marks_anchors(client: FlaskClient, redis_url: str,
                                            redis_client: redis.Redis) -> None:
    empty = client.get("/leaderboard/savanna")
    assert "No rated match yet" in check(empty, "/leaderboard/{game_id}", "GET")
    rate_matches(redis_url, [[1, 2]])
    html = check(client.get("/leaderboard/savanna"), "/leaderboard/{game_id}", "GET")
    rows = re.findall(r"<tr( class=\"anchor-row\")?>(.*?)</tr>", html, re.S)[1:]
    marked = {("greedy" in row, bool(anchor)) for anchor, row in rows}
    assert marked == {(True, True), (False, False)}
    assert '/ratings/savanna/account:0123456789abcdef' in html
    assert client.get("/leaderboard/nope").status_code == 404
    lobby = client.get("/").get_data(as_text=True)
    first = next(iter(all_games())).id
    assert f'href="/leaderboard/{first}"' in lobby
    for game in all_games():  # the leaderboard page links every game's
        assert f'href="/leaderboard/{game.id}"' in html
    check(client.get("/leaderboard/nope"), "/leaderboard/{game_id}", "GET")


def test_the_chart_of_no_match_or_one_match() -> None:
    assert "no rated match yet" in history_svg([], "t")
    one = ET.fromstring(history_svg([{"conservative": 3.0}], "a & b"))
    assert one.find(f"{SVG}title").text == "a & b"  # type: ignore[union-attr]
    assert one.find(f"{SVG}polyline").attrib["points"] == f"{LABEL}.0,{HEIGHT - PAD}.0"  # type: ignore[union-attr]
