"""Notifications for apps: "your_turn", "match_found", "challenge" and "match_over" reach an
account on its event stream (``GET /v1/me/stream``, resumable with ``Last-Event-ID``) and, if
it set one, at its notification webhook (its app's backend), signed, retried with back-off and
logged for its owner to read and redeliver from (docs/notifications.md).

:meth:`NotificationService.notify` is the one way in: the match service calls
:meth:`on_commit` after each committed write, invitations call :meth:`challenge`, and any
other feature (quick-play pools) calls ``notify`` itself. Each notification has a delivery id,
derived from what it is about when the caller gives a ``key`` (the same turn, the same end:
the same id, so it is stored and delivered once however often it is reported).
"""

from __future__ import annotations

import hashlib
import logging
import re
import secrets
import time
from collections.abc import Callable
from typing import Any

from shared.domain.errors import Conflict, NotFound
from shared.domain.types import MatchStatus, SeatKind
from shared.matches.record import ENDED, MatchRecord
from shared.notifications import delivery
from shared.notifications.delivery import DeliveryPolicy
from shared.notifications.store import NotificationStore

log = logging.getLogger(__name__)

KINDS = ("your_turn", "match_found", "challenge", "match_over")
#: ``send(account_id, delivery_id, attempt, countdown)``: the delivery task, sent by name.
Send = Callable[[str, str, int, float], None]
#: Stream entries one read replays at most (a reconnection reads again for the rest).
REPLAY_BATCH = 200
#: A delivery id as :meth:`NotificationService.notify` makes them (anything else names none).
DELIVERY_ID = re.compile(r"n_[0-9a-f]{24}")


