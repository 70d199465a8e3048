"""The move route's shortcuts (issue 38) change nothing a client sees: a common move body
skips the schema only when the schema would load it unchanged, and a gzipped body is the
same gzip, no larger, however it is set up."""

from __future__ import annotations

import gzip
import json
import random
from typing import Any

import pytest

from api.matches import SUBMIT_MOVE, plain_move
from api.web import gzip_body

PLAIN: list[dict[str, Any]] = [{"version": 0, "move_id": "x"}, {"move_id": "a" * 200, "version": 7},
                               {"version": 2**70, "move_id": "pick 3"}]
# Each is either refused by the schema or loaded by it into something else.
NOT_PLAIN: list[dict[str, Any]] = [
    {"version": True, "move_id": "x"}, {"version": -1, "move_id": "x"},
    {"version": 1.0, "move_id": "x"}, {"version": "1", "move_id": "x"},
    {"version": 1, "move_id": ""}, {"version": 1, "move_id": "a" * 201},
    {"version": 1, "move_id": 5}, {"version": 1, "move_id": None},
    {"version": 1, "move_id": "x", "extra": 1}, {"version": 1, "move": {"type": "x"}},
    {"version": 1}, {"move_id": "x", "spare": 1}]


@pytest.mark.parametrize("body", PLAIN, ids=json.dumps)
def test_a_plain_move_is_what_the_schema_loads(body: dict[str, Any]) -> None:
    assert plain_move(body)
    assert SUBMIT_MOVE.load(body) == body


@pytest.mark.parametrize("body", NOT_PLAIN, ids=json.dumps)
def test_any_other_body_goes_through_the_schema(body: dict[str, Any]) -> None:
    assert not plain_move(body)


@pytest.mark.parametrize("size", [0, 1, 511, 512, 700, 1024, 1025, 5000, 40_000, 200_000])
def test_gzip_body_is_gzip_no_larger_than_the_default(size: int) -> None:
    rng = random.Random(size)
    data = json.dumps([{"id": f"m{i}", "label": rng.choice(["pick", "place", "feed"])}
                       for i in range(size // 20 + 1)]).encode()[:size]
    packed = gzip_body(data)
    assert gzip.decompress(packed) == data
    assert len(packed) <= len(gzip.compress(data, compresslevel=6))
