"""A match as it is listed among an account's matches (``GET /v1/me/matches``): who plays,
whose turn it is and until when, or how it ended; never a seat's view."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from shared.matches.record import ENDED, MatchRecord

_SEAT_FIELDS = ("seat", "kind", "name", "account", "joined", "invited")


def summary(found: MatchRecord | dict[str, Any], account_id: str) -> dict[str, Any]:
    """``found`` (a live record, or the form kept after the end) for ``account_id``."""
    match: dict[str, Any]
    if isinstance(found, MatchRecord):
        match = {"id": found.id, "game": found.game, "status": str(found.status),
                 "seats": found.seats, "to_move": list(found.to_move),
                 "result": found.result, "rated": found.rated,
                 "deadline_at": found.deadline_at(), "created_at": found.created_at,
                 "updated_at": found.updated_at}
    else:
        match = {**found, "deadline_at": None, "to_move": []}
    seats = [{key: seat[key] for key in _SEAT_FIELDS if key in seat} for seat in match["seats"]]
    yours = [seat["seat"] for seat in seats if seat.get("account") == account_id]
    return {"id": match["id"], "game": match["game"], "status": match["status"],
            "live": match["status"] not in {str(status) for status in ENDED},
            "rated": bool(match.get("rated")), "seats": seats, "your_seats": yours,
            "to_move": match["to_move"],
            "whose_turn": [seats[seat]["name"] for seat in match["to_move"]],
            "your_turn": any(seat in match["to_move"] for seat in yours),
            "deadline_at": match["deadline_at"], "result": match.get("result"),
            "created_at": match["created_at"], "updated_at": match["updated_at"],
            "page": f"/play/{match['id']}", "replay": f"/v1/matches/{match['id']}/events"}


def summaries(match_ids: Sequence[str], records: Sequence[MatchRecord | None],
              kept: Callable[[str], dict[str, Any] | None], account_id: str
              ) -> list[dict[str, Any] | None]:
    """Each match's summary (None: neither its record nor its kept form is left)."""
    out: list[dict[str, Any] | None] = []
    for match_id, record in zip(match_ids, records, strict=True):
        found: MatchRecord | dict[str, Any] | None = record or kept(match_id)
        out.append(None if found is None else summary(found, account_id))
    return out
