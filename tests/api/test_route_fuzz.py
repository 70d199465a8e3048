"""Random JSON at every route (issue 18): whatever the body, query or id, never a 5xx.

The routes come from the app's own URL map, so a route added later is fuzzed too.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.api.test_errors import TWO_HUMANS
from tests.shared.test_move_fuzz import json_values

ids = st.sampled_from(["{match}", "{tournament}", "0123456789abcdef", "x:tok", "a" * 300])
bodies = json_values | st.dictionaries(st.sampled_from(
    ["game", "seats", "seed", "version", "move", "move_id", "seat", "name", "options",
     "rated", "move_deadline", "format", "entrants", "webhook"]), json_values, max_size=5)
queries = st.dictionaries(st.sampled_from(["version", "wait", "since", "limit", "x"]),
                          st.text(max_size=12), max_size=2)


def routes(app: Flask) -> list[tuple[str, str]]:
    out = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static" or "stream" in rule.rule:  # streams: see test_openapi
            continue
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            out.append((method, rule.rule))
    return out


def test_random_requests_at_every_route_are_never_a_5xx(app: Flask,
                                                        client: FlaskClient) -> None:
    created = client.post("/v1/matches", json={**TWO_HUMANS, "seed": 3}).get_json()
    token = created["tokens"][0]["token"]
    names = {"match_id": created["id"], "tournament_id": "0123456789abcdef",
             "game_id": "savanna"}
    targets = routes(app)

    @settings(max_examples=200, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow,
                                     HealthCheck.function_scoped_fixture])
    @given(route=st.sampled_from(targets), body=bodies, query=queries, raw_id=ids,
           auth=st.booleans(), as_text=st.booleans())
    def check(route: tuple[str, str], body: Any, query: dict[str, str], raw_id: str,
              auth: bool, as_text: bool) -> None:
        method, rule = route
        path = rule
        for name, value in names.items():
            chosen = raw_id.format(match=value, tournament=value) if name != "game_id" \
                else value
            path = path.replace(f"<{name}>", chosen)
        headers = {"Authorization": f"Bearer {token}"} if auth else {}
        data = json.dumps(body) if not as_text else str(body)
        response = client.open(path, method=method, query_string=query, data=data,
                               content_type="application/json", headers=headers)
        assert response.status_code < 500, (method, path, body, response.get_data())

    check()
