"""When a finished bot search still answers its seat's question at a newer match version.

In a simultaneous secret step (a face-down draft pick, a secret food card) every accepted
choice bumps the match version. A bot that started searching before another seat chose
would then be told its version is stale and search again; with four ISMCTS bots in a draft,
most of the search time went that way. Yet nothing the seat knows has changed in a way its
search had not already allowed for: the other seat owed a choice when the search began, and
every choice it had looked the same to this seat.

So a search remembers the question it answered (:class:`Question`, kept in the turn's
lease) and its move is resubmitted at the newer version, while newer tasks for the seat
defer to it, if every move since was by a different seat that was in :attr:`Question.unseen`
(it owed a decision then and all its legal moves were observed identically by this seat,
``State.observed_moves``), and this seat still owes the same legal moves. Anything else (a
visible move, a seat moving twice, this seat's own move, a join) means searching afresh.
The test is the protocol's alone: no game is named here.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from shared.kernel.protocol import State


@dataclass(frozen=True)
class Question:
    """What a search begun at ``version`` was asked, enough to tell whether it still holds."""

    version: int
    unseen: frozenset[int]  # seats owing a decision then whose choice this seat cannot see
    moves: str  # digest of the seat's legal move ids then

    def to_json(self) -> str:
        return json.dumps({"version": self.version, "unseen": sorted(self.unseen),
                           "moves": self.moves})

    @classmethod
    def from_json(cls, text: str) -> Question | None:
        """The question stored in a lease, or None for a lease without one."""
        try:
            data = json.loads(text)
            return cls(int(data["version"]), frozenset(int(s) for s in data["unseen"]),
                       str(data["moves"]))
        except (ValueError, TypeError, KeyError):
            return None


def legal_digest(state: State, seat: int) -> str:
    """The seat's legal moves as a set: their ids, sorted (an engine's order is no choice)."""
    ids = "\n".join(sorted(state.move_id(move) for move in state.legal_moves(seat)))
    return hashlib.sha256(ids.encode()).hexdigest()[:32]


def ask(state: State, seat: int, version: int) -> Question:
    """The question ``seat`` is about to search at ``version``."""
    unseen = frozenset(
        other for other in state.to_move()
        if other != seat and len({seen for seen, _ in state.observed_moves(other, seat)}) <= 1)
    return Question(version, unseen, legal_digest(state, seat))


def still_open(question: Question, seat: int, state: State, version: int,
               entries: Sequence[dict[str, Any]]) -> bool:
    """Whether ``state`` (at ``version``) asks ``seat`` the same question.

    ``entries`` is the tail of the match log; it must reach back to ``question.version``.
    """
    since = [e for e in entries if e.get("version", -1) > question.version]
    movers = [e.get("seat") for e in since if "move" in e]
    return (version > question.version
            and [e.get("version") for e in since] == list(range(question.version + 1,
                                                                 version + 1))
            and len(movers) == len(since) and len(set(movers)) == len(movers)
            and all(mover in question.unseen for mover in movers)
            and seat in state.to_move() and legal_digest(state, seat) == question.moves)


def ask_quoted(state: State, seat: int, version: int) -> Question:
    """The question a move quoting ``version`` answered (``MatchService``'s quoted version).

    Unlike a search's (:func:`ask`), it allows for every other seat that owed a decision in
    the same step, seen or not: the step is simultaneous, so a choice made before another
    seat's is as good as one made after it, as long as this seat's legal moves are the same
    (``still_open`` checks them). A bot that posts the move for the turn it was handed is then
    not refused because another seat of the step chose in between.
    """
    others = frozenset(other for other in state.to_move() if other != seat)
    return Question(version, others, legal_digest(state, seat))
