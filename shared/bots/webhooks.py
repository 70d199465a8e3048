"""Push bots: the worker POSTs a seat's view and legal moves to its account's webhook.

The request carries only what that seat may know (its view, its legal moves), signed with
the account's webhook secret (``shared.bots.signing``); the bot answers
``{"move_id": "..."}`` within the match's move deadline. The call itself
(``shared.infra.outbound``) goes to the checked address only, within that deadline as a
whole, and reads a bounded answer. A wrong answer (not JSON, no or an illegal move id, an
error status, no answer in time, a refused address, too long) plays the fallback move, logged
on the public match log as a timeout saying only ``no valid answer``: what the worker found
at the address goes to the server's log alone, so a webhook cannot be used to look around
the server's network.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from shared.bots import fallback, signing
from shared.domain.errors import ServiceError
from shared.games import get_game
from shared.infra import outbound
from shared.infra.webhook_target import Network
from shared.matches.record import MatchRecord
from shared.matches.service import MatchService

log = logging.getLogger(__name__)
#: The reason the public match log gives for every failed call, whatever happened.
NO_VALID_ANSWER = "no valid answer"


@dataclass(frozen=True)
class WebhookPolicy:
    allowed: Sequence[Network]  # non-public networks a webhook may target anyway
    default_timeout: float  # seconds to answer when the match sets no move deadline
    max_answer_bytes: int = 64 * 1024  # a longer answer is no valid answer


class WrongAnswer(Exception):
    """The bot's answer could not be played; the message says why (server log only)."""


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
            log.info("webhook of match %s seat %s (account %s): %s; playing the fallback",
                     record.id, seat, record.seats[seat].get("account"), exc)
            fallback.play_timeout(service, record, seat, NO_VALID_ANSWER)
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
    account_id = record.seats[seat]["account"]
    url = (service.account(account_id) or {}).get("webhook")
    if not url:
        raise WrongAnswer("the account has no webhook")
    state = get_game(record.game).state_from_json(json.loads(record.state))
    legal = {state.move_id(m): m for m in state.legal_moves(seat)}
    payload: dict[str, Any] = {"match": record.id, "game": record.game, "seat": seat,
                               "version": record.version, "deadline_seconds": timeout,
                               "view": state.view(seat),
                               "moves": [{"id": move_id, "label": state.move_label(m),
                                          "move": m} for move_id, m in legal.items()]}
    body = json.dumps(payload, separators=(",", ":")).encode()
    secret = service.webhook_secret(account_id, signing.new_secret())
    try:  # checked again, at call time: the name may resolve elsewhere now
        answer = outbound.post(url, body, signing.sign(secret, body), seconds=timeout,
                               allowed=policy.allowed, max_bytes=policy.max_answer_bytes)
    except outbound.CallFailed as exc:
        raise WrongAnswer(str(exc)) from None
    if answer.status != 200:
        raise WrongAnswer(f"answered HTTP {answer.status}")
    try:
        parsed = json.loads(answer.body)
    except ValueError:
        raise WrongAnswer("the answer is not JSON") from None
    move_id = parsed.get("move_id") if isinstance(parsed, dict) else None
    if not isinstance(move_id, str):
        raise WrongAnswer("the answer has no 'move_id' string")
    if move_id not in legal:
        raise WrongAnswer(f"illegal move id {move_id[:80]!r}")
    return legal[move_id]
