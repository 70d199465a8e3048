"""The cap on a client's bot work: the bot and account seats one client address has in live
(waiting or running) matches (an account's seat costs the workers its webhook calls), so a
flood of bot matches from one client is refused at creation instead of queueing ahead of
everybody else's bots. The seats are counted and reserved in one Lua step
before the match is created, so concurrent creations can never together overshoot the cap.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping

from shared.domain.types import LIVE, SeatKind
from shared.matches.store import MatchStore

#: Counts the client's live bot seats and reserves ``wanted`` more in one atomic step, so two
#: concurrent creations can never both fit under the cap. KEYS[1] the client's hash (match id
#: -> "seats:reserved_at"); ARGV cap, wanted, match id, now, ttl, then the ids found over.
#: One key only: the statuses are read before (an ended match never comes back to life).
_RESERVE = """
local gone = {}
for i = 6, #ARGV do gone[ARGV[i]] = true end
local entries = redis.call('HGETALL', KEYS[1])
local live = 0
for i = 1, #entries, 2 do
  if gone[entries[i]] then
    redis.call('HDEL', KEYS[1], entries[i])
  else
    live = live + tonumber(string.match(entries[i + 1], '^%d+'))
  end
end
if live + tonumber(ARGV[2]) > tonumber(ARGV[1]) then return live end
redis.call('HSET', KEYS[1], ARGV[3], ARGV[2] .. ':' .. ARGV[4])
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[5]))
return -1
"""


class BotWorkCap:
    """How many bot seats a client has in live matches (``evo:bots:{who}``: match id ->
    ``seats:reserved_at``), reserved before the match is created."""

    #: Seconds a reservation counts although its match does not exist (yet): creation
    #: follows the reservation at once, so only a creation that failed outlives this.
    RESERVATION_GRACE = 60.0

    def __init__(self, store: MatchStore, ttl: int = 86400) -> None:
        self.store = store
        self.redis = store.redis
        self.ttl = ttl
        self._reserve = self.redis.register_script(_RESERVE)

    def _key(self, who: str) -> str:
        return f"evo:bots:{who}"

    def _gone(self, entries: dict[str, str], now: float) -> list[str]:
        """The entries whose match is over, or vanished (never created, or expired)."""
        ids = list(entries)
        gone = []
        for match_id, status in zip(ids, self.store.statuses(ids), strict=True):
            _, _, reserved = entries[match_id].partition(":")
            if status in LIVE:
                continue
            if status is None and now - float(reserved or 0) < self.RESERVATION_GRACE:
                continue  # reserved, not created yet
            gone.append(match_id)
        return gone

    def reserve(self, who: str, match_id: str, seats: int, cap: int) -> int | None:
        """Reserve ``seats`` bot seats of ``who`` for ``match_id`` if that keeps ``who``
        within ``cap``: None if reserved, else the live seats ``who`` already has."""
        now = time.time()
        gone = self._gone(self.redis.hgetall(self._key(who)), now)
        live = int(self._reserve(keys=[self._key(who)],
                                 args=[cap, seats, match_id, repr(now), self.ttl, *gone]))
        return None if live < 0 else live

    def release(self, who: str, match_id: str) -> None:
        """Drop a reservation whose match was not created."""
        self.redis.hdel(self._key(who), match_id)


#: Seats that cost the server's bot workers time: a built-in bot searches on them, and an
#: account's seat is called on its webhook (or held for its pull stream) by the same workers.
WORKER_SEATS = frozenset({SeatKind.BOT, SeatKind.ACCOUNT})


def bot_seat_count(seats: Iterable[Mapping[str, object]]) -> int:
    """The seats that count toward a client's cap: bot and account seats."""
    return sum(1 for seat in seats if seat.get("kind") in WORKER_SEATS)
