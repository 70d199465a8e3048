"""The worker's side of a hint: the move the search suggests for a seat, from its view alone,
kept in the match store for the API (``shared.bots.hints``) to read."""

from __future__ import annotations

import json
import random
from typing import Any

from shared.bots.catalogue import HINT_BUDGET, HINT_KEEP
from shared.bots.hints import open_question
from shared.domain.types import MatchStatus
from shared.games import get_game
from shared.matches.service import MatchService
from shared.search import search_move


def suggest(service: MatchService, match_id: str, seat: int, version: int) -> dict[str, Any]:
    """The search's move for ``seat``'s question at ``version`` and its estimate, or
    ``{"error": "stale"}`` when the match has moved past that question (the API then
    answers 409). Other seats' hidden choices since (a queued task starts late in a
    simultaneous step) leave the question open: the search answers it from the view now."""
    record = service.peek(match_id)
    if (record is None or record.status != MatchStatus.RUNNING or seat not in record.to_move
            or service.retired_rules(record) is not None):
        return {"error": "stale"}
    game = get_game(record.game)
    state = game.state_from_json(json.loads(record.state))
    if record.version != version:
        question = open_question(service, record, seat, state)
        if question is None or question.version != version:
            return {"error": "stale"}
    stats: dict[str, Any] = {}
    # A seat's view only, as for a bot (the hint must not know what the seat does not);
    # seeded by the version (the same answer again unless the time cap cut the search).
    move = search_move(game, state.view(seat), seat, HINT_BUDGET,
                       random.Random(f"hint:{record.seed}:{version}:{seat}"), stats=stats)
    value = stats["values"].get(state.observe_move(seat, move, seat))
    return {"version": version, "seat": seat, "move": move, "move_id": state.move_id(move),
            "label": state.move_label(move),
            "win_estimate": None if value is None else round(value, 3),
            "simulations": stats["iterations"], "think_seconds": round(stats["elapsed"], 3)}


def answer(service: MatchService, match_id: str, seat: int, version: int) -> dict[str, Any]:
    """:func:`suggest`, kept for the API; a search that fails releases the question, so the
    next ask sends another."""
    try:
        found = suggest(service, match_id, seat, version)
    except BaseException:  # the task's soft time limit too
        service.release_hint(match_id, seat, version)
        raise
    service.keep_hint(match_id, seat, version, found, HINT_KEEP)
    return found
