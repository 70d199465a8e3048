"""Push bots: the worker POSTs a seat's view and legal moves to its account's webhook.

The request carries only what that seat may know (its view, its legal moves); the bot
answers ``{"move_id": "..."}`` within the match's move deadline. A wrong answer (not JSON,
no or an illegal move id, an error status, no answer in time, a refused address) is logged on
the match as a timeout and the fallback move is played instead.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import requests

from shared.accounts.service import Network, check_webhook_url
from shared.bots import fallback
from shared.domain.errors import ServiceError
from shared.games import get_game
from shared.matches.record import MatchRecord
from shared.matches.service import MatchService

log = logging.getLogger(__name__)
CONNECT_SECONDS = 3.0


@dataclass(frozen=True)
class WebhookPolicy:
    allowed: Sequence[Network]  # non-public networks a webhook may target anyway
    default_timeout: float  # seconds to answer when the match sets no move deadline


class WrongAnswer(Exception):
    """The bot's answer could not be played; the message says why (logged on the match)."""


def play_turn(service: MatchService, record: MatchRecord, seat: int, policy: WebhookPolicy,
              lease_seconds: float) -> str:
    """Ask the seat's webhook for its move and play it, or the fallback move if it fails."""
    timeout = record.move_deadline or policy.default_timeout
    if not service.claim_bot_turn(record.id, seat, record.version, timeout + lease_seconds):
        return "claimed"
    started = time.monotonic()
    try:
        try:
            move = ask(service, record, seat, policy, timeout)
        except WrongAnswer as exc:
            log.info("webhook of match %s seat %s: %s; playing the fallback", record.id, seat,
                     exc)
            fallback.play_timeout(service, record, seat, str(exc))
            return "timeout"
        note = {"kind": "webhook", "think_seconds": round(time.monotonic() - started, 4)}
        service.submit_move(record.id, seat, record.version, move, bot=note)
        return "played"
    except ServiceError as exc:  # the deadline sweep or another task moved first
        log.info("webhook move dropped in match %s seat %s: %s", record.id, seat, exc.detail)
        return "conflict"
    finally:
        service.release_bot_turn(record.id, seat, record.version)


def ask(service: MatchService, record: MatchRecord, seat: int, policy: WebhookPolicy,
        timeout: float) -> dict[str, Any]:
    """The legal move the webhook names, or :class:`WrongAnswer`."""
    account = service.account(record.seats[seat]["account"])
    url = (account or {}).get("webhook")
    if not url:
        raise WrongAnswer("the account has no webhook")
    try:
        check_webhook_url(url, policy.allowed)  # again: the name may resolve elsewhere now
    except ValueError as exc:
        raise WrongAnswer(f"refused: {exc}") from None
    state = get_game(record.game).state_from_json(json.loads(record.state))
    legal = {state.move_id(m): m for m in state.legal_moves(seat)}
    payload: dict[str, Any] = {"match": record.id, "game": record.game, "seat": seat,
                               "version": record.version, "deadline_seconds": timeout,
                               "view": state.view(seat),
                               "moves": [{"id": move_id, "label": state.move_label(m),
                                          "move": m} for move_id, m in legal.items()]}
    try:
        response = requests.post(url, json=payload, allow_redirects=False,
                                 timeout=(min(CONNECT_SECONDS, timeout), timeout))
    except requests.Timeout:
        raise WrongAnswer(f"no answer within {timeout:g} s") from None
    except requests.RequestException as exc:
        raise WrongAnswer(f"unreachable: {type(exc).__name__}") from None
    if response.status_code != 200:
        raise WrongAnswer(f"answered HTTP {response.status_code}")
    try:
        answer = response.json()
    except ValueError:
        raise WrongAnswer("the answer is not JSON") from None
    move_id = answer.get("move_id") if isinstance(answer, dict) else None
    if not isinstance(move_id, str):
        raise WrongAnswer("the answer has no 'move_id' string")
    if move_id not in legal:
        raise WrongAnswer(f"illegal move id {move_id[:80]!r}")
    return legal[move_id]