class NotificationService:
    def __init__(self, store: NotificationStore, send: Send | None,
                 secret: Callable[[str], str], policy: DeliveryPolicy,
                 check_url: Callable[[str], str]) -> None:
        self.store = store
        self.send = send
        self.secret = secret  # the account's webhook secret (signs its calls)
        self.policy = policy
        self.check_url = check_url  # the accounts' webhook URL check (422 if refused)

    # -- producing --------------------------------------------------------------------------
    def notify(self, account_id: str, kind: str, data: dict[str, Any],
               key: str | None = None) -> str:
        """Notify ``account_id``; returns the delivery id. ``key`` names what the notification
        is about: notified again with the same key, nothing new is stored or sent."""
        if kind not in KINDS:
            raise ValueError(f"unknown notification kind {kind!r}")
        ident = ("n_" + hashlib.sha256(f"{account_id}\n{kind}\n{key}".encode()).hexdigest()[:24]
                 if key is not None else "n_" + secrets.token_hex(12))
        now = time.time()
        note = {"id": ident, "kind": kind, "at": now, "data": data}
        base = {"attempts": 0, "budget": self.policy.max_attempts, "last_status": None,
                "last_attempt_at": None}
        added = self.store.append(account_id, note,
                                  {**base, "state": "pending", "next_attempt_at": now},
                                  {**base, "state": "no_webhook", "next_attempt_at": None}, now)
        if added is not None and added[1]:
            self._send(account_id, ident, 0, 0.0)
        return ident

    def on_commit(self, record: MatchRecord, fresh: list[int], started: bool) -> None:
        """What a committed write of ``record`` tells its accounts: the seats in ``fresh``
        now owe a move they did not owe before it, or owe again after the server played
        their move (a timeout) (``your_turn``); it started the match
        (``match_found``); it ended it (``match_over``)."""
        seats = [s for s in record.seats if s.get("kind") == SeatKind.ACCOUNT and "account" in s]
        about = {"match": record.id, "game": record.game}
        if record.status in ENDED:
            for account_id in dict.fromkeys(str(s["account"]) for s in seats):
                self.notify(account_id, "match_over", {
                    **about, "status": str(record.status), "result": record.result,
                    "seats": [s["seat"] for s in seats if s["account"] == account_id]},
                    key=f"over:{record.id}")
            return
        if record.status != MatchStatus.RUNNING:
            return
        if started:
            for account_id in dict.fromkeys(str(s["account"]) for s in seats):
                self.notify(account_id, "match_found", {**about, "seats": [
                    s["seat"] for s in seats if s["account"] == account_id]},
                    key=f"found:{record.id}")
        for seat in fresh:
            held = record.seats[seat]
            if (held.get("kind") != SeatKind.ACCOUNT or held.get("webhook")
                    or seat in record.forfeited):
                continue  # the server plays it: nobody is to be told
            self.notify(str(held["account"]), "your_turn", {
                **about, "seat": seat, "version": record.version,
                "deadline_at": record.deadline_at()}, key=f"turn:{record.id}:{seat}:"
                                                          f"{record.version}")

    def challenge(self, account_id: str, invitation: dict[str, Any]) -> None:
        """An invitation to a match or tournament waits for the account's answer."""
        self.notify(account_id, "challenge", invitation, key=f"challenge:{invitation['id']}")

    # -- the event stream -------------------------------------------------------------------
    def after(self, account_id: str, last_id: str) -> list[tuple[str, dict[str, Any]]]:
        """The notifications after the stream id ``last_id`` (the oldest kept if it is
        older), up to a batch: (stream id, notification)."""
        return self.store.after(account_id, last_id, REPLAY_BATCH)

    def last_id(self, account_id: str) -> str:
        return self.store.last_id(account_id)

    def news(self, account_id: str) -> tuple[list[str], Callable[[], Any]]:
        """What a waiting stream watches (``AccountService.wait_for_news``): the channel
        and a read that changes with each new notification."""
        return [self.store.channel(account_id)], lambda: self.store.last_id(account_id)

    # -- the webhook and its log ------------------------------------------------------------
    def set_webhook(self, account_id: str, url: str | None) -> dict[str, Any]:
        """Set (checked as bot webhooks are: 422 if this server would not call it) or remove
        the account's notification webhook."""
        checked = None if url is None else self.check_url(url)
        self.store.set_webhook(account_id, checked)
        return {"url": checked}

    def webhook(self, account_id: str) -> dict[str, Any]:
        return {"url": self.store.webhook(account_id)}

    def deliveries(self, account_id: str, limit: int) -> list[dict[str, Any]]:
        """The account's newest notifications, newest first, each with its delivery."""
        return [_listed(note, state) for note, state in self.store.deliveries(account_id, limit)]

    def redeliver(self, account_id: str, delivery_id: str) -> dict[str, Any]:
        """Deliver again now, with a new round of attempts (the same delivery id)."""
        if not DELIVERY_ID.fullmatch(delivery_id):
            raise NotFound(f"no delivery {delivery_id[:40]!r} in this account's log")
        found = self.store.redeliver(account_id, delivery_id, self.policy.max_attempts,
                                     time.time())
        if found == -1:
            raise NotFound(f"no delivery {delivery_id!r} in this account's log")
        if found == -2:
            raise Conflict("an attempt of this delivery is under way; try again shortly")
        if found == -3:
            raise Conflict("the account has no notification webhook")
        assert isinstance(found, dict)
        self._send(account_id, delivery_id, int(found["attempts"]), 0.0)
        return self.deliveries_of(account_id, delivery_id)

    def deliveries_of(self, account_id: str, delivery_id: str) -> dict[str, Any]:
        found = self.store.deliveries(account_id, 1, [delivery_id])
        if not found:
            raise NotFound(f"no delivery {delivery_id!r} in this account's log")
        return _listed(*found[0])

    def deliver(self, account_id: str, delivery_id: str, attempt: int) -> str:
        """Make attempt ``attempt`` (the number made before it) of a delivery, if it is still
        due (a repeated or overtaken task does nothing); schedule the next on failure."""
        claimed = self.store.claim(account_id, delivery_id, attempt,
                                   self.policy.timeout + 30)
        if claimed is None:
            return "skipped"
        note, state, url = claimed
        new, wait = delivery.attempt(note, state, url, self.secret(account_id) if url else "",
                                     self.policy, account_id)
        self.store.finish(account_id, delivery_id, attempt, new)
        if wait is not None:
            self._send(account_id, delivery_id, int(new["attempts"]), wait)
        return str(new["state"])

    def sweep(self, now: float, limit: int = 500) -> int:
        """The backstop for a lost retry (its task never sent, or gone with its worker): send
        again each delivery overdue by more than an attempt's lease. Returns how many."""
        hold = self.policy.timeout + 30
        sent = 0
        for account_id, delivery_id, state in self.store.overdue(now - hold, limit, hold * 2):
            if state is not None and state["state"] == "pending":
                self._send(account_id, delivery_id, int(state["attempts"]), 0.0)
                sent += 1
        return sent

    def forget_account(self, account_id: str, _name: str) -> None:
        self.store.delete(account_id)

    def _send(self, account_id: str, delivery_id: str, attempt: int, countdown: float) -> None:
        if self.send is None:
            return
        try:
            self.send(account_id, delivery_id, attempt, countdown)
        except Exception as exc:  # the broker is away: the owner can redeliver from the log
            log.warning("notification %s of account %s: the delivery task was not sent: %r",
                        delivery_id, account_id, exc)


def _listed(note: dict[str, Any], state: dict[str, Any]) -> dict[str, Any]:
    return {"id": note["id"], "kind": note["kind"], "created_at": note["at"],
            "state": state["state"], "attempts": state["attempts"],
            "last_status": state.get("last_status"),
            "last_attempt_at": state.get("last_attempt_at"),
            "next_attempt_at": state.get("next_attempt_at"), "data": note["data"]}

