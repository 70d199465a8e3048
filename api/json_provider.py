"""The app's JSON answers, written by orjson (:mod:`shared.infra.jsontext`).

Flask's own provider calls the standard ``json`` encoder, a visible share of a move's CPU
time (docs/benchmarks.md). The text is the same JSON in the same field order, compact as
Flask's was (also in debug mode, where Flask indented it), and UTF-8 where Flask wrote
``\\u`` escapes. Request bodies are still read by the standard library (small, and its
errors and big integers are what the API documents).
"""

from __future__ import annotations

from typing import Any

from flask import Response
from flask.json.provider import DefaultJSONProvider

from shared.infra import jsontext


class FastJSONProvider(DefaultJSONProvider):
    """Flask's provider with orjson's encoder; anything orjson cannot write (a ``Decimal``)
    goes through Flask's own conversions."""

    sort_keys = False  # keep the documented field order

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if kwargs:  # an indent or other json.dumps options: Flask's own path
            return super().dumps(obj, **kwargs)
        return jsontext.dumps(obj, default=self.default)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        body = jsontext.dumps_bytes(self._prepare_response_obj(args, kwargs), default=self.default)
        return Response(body + b"\n", mimetype=self.mimetype)  # the app's response class
