"""Quick play: accounts join a pool (a game, a player count and its options), are matched by
rating with a window that widens with the wait, and get a rated match with their seats taken.

Matching is one atomic script over the pool's keys (``shared.pools.store``): whichever API
process or worker runs it, nobody is put in two matches. The script only *forms* a match
(pending, with its id); creating it through the match service comes after, and is idempotent
(the id is fixed), so a process that dies in between leaves the pending match to the next pass
(a join, a poll or the worker's periodic sweep) and loses nobody.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from shared.bots.catalogue import LEVELS
from shared.domain.errors import Conflict, NotFound, ServiceError, Unprocessable
from shared.matches import clocks
from shared.matches.service import MatchService
from shared.pools.store import MatchRules, PoolStore
from shared.ratings.model import MODEL

log = logging.getLogger(__name__)

#: Ratings of players in a game: (game, player keys) -> key -> ``{mu, sigma, ...}`` (the
#: rating store's read, handed over by the composition root: ratings have no service).
RatingsOf = Callable[[str, Sequence[str]], dict[str, dict[str, Any]]]

#: A claim on another pool younger than this may belong to a join still under way there.
CLAIM_GRACE_SECONDS = 10.0


@dataclass(frozen=True)
class PoolSettings:
    """The pools' settings (``POOL_*``): the rating window (in OpenSkill mu), its widening a
    second of waiting and its cap, the wait before a bot may fill a seat, and how long a
    waiting ticket survives without a poll."""

    window: float = 2.0
    widen_per_second: float = 0.25
    max_window: float = 12.5
    bot_fill_seconds: float = 30.0
    idle_seconds: float = 90.0


def pool_id(game: str, players: int, options: dict[str, Any],
            time_control: dict[str, Any] | None = None) -> str:
    """A pool's id: the game, the player count and a digest of the canonical options and
    time control (without one, the options alone: the pools that predate time controls)."""
    digested: Any = options if time_control is None else {
        "options": options, "time_control": time_control}
    canonical = json.dumps(digested, sort_keys=True, separators=(",", ":"))
    return f"{game}-{players}-{hashlib.sha256(canonical.encode()).hexdigest()[:10]}"


class PoolService:
    def __init__(self, store: PoolStore, matches: MatchService, ratings_of: RatingsOf,
                 settings: PoolSettings | None = None) -> None:
        self.store = store
        self.matches = matches
        self.ratings_of = ratings_of
        self.settings = settings or PoolSettings()
        #: Told ``(account_id, match_id, game)`` for each account of a match a pass created
        #: (shared.services: a "match_found" notification).
        self.found: list[Callable[[str, str, str], object]] = []

    # -- pools ------------------------------------------------------------------------------
    def resolve(self, game_id: str, players: int, options: dict[str, Any] | None,
                time_control: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        """The pool of a game, player count, options and time control (validated by the
        caller), the options canonicalised by the game's own option schema (422s)."""
        game, resolved = MatchService.game_for(game_id, options, players, "players")
        meta: dict[str, Any] = {"game": game.id, "players": players, "options": resolved}
        control = clocks.normalised(time_control)
        if control is not None:  # part of the pool: people agree on it before they play
            meta["time_control"] = control
        return pool_id(game.id, players, resolved, control), meta

    def listing(self, game: str | None = None) -> list[dict[str, Any]]:
        """The known pools (of ``game``) with the number of people waiting in each."""
        pools = {p: m for p, m in self.store.pools().items() if game in (None, m["game"])}
        ids = sorted(pools)
        counts = self.store.waiting_counts(ids)
        return [{"pool": p, **pools[p], "waiting": c} for p, c in zip(ids, counts, strict=True)]

    def _rules(self, players: int) -> MatchRules:
        s = self.settings
        return MatchRules(players, s.window, s.widen_per_second, s.max_window,
                          s.bot_fill_seconds, s.idle_seconds)

    # -- a person's ticket ------------------------------------------------------------------
    def join(self, account_id: str, game_id: str, players: int,
             options: dict[str, Any] | None, bot_level: str | None,
             time_control: dict[str, Any] | None = None) -> tuple[bool, dict[str, Any]]:
        """Wait in the pool (True), or, already waiting there, change the bot choice (False).
        Waiting in another pool is a 409: an account waits in one pool at a time."""
        if bot_level is not None and bot_level not in LEVELS:
            raise Unprocessable(f"unknown bot level {bot_level!r}; known: "
                                f"{', '.join(LEVELS)}", field="bot_fill")
        pool, meta = self.resolve(game_id, players, options, time_control)
        self._claim(account_id, pool)
        self.store.describe(pool, meta)
        key = f"account:{account_id}"
        found = self.ratings_of(meta["game"], [key]).get(key)
        rating = float(found["mu"]) if found else float(MODEL.rating().mu)
        new, _ = self.store.join(pool, account_id, rating, bot_level or "", time.time())
        self.run(pool, meta)
        return new, self.status(account_id)

    def _claim(self, account_id: str, pool: str) -> None:
        other = self.store.claim(account_id, pool)
        if other is None:
            return
        other_pool, since = other
        found = self.store.touch(other_pool, account_id, time.time())
        if (found and found[0]["status"] == "waiting") or (
                found is None and time.time() - since < CLAIM_GRACE_SECONDS):
            raise Conflict(f"already waiting in pool {other_pool}: leave it first",
                           pool=other_pool)
        # The other claim is stale (its ticket ended, or its join died): take it over,
        # unless it changed meanwhile.
        if self.store.claim(account_id, pool, self.store.raw_claim(account_id) or "") is not None:
            raise Conflict("joining another pool at the same moment", pool=other_pool)

    def _ticket(self, account_id: str) -> tuple[str, tuple[dict[str, Any], bool]]:
        pool = self.store.claimed_pool(account_id)
        found = None if pool is None else self.store.touch(pool, account_id, time.time())
        if pool is None or found is None:
            raise NotFound("no quick-play ticket: join a pool first")
        return pool, found

    def status(self, account_id: str, wait: float = 0.0) -> dict[str, Any]:
        """The account's ticket; with ``wait``, held until it changes (or ``wait`` passes)."""
        pool, found = self._ticket(account_id)
        if wait > 0 and (found[0]["status"] == "waiting" or found[1]):
            meta = self.store.meta(pool)
            if meta is not None:
                # A poll drives matching too (the worker's sweep widens the windows), and the
                # creation of a match formed by a process that died before creating it.
                self.run(pool, meta)

            def read() -> str:  # a match being created is not news yet: wait for it
                now = self.store.touch(pool, account_id, time.time())
                return "gone" if now is None else "waiting" if now[1] else now[0]["status"]

            self.store.wait(pool, read, "waiting", wait)
            pool, found = self._ticket(account_id)
        return self._view(pool, *found)

    def leave(self, account_id: str) -> dict[str, Any]:
        """Stop waiting; a ticket already matched is a 409 (the match is there to play)."""
        pool, _ = self._ticket(account_id)
        left = self.store.leave(pool, account_id, time.time())
        if left is None:
            raise NotFound("no quick-play ticket: join a pool first")
        changed, ticket = left
        if not changed and ticket["status"] == "matched":
            raise Conflict(f"already matched into match {ticket.get('match')}",
                           match=ticket.get("match"))
        self.store.unclaim(account_id, pool)
        return self._view(pool, ticket, False)

    def _view(self, pool: str, ticket: dict[str, Any], forming: bool) -> dict[str, Any]:
        meta = self.store.meta(pool) or {}
        now = time.time()
        status = "forming" if forming else ticket["status"]
        waited = max(0.0, now - ticket["joined"])
        s = self.settings
        view: dict[str, Any] = {
            "pool": pool, **meta, "status": status, "rating": ticket["rating"],
            "joined_at": ticket["joined"], "waited": round(waited, 3),
            "window": min(s.max_window, s.window + s.widen_per_second * waited),
            "bot_fill": ticket["bot"] or None,
            "bot_fill_at": ticket["joined"] + s.bot_fill_seconds if ticket["bot"] else None,
            "match": None, "seat": None}
        if status == "matched":
            view["match"], view["seat"] = ticket.get("match"), ticket.get("seat")
        if status == "failed":
            view["detail"] = ticket.get("detail")
        return view

    # -- matching ---------------------------------------------------------------------------
    def run(self, pool: str, meta: dict[str, Any]) -> int:
        """One matching pass over ``pool``, then create what it formed; the matches created."""
        formed = self.store.match(pool, self._rules(int(meta["players"])),
                                  secrets.token_hex(6), time.time())
        made = 0
        for entry in formed:
            try:
                self.matches.create_match(
                    meta["game"], meta["options"], None, entry["seats"], rated=True,
                    match_id=entry["id"], time_control=meta.get("time_control"),
                    accepted=[s["account"] for s in entry["seats"] if s["kind"] == "account"])
            except ServiceError as exc:  # e.g. an account deleted while it waited
                self.store.failed(pool, entry["id"], exc.detail, time.time())
                continue
            except Exception:  # a store error: the pending match stays for the next pass
                log.exception("creating quick-play match %s of pool %s", entry["id"], pool)
                continue
            self.store.created(pool, entry["id"])
            made += 1
            self._tell_found(entry, str(meta["game"]))
        return made

    def _tell_found(self, entry: dict[str, Any], game: str) -> None:
        """Tell ``found`` of each account of a created match. A failure is logged, not
        raised: the match stands (a notification is news, not the match)."""
        for account_id in dict.fromkeys(str(s["account"]) for s in entry["seats"]
                                        if s["kind"] == "account"):
            for hook in self.found:
                try:
                    hook(account_id, entry["id"], game)
                except Exception:
                    log.exception("telling %s of quick-play match %s", account_id, entry["id"])

    def sweep(self) -> int:
        """A matching pass over every pool (the worker's periodic task): windows widen and
        bots fill seats without anyone polling, and pending matches of a dead node are made."""
        return sum(self.run(pool, meta) for pool, meta in self.store.pools().items())
