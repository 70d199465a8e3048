"""A match as stored: its metadata and the engine state's JSON text (never parsed here)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from shared.domain.types import ENDED, MatchStatus, SeatKind, SeatRecord
from shared.infra.jsontext import dumps, loads
from shared.matches import clocks

__all__ = ["ENDED", "MatchRecord"]  # ENDED: re-exported, the statuses of an ended match


@dataclass
class MatchRecord:
    """One match as stored: metadata plus the engine state's JSON text (never parsed here)."""

    id: str
    game: str
    rules_version: str
    options: dict[str, Any]
    seed: int | None
    seats: list[SeatRecord]
    status: MatchStatus  # read back as a member (``from_fields``), written as its string
    version: int
    state: str  # engine JSON text
    rng: str  # JSON of the random source's draw count (shared.matches.randomness); server-only
    result: dict[str, Any] | None
    to_move: list[int]
    created_at: float
    updated_at: float
    tournament: str | None = None  # the tournament this match belongs to
    rated: bool = False  # a finished rated match updates its seats' ratings
    move_deadline: float | None = None  # seconds a seat may owe a move
    forfeit_after: int | None = None  # consecutive timeouts before a seat forfeits
    owed_since: dict[int, float] = field(default_factory=dict)  # seat -> since when it owes
    timeouts: dict[int, int] = field(default_factory=dict)  # seat -> consecutive timeouts
    forfeited: list[int] = field(default_factory=list)  # seats now played by the fallback
    seeded: bool = False  # the creator chose the seed: everyone who can see it is told so
    # Since when only seats the server plays owe moves in a match where a person or program
    # waits for them (None while one of those owes a move, and in matches without a turn
    # budget): the start of the bot decisions' shared budget (``shared.bots.turn_budget``).
    bots_since: float | None = None
    # Ended finished and rated (or in a tournament) and its finish handling (rating,
    # tournament tick) not done yet: set by the write that ends it, cleared by the handling.
    finish_owed: bool = False
    # A tournament's match that shares its deal with others still running (duplicate play):
    # nothing derived from its seed (seed, log, views) is shown but to a seat, its own, while
    # it runs (``MatchService.describe``), until its tournament unseals the deal.
    sealed: bool = False
    # Seats that resigned or were abandoned (idle past ``idle_after``): also in ``forfeited``,
    # so the fallback plays them and they rank last (``shared.matches.resignation``).
    resigned: list[int] = field(default_factory=list)
    # Seconds a person's seat may owe a move before it counts as abandoned (None: never);
    # fixed when the match is created (``HUMAN_IDLE_SECONDS``).
    idle_after: float | None = None
    # The match's time control (``shared.matches.clocks``; None: none), fixed at creation,
    # and each seat's real-time clock as of when it last started owing a move.
    time_control: dict[str, Any] | None = None
    clock: dict[int, float] = field(default_factory=dict)
    # The hash's fields as read (``from_fields``; None: not read from the store), so a write
    # sends only the fields it changes (``changed_fields``).
    stored: dict[str, str] | None = field(default=None, init=False, repr=False, compare=False)

    def deadline_at(self) -> float | None:
        """When the first deadline of a seat that owes a move passes: its move deadline, or
        its time control's clock running out (None: no deadline)."""
        if self.move_deadline is None or self.status != MatchStatus.RUNNING or not self.owed_since:
            return clocks.due_at(self)
        return min(self.owed_since.values()) + self.move_deadline

    def idle_at(self) -> float | None:
        """When the first person's seat that owes a move counts as abandoned (None: never)."""
        if self.idle_after is None or self.status != MatchStatus.RUNNING:
            return None
        idle = [since for seat, since in self.owed_since.items() if self.idles(seat)]
        return min(idle) + self.idle_after if idle else None

    def idles(self, seat: int) -> bool:
        """Whether ``seat`` can be abandoned by idling: a person's seat still in the match."""
        return (self.idle_after is not None and seat not in self.forfeited
                and self.seats[seat]["kind"] in (SeatKind.HUMAN, SeatKind.OPEN))

    def due_at(self) -> float | None:
        """When the deadline sweep must next look at the match: the first move deadline,
        idle limit or clock to run out (None: none runs)."""
        times = [t for t in (self.deadline_at(), self.idle_at(), clocks.due_at(self))
                 if t is not None]
        return min(times) if times else None

    def to_fields(self) -> dict[str, str]:
        return {
            "id": self.id, "game": self.game, "rules_version": self.rules_version,
            "options": dumps(self.options), "seed": dumps(self.seed),
            "seats": dumps(self.seats), "status": self.status,
            "version": str(self.version), "state": self.state, "rng": self.rng,
            "result": dumps(self.result), "to_move": dumps(self.to_move),
            "created_at": repr(self.created_at), "updated_at": repr(self.updated_at),
            "tournament": dumps(self.tournament), "rated": dumps(self.rated),
            "move_deadline": dumps(self.move_deadline),
            "forfeit_after": dumps(self.forfeit_after),
            "owed_since": dumps(self.owed_since), "timeouts": dumps(self.timeouts),
            "forfeited": dumps(self.forfeited), "seeded": dumps(self.seeded),
            "bots_since": dumps(self.bots_since),
            "finish_owed": dumps(self.finish_owed), "sealed": dumps(self.sealed),
            "resigned": dumps(self.resigned), "idle_after": dumps(self.idle_after),
            "time_control": dumps(self.time_control), "clock": dumps(self.clock),
        }

    def changed_fields(self) -> dict[str, str]:
        """The fields of :meth:`to_fields` whose stored text differs from the one read (all
        of them for a record not read from the store). Every write to a live match's hash
        is a compare-and-set on its version, so at the version read the others are still
        as read."""
        fields = self.to_fields()
        if self.stored is None:
            return fields
        return {name: text for name, text in fields.items() if self.stored.get(name) != text}

    @classmethod
    def from_fields(cls, fields: dict[str, str]) -> MatchRecord:
        record = cls(
            id=fields["id"], game=fields["game"], rules_version=fields["rules_version"],
            options=loads(fields["options"]), seed=loads(fields["seed"]),
            seats=loads(fields["seats"]), status=MatchStatus(fields["status"]),
            version=int(fields["version"]), state=fields["state"], rng=fields["rng"],
            result=loads(fields["result"]), to_move=loads(fields["to_move"]),
            created_at=float(fields["created_at"]), updated_at=float(fields["updated_at"]),
            # Matches stored before these fields existed read as casual, without deadlines.
            tournament=loads(fields.get("tournament", "null")),
            rated=loads(fields.get("rated", "false")),
            move_deadline=loads(fields.get("move_deadline", "null")),
            forfeit_after=loads(fields.get("forfeit_after", "null")),
            owed_since={int(k): v for k, v in loads(fields.get("owed_since", "{}")).items()},
            timeouts={int(k): v for k, v in loads(fields.get("timeouts", "{}")).items()},
            forfeited=loads(fields.get("forfeited", "[]")),
            seeded=loads(fields.get("seeded", "false")),
            bots_since=loads(fields.get("bots_since", "null")),
            finish_owed=loads(fields.get("finish_owed", "false")),
            sealed=loads(fields.get("sealed", "false")),
            resigned=loads(fields.get("resigned", "[]")),
            idle_after=loads(fields.get("idle_after", "null")),
            time_control=loads(fields.get("time_control", "null")),
            clock={int(k): v for k, v in loads(fields.get("clock", "{}")).items()},
        )
        record.stored = fields
        return record
