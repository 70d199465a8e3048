"""How the server's bots choose a turn's move: the search (a built-in bot's level and budget,
the turn budget it shares), the fallback bot for a forfeited seat, a random legal move when a
search fails; a webhook seat asks its account (``shared.bots.webhooks``).

The turn itself — its queued mark, lease, carry-over, commit and hand-on — is the match
service's (``shared.matches.bot_turns``); this module only chooses.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import Any

from shared.bots import webhooks
from shared.bots.catalogue import budget_of_bot
from shared.bots.choice import bot_rng, choose_move
from shared.bots.fallback import FALLBACK_BOT
from shared.bots.turn_budget import TurnBudget, bot_budget
from shared.games import get_game
from shared.kernel.protocol import Move, State
from shared.matches import bot_turns
from shared.matches.record import MatchRecord
from shared.matches.service import MatchService

log = logging.getLogger(__name__)


class SearchChooser:
    """A built-in bot's (or a forfeited seat's fallback) choice: ``bot_turns.Chooser``.

    ``turn``: the budget the decisions between two turns of a waiting person share
    (``shared.bots.turn_budget``; None: none).
    """

    def __init__(self, turn: TurnBudget | None = None) -> None:
        self.turn = turn

    @staticmethod
    def bot(record: MatchRecord, seat: int) -> Mapping[str, Any]:
        return FALLBACK_BOT if seat in record.forfeited else record.seats[seat]["bot"]

    def time_cap(self, record: MatchRecord, seat: int) -> float:
        bot = self.bot(record, seat)
        return budget_of_bot(bot).time_cap if bot.get("kind") == "ismcts" else 0.0

    def choose(self, record: MatchRecord, state: State, seat: int
               ) -> tuple[Move, dict[str, Any]]:
        bot = self.bot(record, seat)
        rng = bot_rng(record.seed, record.version, seat)
        note: dict[str, Any] = {"kind": bot.get("kind")}
        budget = None
        if bot.get("kind") == "ismcts":
            # Wall-clock time, as bots_since is: the turn budget's start was written by
            # another process (the API's, or another worker's).
            budget = bot_budget(bot, record.bots_since, self.turn, time.time())
            note["budget_seconds"] = round(budget.time_cap, 4)
        searched: dict[str, Any] = {}
        started = time.monotonic()
        try:
            move = choose_move(get_game(record.game), state.view(seat), seat, bot, rng, budget,
                               searched)
            if "iterations" in searched:
                note["simulations"] = searched["iterations"]
                if searched["stopped"] == "forced":  # one move only: nothing to search
                    note["forced"] = True
        except Exception:  # a failing search must never hold the match hostage
            log.exception("bot %s failed in match %s seat %s; playing a random legal move",
                          bot, record.id, seat)
            move = rng.choice(state.legal_moves(seat))
            note["fallback"] = True
        note["think_seconds"] = round(time.monotonic() - started, 4)
        return move, note


def play_bot_turn(service: MatchService, match_id: str, seat: int, version: int,
                  lease_seconds: float, webhook: webhooks.WebhookPolicy | None = None,
                  turn: TurnBudget | None = None) -> str:
    """Play seat ``seat``'s move if the match is still at ``version``; says what happened
    (``shared.matches.bot_turns.play``). The seat is a built-in bot's, a webhook account's
    (``webhook`` says how to call it) or a forfeited seat's (the fallback bot plays it)."""

    def webhook_turn(service: MatchService, record: MatchRecord, seat: int,
                     lease: float) -> str:
        assert webhook is not None
        return webhooks.play_turn(service, record, seat, webhook, lease)

    return bot_turns.play(service, match_id, seat, version, lease_seconds,
                          SearchChooser(turn), None if webhook is None else webhook_turn)


#: The sweep of lost bot turns (``shared.matches.bot_turns.sweep``).
sweep = bot_turns.sweep
