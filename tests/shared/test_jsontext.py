"""The request path's JSON text (``shared.infra.jsontext``, orjson): the same values as the
standard library's ``json`` writes and reads, and its text for what orjson refuses."""

from __future__ import annotations

import json
from typing import Any

import pytest

from shared.infra import jsontext

VALUES: list[Any] = [None, True, 0, -7, 2**63 - 1, 1.5, 1e-05, 1e300, "", "Čeština ü 😀",
                     'quote " and \\ back', [], {}, [1, [2, {"a": None}]],
                     {"b": 1, "a": 2}, {"nested": {"x": [1.25, "y"]}}]


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_the_text_reads_back_as_json_would(value: Any) -> None:
    text = jsontext.dumps(value)
    assert json.loads(text) == value and jsontext.loads(text) == value
    assert jsontext.loads(json.dumps(value)) == value  # what json.dumps stored reads the same
    assert jsontext.dumps_bytes(value) == text.encode()


def test_key_order_is_kept() -> None:
    """The documented field order of an answer is the order the code builds it in."""
    assert jsontext.dumps({"b": 1, "a": 2, "c": 3}) == '{"b":1,"a":2,"c":3}'


def test_integer_keys_are_written_as_json_writes_them() -> None:
    """A record's per-seat maps have integer keys: strings in the text, as with ``json``."""
    value = {0: 12.5, 3: [1]}
    assert jsontext.loads(jsontext.dumps(value)) == json.loads(json.dumps(value))


@pytest.mark.parametrize("value", [{"name": "\ud800"}, [2**64], {"seed": -(2**70)}], ids=repr)
def test_what_orjson_refuses_is_written_by_json(value: Any) -> None:
    """A lone surrogate (from a client's body) or an integer past 64 bits: ``json``'s text."""
    assert jsontext.dumps(value) == json.dumps(value)
    assert jsontext.dumps_bytes(value) == json.dumps(value).encode()


def test_an_unknown_type_goes_to_default_or_fails_as_json_does() -> None:
    class Point:
        pass

    assert jsontext.dumps([Point()], default=lambda _o: "p") == '["p"]'
    with pytest.raises(TypeError):
        jsontext.dumps(Point())
