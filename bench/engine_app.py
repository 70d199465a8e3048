"""The "game work" baseline of ``bench.bench_load --baseline engine``: the bare app
(``bench.bare_app``: Flask + Redis, the API's round trips) plus the work a move needs from the
game itself, so that the API's own cost (authentication, validation, the match record, clocks,
the log entry, idempotency, ETags, gzip, CORS, metrics, languages) can be told from the game's.

Reading the legal moves: the match and its token in one pipeline, the state decoded and the
seat's legal moves listed with their ids and English labels. A move: that pipeline, the state
decoded, the move found by its id, labelled and applied with a seeded random source, the state
encoded and written with the bare app's compare-and-set script. A finished match starts again.
"""

from __future__ import annotations

import os
import random
import time
from typing import Any

import orjson
import redis
from flask import Flask, request

from shared.games import get_game
from shared.kernel.protocol import State

app = Flask(__name__)
store = redis.Redis.from_url(os.environ["REDIS_URL"], decode_responses=True,
                             max_connections=5000)
GAME = get_game("savanna")
_CAS = store.register_script("""
if redis.call('HGET', KEYS[1], 'version') ~= ARGV[1] then return 0 end
redis.call('ZADD', KEYS[4], ARGV[2], ARGV[3])
redis.call('ZREM', KEYS[5], ARGV[3])
redis.call('ZREM', KEYS[6], ARGV[3])
redis.call('HSET', KEYS[1], 'version', tonumber(ARGV[1]) + 1, 'state', ARGV[4])
redis.call('RPUSH', KEYS[2], ARGV[1])
redis.call('PUBLISH', KEYS[3], ARGV[1])
return 1
""")


def start(match_id: str, seed: int) -> None:
    state = GAME.new_state(2, GAME.resolve_options({}), random.Random(seed))
    store.hset(f"engine:{match_id}", mapping={"version": 1, "state": encode(state)})
    store.hset(f"engine:{match_id}:tok", "t", 0)


def encode(state: State) -> str:
    return orjson.dumps(state.to_json()).decode()


def load(match_id: str) -> tuple[dict[str, str], State]:
    with store.pipeline(transaction=False) as pipe:
        pipe.hgetall(f"engine:{match_id}")
        pipe.hget(f"engine:{match_id}:tok", "t")
        record, _ = pipe.execute()
    return record, GAME.state_from_json(orjson.loads(record["state"]))


@app.post("/engine/<match_id>")
def create(match_id: str) -> dict[str, object]:
    start(match_id, 0)
    return {"version": 1}


@app.get("/engine/<match_id>/moves")
def moves(match_id: str) -> dict[str, object]:
    record, state = load(match_id)
    if state.is_over():
        start(match_id, int(record["version"]))
        record, state = load(match_id)
    seat = int(request.args["seat"])
    return {"version": int(record["version"]), "moves": [
        {"id": state.move_id(m), "label": state.move_label(m), "move": m}
        for m in state.legal_moves(seat)]}


@app.post("/engine/<match_id>/moves")
def move(match_id: str) -> tuple[dict[str, Any], int]:
    record, state = load(match_id)
    body = request.get_json()
    version, seat = int(body["version"]), int(body["seat"])
    if record["version"] != str(version):
        return {"detail": "stale"}, 409
    chosen = state.find_move(seat, body["move_id"])
    label = state.move_label(chosen)
    events = state.apply(seat, chosen, random.Random(version))
    if not _CAS(keys=[f"engine:{match_id}", f"engine:{match_id}:log",
                      f"engine:{match_id}:chg", "engine:active", "engine:deadlines",
                      "engine:waiting"],
                args=[version, time.time(), match_id, encode(state)]):
        return {"detail": "lost"}, 409
    return {"version": version + 1, "label": label, "events": events}, 200
