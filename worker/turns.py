"""Playing one bot turn and sweeping forgotten ones (the logic behind the Celery tasks)."""

from __future__ import annotations

import json
import logging
import random
import time

from shared.bot_catalogue import budget_of_bot
from shared.errors import ServiceError
from shared.games import get_game
from shared.service import MatchService
from worker.bots import choose_move

log = logging.getLogger(__name__)


def bot_rng(seed: int | None, version: int, seat: int) -> random.Random:
    """A bot's random source: reproducible from the match seed, the version and the seat."""
    return random.Random(f"{seed}:{version}:{seat}")


def play_bot_turn(service: MatchService, match_id: str, seat: int, version: int,
                  lease_seconds: float) -> str:
    """Play seat ``seat``'s move if the match is still at ``version``; says what happened."""
    record = service.store.load(match_id)
    if record is None or record.version != version or seat not in service.bot_seats_due(record):
        return "stale"  # the world moved on; a newer task (or none) is due
    bot = record.seats[seat]["bot"]
    cap = budget_of_bot(bot).time_cap if bot.get("kind") == "ismcts" else 0.0
    # The lease outlives the search cap, so a live task is never duplicated; a task whose
    # worker died frees the turn for the sweep once the lease expires.
    if not service.store.claim_bot_turn(match_id, seat, version, cap + lease_seconds):
        return "claimed"
    game = get_game(record.game)
    state = game.state_from_json(json.loads(record.state))
    view = state.view(seat)
    rng = bot_rng(record.seed, version, seat)
    started = time.monotonic()
    note: dict[str, object] = {"kind": bot.get("kind")}
    try:
        move = choose_move(game, view, seat, bot, rng)
    except Exception:  # a failing search must never hold the match hostage
        log.exception("bot %s failed in match %s seat %s; playing a random legal move",
                      bot, match_id, seat)
        move = rng.choice(state.legal_moves(seat))
        note["fallback"] = True
    note["think_seconds"] = round(time.monotonic() - started, 4)
    try:
        service.submit_move(match_id, seat, version, move, bot=note)
    except ServiceError as exc:
        service.store.release_bot_turn(match_id, seat, version)
        log.info("bot move dropped in match %s seat %s: %s", match_id, seat, exc.detail)
        return "conflict"
    log.info("bot %s played in match %s seat %s v%s after %.3fs", bot.get("kind"), match_id,
             seat, version, note["think_seconds"])
    return "played"


def sweep(service: MatchService, stale_after: float) -> int:
    """Re-enqueue bot turns that have waited longer than ``stale_after`` seconds."""
    now = time.time()
    sent = 0
    for match_id in service.store.stale_matches(now - stale_after):
        record = service.store.load(match_id)
        if record is None:
            continue
        for seat in service.bot_seats_due(record):
            if not service.store.bot_turn_claimed(match_id, seat, record.version):
                service.enqueue(match_id, seat, record.version)
                sent += 1
        service.store.touch_active(match_id, now)
    if sent:
        log.info("sweep: re-enqueued %d bot turn(s) waiting over %gs", sent, stale_after)
    return sent
