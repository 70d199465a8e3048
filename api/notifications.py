"""An account's notifications (``shared.notifications``): its notification webhook (the app's
backend, set and removed with the account's key) and its delivery log (read, redeliver).
The account's event stream (``GET /v1/me/stream``, :mod:`api.accounts`) carries them too.
Always the key's own account (docs/authorization.md)."""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, Response, current_app
from marshmallow import RAISE, Schema, fields, validate

from api.context import accounts, bearer_token, json_body, query, rate_limit, settings
from shared.notifications.service import REPLAY_BATCH, NotificationService

__all__ = ["REPLAY_BATCH", "STREAM_ID", "bp", "notifications"]

bp = Blueprint("notifications", __name__, url_prefix="/v1/me")

#: The form of a notification event's id (a Redis stream entry id), as ``Last-Event-ID``.
STREAM_ID = re.compile(r"[0-9]{1,20}-[0-9]{1,20}")


def notifications() -> NotificationService:
    found: NotificationService = current_app.extensions["evo.notifications"]
    return found


class WebhookSchema(Schema):
    class Meta:
        unknown = RAISE

    url = fields.String(required=True, validate=validate.Length(1, 500))


class DeliveriesQuery(Schema):
    class Meta:
        unknown = RAISE

    limit = fields.Integer(validate=validate.Range(1, 200), load_default=50)


@bp.get("/notification-webhook")
def get_webhook() -> dict[str, Any]:
    """The account's notification webhook URL (``null``: none)."""
    return notifications().webhook(accounts().account_id(bearer_token()))


@bp.put("/notification-webhook")
def set_webhook() -> dict[str, Any]:
    """Set the notification webhook: checked as a bot's webhook is (422 if refused)."""
    account_id = accounts().account_id(bearer_token())
    rate_limit("accounts", settings().accounts_per_minute)
    return notifications().set_webhook(account_id, json_body(WebhookSchema())["url"])


@bp.delete("/notification-webhook")
def remove_webhook() -> Response:
    notifications().set_webhook(accounts().account_id(bearer_token()), None)
    return Response(status=204)


@bp.get("/deliveries")
def deliveries() -> dict[str, Any]:
    """The newest notifications, newest first, each with its webhook delivery's state."""
    account_id = accounts().account_id(bearer_token())
    return {"deliveries": notifications().deliveries(account_id, query(DeliveriesQuery())["limit"])}


@bp.post("/deliveries/<delivery_id>/redeliver")
def redeliver(delivery_id: str) -> tuple[dict[str, Any], int]:
    """Deliver a notification again (same delivery id), with a new round of attempts."""
    account_id = accounts().account_id(bearer_token())
    rate_limit("accounts", settings().accounts_per_minute)
    return notifications().redeliver(account_id, delivery_id), 202
