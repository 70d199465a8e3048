"""An account's invitations: the matches and tournaments naming it that wait for its answer
(the key's account only; see docs/authorization.md)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from api.context import accounts, bearer_token, invitations

bp = Blueprint("invitations", __name__, url_prefix="/v1/me/invitations")


@bp.get("")
def list_invitations() -> dict[str, Any]:
    account_id = accounts().account_id(bearer_token())
    return {"invitations": invitations().pending(account_id)}


@bp.post("/<invitation_id>/accept")
def accept_invitation(invitation_id: str) -> dict[str, Any]:
    """Take the seats (or entries) the invitation offers; the match or tournament starts
    once no invited account is left to answer."""
    account_id = accounts().account_id(bearer_token())
    return invitations().answer(account_id, invitation_id, accept=True)


@bp.post("/<invitation_id>/decline")
def decline_invitation(invitation_id: str) -> dict[str, Any]:
    """Refuse: the match or tournament is aborted (nothing of it is rated)."""
    account_id = accounts().account_id(bearer_token())
    return invitations().answer(account_id, invitation_id, accept=False)
