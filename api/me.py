"""An account's own lifecycle, with its key: its named keys (list, add, revoke), its name and
webhook changed, and the account deleted (``shared.accounts.lifecycle``)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response
from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema

from api.context import accounts, bearer_token, json_body, rate_limit, settings

bp = Blueprint("me", __name__, url_prefix="/v1")


class NewKeySchema(Schema):
    class Meta:
        unknown = RAISE

    name = fields.String(required=True, validate=[
        validate.Length(1, 40), validate.Regexp(r"^[A-Za-z0-9._-]+$",
                                                error="letters, digits, '.', '_' or '-'")])


class UpdateAccountSchema(Schema):
    class Meta:
        unknown = RAISE

    name = fields.String(validate=validate.Length(1, 40))
    webhook = fields.String(validate=validate.Length(1, 500), allow_none=True)

    @validates_schema
    def something(self, data: dict[str, Any], **_: Any) -> None:
        if not data:
            raise ValidationError("give 'name' and/or 'webhook'")


@bp.get("/me/keys")
def list_keys() -> dict[str, Any]:
    """The account's keys: name, created, last used (never a key itself)."""
    account_id = accounts().account_id(bearer_token())
    return {"keys": accounts().keys(account_id)}


@bp.post("/me/keys")
def add_key() -> tuple[dict[str, Any], int, dict[str, str]]:
    """A new named key, shown only in this answer."""
    account = accounts().authenticate(bearer_token())
    rate_limit("accounts", settings().accounts_per_minute)
    name = json_body(NewKeySchema())["name"]
    listed, key = accounts().add_key(account, name)
    return {**listed, "key": key}, 201, {"Location": "/v1/me/keys"}


@bp.delete("/me/keys/<name>")
def revoke_key(name: str) -> Response:
    """Revoke a key at once (never the account's last: 409)."""
    account_id = accounts().account_id(bearer_token())
    accounts().revoke_key(account_id, name)
    return Response(status=204)


@bp.patch("/me")
def update_me() -> dict[str, Any]:
    """Change the account's name and/or webhook (``null``: no webhook)."""
    account = accounts().authenticate(bearer_token())
    return accounts().update(account, **json_body(UpdateAccountSchema()))


@bp.delete("/me")
def delete_me() -> Response:
    """Delete the account: keys revoked, name freed, live seats forfeited, history
    anonymised."""
    accounts().delete(accounts().authenticate(bearer_token()))
    return Response(status=204)
