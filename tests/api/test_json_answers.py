"""The app's JSON answers (``api.json_provider``, orjson) say what Flask's own provider said:
the same values, in the same field order, for every type Flask knows how to write."""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import json
import uuid
from typing import Any

import pytest
from flask import Flask
from flask.json.provider import DefaultJSONProvider

from api.json_provider import FastJSONProvider


@dataclasses.dataclass
class Seat:
    name: str
    seat: int


VALUES: list[Any] = [
    {"game": "savanna", "version": 3, "moves": [{"id": "pick:lion", "label": "Vyber Lva"}]},
    {"at": datetime.datetime(2026, 12, 5, 7, 0, tzinfo=datetime.UTC),
     "day": datetime.date(2026, 12, 5)},
    {"price": decimal.Decimal("1.50"), "id": uuid.UUID(int=7), "seat": Seat("Ann", 0)},
    [None, True, 1.5, "ü"], "plain", {"name": "\ud800"},
]


APP = Flask(__name__)  # the providers hold their app weakly


@pytest.fixture
def providers() -> tuple[FastJSONProvider, DefaultJSONProvider]:
    flask_own = DefaultJSONProvider(APP)
    flask_own.sort_keys = False  # the app keeps the documented field order
    return FastJSONProvider(APP), flask_own


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_an_answer_holds_what_flasks_provider_wrote(
        providers: tuple[FastJSONProvider, DefaultJSONProvider], value: Any) -> None:
    fast, flask_own = providers
    with APP.app_context():
        ours, theirs = fast.response(value), flask_own.response(value)
    assert ours.mimetype == theirs.mimetype == "application/json"
    assert ours.get_data().endswith(b"\n")
    # The same values in the same field order (pairs kept as lists, nested too).
    assert (json.loads(ours.get_data(), object_pairs_hook=list)
            == json.loads(theirs.get_data(), object_pairs_hook=list))
    assert json.loads(fast.dumps(value), object_pairs_hook=list) == json.loads(
        flask_own.dumps(value), object_pairs_hook=list)


def test_a_type_flask_cannot_write_fails_alike(
        providers: tuple[FastJSONProvider, DefaultJSONProvider]) -> None:
    fast, flask_own = providers
    for provider in (fast, flask_own):
        with pytest.raises(TypeError):
            provider.dumps({"x": object()})
