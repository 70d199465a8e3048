"""``GET /v1/tournaments``: the kept tournaments, newest first, a page at a time.

A page is read from the listing index (``evo:t:all``, by creation number) in batches,
filtered by status and game, until it holds ``limit`` tournaments or ``SCAN_LIMIT`` were
looked at; ``next`` is the creation number to pass as ``before`` for the following page (null
at the end). A filtered page may so hold fewer than ``limit`` with more to come. A tournament
whose keys expired is dropped from the index when met.
"""

from __future__ import annotations

from typing import Any

from shared.tournaments.store import TournamentStore

BATCH = 50
SCAN_LIMIT = 1000  # index entries one page may look at


def summary(meta: dict[str, Any]) -> dict[str, Any]:
    """A tournament as listed (its details: ``GET /v1/tournaments/{id}``)."""
    return {"id": meta["id"], "name": meta["name"], "game": meta["game"],
            "format": meta["format"], "seats": meta["seats"], "status": meta["status"],
            "entrants": len(meta["entrants"]), "done": meta["done"], "total": meta["total"],
            "seeded": meta.get("seeded", True), "created_at": meta["created_at"],
            "finished_at": meta["finished_at"]}


def list_tournaments(store: TournamentStore, status: str | None, game: str | None,
                     limit: int, before: int | None) -> dict[str, Any]:
    found: list[dict[str, Any]] = []
    scanned, cursor, exhausted = 0, before, False
    while len(found) < limit and scanned < SCAN_LIMIT:
        batch = store.listed(cursor, min(BATCH, SCAN_LIMIT - scanned))
        if not batch:
            exhausted = True
            break
        metas = store.metas([tournament_id for tournament_id, _ in batch])
        store.unlist([tid for (tid, _), meta in zip(batch, metas, strict=True) if meta is None])
        for (_, number), meta in zip(batch, metas, strict=True):
            scanned += 1
            cursor = number
            if meta is not None and (status is None or meta["status"] == status) \
                    and (game is None or meta["game"] == game):
                found.append(summary(meta))
                if len(found) == limit:
                    break
    more = not exhausted and bool(store.listed(cursor, 1))
    return {"tournaments": found, "next": cursor if more else None}
