"""The bare baseline of ``bench.bench_load``: Flask + Redis doing the API's Redis round trips
under the bench's settings (no rate limits) with no validation, no engine and no JSON of a
game, served by the same ``gunicorn.conf.py``. Reading the legal moves: the match and its
token in one pipeline. A move: that pipeline, then one compare-and-set script that also
updates the global indexes (``evo:active``, ``evo:deadlines``, ``evo:waiting``), as the API's
commit script does on a single Redis, and publishes the new version."""

from __future__ import annotations

import os
import time

import redis
from flask import Flask, request

app = Flask(__name__)
store = redis.Redis.from_url(os.environ["REDIS_URL"], decode_responses=True,
                             max_connections=5000)
_CAS = store.register_script("""
if redis.call('HGET', KEYS[1], 'version') ~= ARGV[1] then return 0 end
redis.call('ZADD', KEYS[4], ARGV[2], ARGV[3])
redis.call('ZREM', KEYS[5], ARGV[3])
redis.call('ZREM', KEYS[6], ARGV[3])
redis.call('HSET', KEYS[1], 'version', tonumber(ARGV[1]) + 1)
redis.call('RPUSH', KEYS[2], ARGV[1])
redis.call('PUBLISH', KEYS[3], ARGV[1])
return 1
""")


@app.post("/bare/<match_id>")
def create(match_id: str) -> dict[str, object]:
    store.hset(f"bare:{match_id}", mapping={"version": 1, "state": "x" * 2000})
    store.hset(f"bare:{match_id}:tok", "t", 0)
    return {"version": 1}


def load_with_seat(match_id: str) -> dict[str, str]:
    with store.pipeline(transaction=False) as pipe:
        pipe.hgetall(f"bare:{match_id}")
        pipe.hget(f"bare:{match_id}:tok", "t")
        record, _ = pipe.execute()
    return record


@app.get("/bare/<match_id>/moves")
def moves(match_id: str) -> dict[str, object]:
    return {"version": int(load_with_seat(match_id)["version"])}


@app.post("/bare/<match_id>/moves")
def move(match_id: str) -> tuple[dict[str, object], int]:
    record = load_with_seat(match_id)
    version = int(request.get_json()["version"])
    if record["version"] != str(version):
        return {"detail": "stale"}, 409
    if not _CAS(keys=[f"bare:{match_id}", f"bare:{match_id}:log", f"bare:{match_id}:chg",
                      "bare:active", "bare:deadlines", "bare:waiting"],
                args=[version, time.time(), match_id]):
        return {"detail": "lost"}, 409
    return {"version": version + 1}, 200
