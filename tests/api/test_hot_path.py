"""The answers' shortcut (issue 38) changes nothing a client sees: a gzipped body is the
same gzip, no larger, however it is set up."""

from __future__ import annotations

import gzip
import json
import random

import pytest

from api.web import gzip_body


@pytest.mark.parametrize("size", [0, 1, 511, 512, 700, 1024, 1025, 5000, 40_000, 200_000])
def test_gzip_body_is_gzip_no_larger_than_the_default(size: int) -> None:
    rng = random.Random(size)
    data = json.dumps([{"id": f"m{i}", "label": rng.choice(["pick", "place", "feed"])}
                       for i in range(size // 20 + 1)]).encode()[:size]
    packed = gzip_body(data)
    assert gzip.decompress(packed) == data
    assert len(packed) <= len(gzip.compress(data, compresslevel=6))
