"""Input checked before any engine or Redis key is touched, and fair, checkable dealing.

Issue 18: ids by pattern, unknown query parameters refused on every operation, chunked
bodies over the limit 413, malformed moves refused before the engine, client seeds marked and
the seed committed to at the start and revealed at the end.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from api.guards import declared_query_parameters
from bench.round_trips import RoundTrips
from tests.api.test_errors import TWO_HUMANS, assert_problem


def created(client: FlaskClient, **extra: Any) -> dict[str, Any]:
    response = client.post("/v1/matches", json={**TWO_HUMANS, **extra})
    assert response.status_code == 201, response.get_data(as_text=True)
    return response.get_json()


#: Every route that takes a match or tournament id, with its method.
MATCH_ROUTES = (("GET", ""), ("GET", "/events"), ("GET", "/stream"), ("GET", "/moves"),
                ("GET", "/hint"), ("POST", "/join"), ("POST", "/moves"))
TOURNAMENT_ROUTES = (("GET", ""), ("GET", "/matches"), ("GET", "/results"),
                     ("GET", "/stream"), ("POST", "/cancel"))


@pytest.mark.parametrize("suffix", [":tok", ":log", ":idem:x", ":lease:0:1", "*", "%2A",
                                    "F3489383062A8D04", "f3489383062a8d0", "0" * 17])
def test_ids_not_of_the_pattern_are_404_before_redis(client: FlaskClient, suffix: str) -> None:
    """Refused by the guard itself: not one Redis round trip is spent on the request (without
    the guard, most of these would still be 404, from the store, after asking Redis)."""
    match_id = created(client)["id"]
    bad = match_id + suffix if suffix[0] in ":*%" else suffix
    for method, path in MATCH_ROUTES:
        with RoundTrips() as trips:
            response = client.open(f"/v1/matches/{bad}{path}", method=method, json={})
        assert_problem(response, 404, mentions="no match")
        assert trips.count == 0, (method, path, trips.count)
    for method, path in TOURNAMENT_ROUTES:
        with RoundTrips() as trips:
            response = client.open(f"/v1/tournaments/{bad}{path}", method=method, json={})
        assert_problem(response, 404, mentions="no tournament")
        assert trips.count == 0, (method, path, trips.count)
    with RoundTrips() as trips:
        response = client.get(f"/play/{bad}")
    assert response.status_code == 404 and trips.count == 0


def test_well_formed_unknown_ids_are_looked_up(client: FlaskClient) -> None:
    """The control of the test above: an id of the pattern reaches the store (its 404 costs
    round trips), so a count of 0 there is the guard's doing, not a counter that sees nothing."""
    for url, mentions in (("/v1/matches/0123456789abcdef", "match"),
                          ("/v1/tournaments/0123456789abcdef", "tournament")):
        with RoundTrips() as trips:
            response = client.get(url)
        assert_problem(response, 404, mentions=mentions)
        assert trips.count >= 1


@pytest.mark.parametrize(("method", "path"), [
    ("POST", "/v1/matches"), ("POST", "/v1/matches/{id}/join"), ("GET", "/v1/matches/{id}"),
    ("GET", "/v1/matches/{id}/moves"), ("POST", "/v1/matches/{id}/moves"),
    ("GET", "/v1/matches/{id}/events"), ("GET", "/v1/games"), ("POST", "/v1/accounts")])
def test_unknown_query_parameters_are_refused(client: FlaskClient, method: str,
                                              path: str) -> None:
    match = created(client, seats=[{"kind": "human"}, {"kind": "open"}])
    url = path.replace("{id}", match["id"]) + "?bogus=1"
    response = client.open(url, method=method, json={"version": 1},
                           headers={"Authorization": f"Bearer {match['tokens'][0]['token']}"})
    problem = assert_problem(response, 422, mentions="bogus")
    assert problem["errors"] == {"bogus": ["Unknown field."]}


def test_declared_query_parameters_come_from_the_contract() -> None:
    declared = declared_query_parameters()
    assert declared[("GET", "/v1/matches/{match_id}")] == {"version", "wait"}
    assert declared[("POST", "/v1/matches")] == frozenset()


@pytest.mark.parametrize(("move", "mentions"), [
    ({"type": ["pick"]}, "type"), ({"type": {"a": 1}}, "type"), ({"card": 1}, "type"),
    ({"type": "pick", "card": {"nested": [1]}}, "card"),
    ({"type": "pick", "card": [[1]]}, "card"),
    ({"type": "pick", "card": 10**30}, "card"),
    ({"type": "pick", "card": "x" * 500}, "card"),
    ({"type": "pick", **{f"f{i}": 1 for i in range(40)}}, "fields"),
    ({"type": "pick", "card": list(range(500))}, "card")])
def test_malformed_moves_are_422_before_the_engine(client: FlaskClient, move: dict[str, Any],
                                                   mentions: str) -> None:
    match = created(client)
    response = client.post(f"/v1/matches/{match['id']}/moves", json={
        "version": match["version"], "move": move},
        headers={"Authorization": f"Bearer {match['tokens'][0]['token']}"})
    problem = assert_problem(response, 422, mentions=mentions)
    assert problem["version"] == match["version"]
    # Refused by the shape check, not by the engine (whose refusal is an "illegal move" that
    # names the same fields).
    assert problem["detail"].startswith("malformed move: "), problem["detail"]


def test_a_client_seed_is_marked_for_every_seat(client: FlaskClient) -> None:
    match = created(client, seed=42, seats=[{"kind": "human"}, {"kind": "open"}])
    assert match["seeded"] is True and match["seed"] is None
    joined = client.post(f"/v1/matches/{match['id']}/join", json={}).get_json()
    assert joined["match"]["seeded"] is True
    for token in (match["tokens"][0]["token"], joined["token"], None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        assert client.get(f"/v1/matches/{match['id']}", headers=headers).get_json()[
            "seeded"] is True
    assert created(client)["seeded"] is False


def test_identical_requests_deal_differently(client: FlaskClient) -> None:
    """Without a client seed, nothing in the request decides the cards."""
    views = []
    for _ in range(2):
        match = created(client)
        assert match["seed"] is None and len(match["seed_commitment"]) == 64
        headers = {"Authorization": f"Bearer {match['tokens'][0]['token']}"}
        views.append(client.get(f"/v1/matches/{match['id']}", headers=headers).get_json()[
            "view"])
    assert views[0] != views[1]
