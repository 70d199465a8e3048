"""Moves played for a seat that did not answer: the ``random`` bot, from the seat's view.

Used when a seat's move deadline passes (``shared.bots.deadlines``), when a webhook bot answers
wrongly or late (``shared.bots.webhooks``) and for a seat that forfeited. The log entry of such a
move carries ``timeout`` (why), so anyone can see the seat did not choose it.
"""

from __future__ import annotations

import json
from typing import Any

from shared.bots.choice import bot_rng, choose_move
from shared.games import get_game
from shared.kernel.protocol import Move
from shared.matches.record import MatchRecord
from shared.matches.service import MatchService

FALLBACK_BOT: dict[str, Any] = {"kind": "random"}


def fallback_move(record: MatchRecord, seat: int) -> Move:
    """The fallback bot's move for ``seat``: seeded by the match, so seeded matches replay."""
    game = get_game(record.game)
    state = game.state_from_json(json.loads(record.state))
    return choose_move(game, state.view(seat), seat, FALLBACK_BOT,
                       bot_rng(record.seed, record.version, seat))


def play_timeout(service: MatchService, record: MatchRecord, seat: int,
                 reason: str) -> dict[str, Any]:
    """Play the fallback move for ``seat`` at ``record.version``, logged as a timeout."""
    return service.submit_move(record.id, seat, record.version, fallback_move(record, seat),
                               bot={"kind": FALLBACK_BOT["kind"], "think_seconds": 0.0,
                                    "fallback": True},
                               timeout={"reason": reason})
