"""Fair dealing (issue 18): a server seed is committed to at the start, revealed at the end,
checks against its commitment and replays the match; a client seed is marked as such."""

from __future__ import annotations

import hashlib
import random

import pytest
import redis

from shared.games import all_games
from shared.kernel.protocol import Game
from shared.matches.service import MatchService
from shared.matches.store import MatchStore
from shared.services import match_service

GAMES = all_games()


def play_out(service: MatchService, match_id: str, tokens: dict[int, str], rng: random.Random,
             moves: list[str] | None = None) -> list[str]:
    """Play ``moves`` (ids) or random legal ones to the end; the ids played."""
    played: list[str] = []
    record = service.load(match_id)
    while record.status == "running":
        seat = record.to_move[0]
        legal = service.legal_moves(record, seat)
        move_id = moves[len(played)] if moves is not None else rng.choice(legal)["id"]
        service.submit_move(match_id, seat, record.version, move_id)
        played.append(move_id)
        record = service.load(match_id)
    return played


@pytest.mark.parametrize("game", GAMES, ids=[game.id for game in GAMES])
def test_the_revealed_seed_checks_and_replays_the_match(game: Game,
                                                        redis_client: redis.Redis) -> None:
    service = match_service(MatchStore(redis_client), lambda *_: None)
    seats = [{"kind": "human"} for _ in range(game.min_players)]
    record, tokens = service.create_match(game.id, {}, None, seats)
    start = service.describe(record, 0)
    assert start["seed"] is None and start["seeded"] is False
    moves = play_out(service, record.id, tokens, random.Random(3))
    end = service.describe(service.load(record.id), None)
    assert end["status"] == "finished" and end["seed_commitment"] == start["seed_commitment"]
    seed = end["seed"]
    assert hashlib.sha256(f"evo-arena:{record.id}:{seed}".encode()).hexdigest() == \
        start["seed_commitment"]
    replay, _ = service.create_match(game.id, {}, seed, seats)
    assert service.describe(replay, 0)["view"] == start["view"]
    assert service.describe(replay, 0)["seeded"] is True
    play_out(service, replay.id, tokens, random.Random(), moves)
    again = service.describe(service.load(replay.id), None)
    assert again["result"] == end["result"] and again["view"] == end["view"]
    strip = [{k: v for k, v in e.items() if k != "at"} for e in service.events(
        service.load(record.id), None)]
    assert strip == [{k: v for k, v in e.items() if k != "at"} for e in service.events(
        service.load(replay.id), None)]
