"""Redis memory a match takes: new, finished with its full log, and kept after its end, per
registered game.

Creates ``--matches`` two-human matches of every game in a fresh redis-server (through the
real service, with the default ``ENDED_TTL``/``LOG_TTL``/``RESULT_TTL``) and reads Redis's
``used_memory`` before and after; then plays ``--finished`` of them to the end with random
legal moves and measures again, with the Redis server's CPU time a played move costs
(``INFO cpu``: the sizing of the match store in docs/operations.md); then deletes the finished
matches' state and tokens, as their ``ENDED_TTL`` expiry does, and measures what stays for
``LOG_TTL``/``RESULT_TTL`` (the compacted log and the kept result). ``MEMORY USAGE`` of one
match's keys is printed beside each average.

    python -m bench.bench_memory --matches 200 --finished 20
"""

from __future__ import annotations

import argparse
import random
import tempfile
from pathlib import Path

import redis

from scripts.localredis import free_port, start_redis
from shared.games import all_games
from shared.infra.config import Settings
from shared.matches.service import MatchService
from shared.matches.store import MatchStore, match_key
from shared.services import match_service


def key_bytes(client: redis.Redis, match_id: str) -> int:
    return sum(int(client.memory_usage(key, samples=0) or 0)
               for key in client.scan_iter(match_key(match_id) + "*"))


def redis_cpu(client: redis.Redis) -> float:
    """CPU seconds the Redis server has used (user + system, its main thread and all)."""
    info = client.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def used(client: redis.Redis) -> int:
    return int(client.info("memory")["used_memory"])


def play_out(service: MatchService, match_id: str, rng: random.Random) -> int:
    record, moves = service.load(match_id), 0
    while record.status == "running":
        seat = record.to_move[0]
        move = rng.choice(service.legal_moves(record, seat))["id"]
        service.submit_move(match_id, seat, record.version, move)
        record, moves = service.load(match_id), moves + 1
    return moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--finished", type=int, default=20)
    args = parser.parse_args()
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        process = start_redis(Path(tmp), port, appendonly=False)
        try:
            client = redis.Redis(port=port, decode_responses=True)
            defaults = Settings.from_env()
            store = MatchStore(client, defaults.ended_ttl, defaults.result_ttl,
                               defaults.log_ttl)
            service = match_service(store, lambda *_: None)
            for game in all_games():
                client.flushall()
                base = used(client)
                humans = [{"kind": "human"} for _ in range(game.min_players)]
                ids = [service.create_match(game.id, {}, None, humans)[0].id
                       for _ in range(args.matches)]
                new = (used(client) - base) / args.matches
                one_new = key_bytes(client, ids[0])
                cpu_before = redis_cpu(client)
                moves = [play_out(service, match_id, rng) for match_id in ids[:args.finished]]
                cpu_per_move = (redis_cpu(client) - cpu_before) / max(sum(moves), 1)
                grown = used(client) - base
                finished = (grown - new * (args.matches - args.finished)) / args.finished
                one_done = key_bytes(client, ids[0])
                for match_id in ids[:args.finished]:  # what ENDED_TTL's expiry removes
                    client.delete(match_key(match_id), match_key(match_id, ":tok"))
                kept = (used(client) - base - new * (args.matches - args.finished)
                        ) / args.finished
                one_kept = key_bytes(client, ids[0])
                print(f"{game.id}: new match {new / 1024:.1f} KiB (MEMORY USAGE "
                      f"{one_new / 1024:.1f} KiB); finished ({sum(moves) / len(moves):.0f} "
                      f"moves on average) {finished / 1024:.1f} KiB (MEMORY USAGE "
                      f"{one_done / 1024:.1f} KiB); kept after ENDED_TTL "
                      f"{kept / 1024:.1f} KiB (MEMORY USAGE {one_kept / 1024:.1f} KiB); "
                      f"{args.matches} created, {args.finished} finished, "
                      f"{game.min_players} players; Redis CPU {cpu_per_move * 1e6:.0f} us a "
                      "move (every command of a played move)")
            client.close()
        finally:
            process.terminate()
            process.wait(timeout=10)


if __name__ == "__main__":
    main()
