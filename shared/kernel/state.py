"""The compiled half of the game protocol (:mod:`shared.kernel.protocol`): the :class:`State` base
every engine's state derives from, the move, event and view shapes, the illegal-move errors
and :class:`Result`. Import them from :mod:`shared.kernel.protocol`, which re-exports them.

They live apart from :class:`~shared.kernel.protocol.Game` so that the compiled build
(``shared/infra/accel.py``) can compile this module with the engines: a class mypyc compiles is a
*native* class (fixed attribute slots, methods called through a C vtable) only when every base
is native too. Deriving from an interpreted base, ``abc.ABC`` included, makes it a Python
class with compiled methods: an instance ``__dict__`` beside its slots, and every call of the
search (``clone``, ``legal_moves``, ``apply_legal``) a Python method lookup. Hence the
``ABCMeta`` metaclass rather than the ``ABC`` base. ``Game`` stays interpreted: engines define
their games in interpreted modules, and mypyc (2.4) cannot compile a non-native class that
interpreted classes extend.
"""

from __future__ import annotations

import json
import random
from abc import ABCMeta, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from mypy_extensions import mypyc_attr

Move = dict[str, Any]
Event = dict[str, Any]
View = dict[str, Any]


class IllegalMove(Exception):
    """Raised by ``State.apply`` for a move the rules do not allow; the message says why."""


class NotYourTurn(IllegalMove):
    """Raised when the seat owes no decision now (the API answers 409 rather than 422)."""


@dataclass
class Result:
    """The outcome of a finished match.

    ``ranking[seat]`` is the seat's place (1 = first; tied seats share a place, the next place
    is skipped). ``winners`` are the seats ranked 1. ``details`` is per-game (score breakdown,
    tie-break values).
    """

    scores: list[float]
    ranking: list[int]
    winners: list[int]
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"scores": self.scores, "ranking": self.ranking, "winners": self.winners,
                "details": self.details}

    @classmethod
    def from_keys(cls, keys: Sequence[Any], scores: Sequence[float],
                  details: dict[str, Any] | None = None) -> Result:
        """Rank seats by ``keys`` (higher is better; equal keys tie)."""
        ranking = [1 + sum(1 for other in keys if other > key) for key in keys]
        winners = [seat for seat, place in enumerate(ranking) if place == 1]
        return cls(scores=list(scores), ranking=ranking, winners=winners,
                   details=details or {})


def canonical_id(move: Move) -> str:
    """A stable short id for a move: its fields in a fixed order, joined compactly."""
    # The search keys its tree on these ids, so this runs for most moves it meets: a plain
    # list and loops, no generator objects (which cost the compiled build a class apiece).
    keys = list(move)
    keys.sort()
    parts = [str(move["type"])]
    for key in keys:
        if key == "type":
            continue
        value = move[key]
        if isinstance(value, (list, tuple)):
            value = ",".join([str(v) for v in value])
        parts.append(f"{key}={value}")
    return ":".join(parts)


# An engine left out of the compiled build (``Game.compiled_modules``) or a test's toy game
# still derives from the compiled State.
@mypyc_attr(allow_interpreted_subclasses=True)
class State(metaclass=ABCMeta):
    """A match in progress. Mutable; ``clone()`` must be cheap (no deepcopy)."""

    #: The compiled build keeps it in the native base's own slot, which the search reads: a
    #: subclass sets it and must not list it in its own ``__slots__`` (that slot would
    #: shadow the base's, left unset).
    num_players: int

    @abstractmethod
    def to_move(self) -> list[int]:
        """Seats that owe a decision now, in seat order; empty when the match is over."""

    @abstractmethod
    def legal_moves(self, seat: int) -> list[Move]:
        """Canonical legal moves of ``seat`` now (empty if it owes nothing)."""

    @abstractmethod
    def apply(self, seat: int, move: Move, rng: random.Random) -> list[Event]:
        """Play ``move`` for ``seat``; raise :class:`IllegalMove` (state untouched) if illegal."""

    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def result(self) -> Result:
        """Scores and ranking; only meaningful once ``is_over()``."""

    @abstractmethod
    def view(self, seat: int | None) -> View:
        """What ``seat`` may know (``None`` = spectator), JSON-ready."""

    @abstractmethod
    def clone(self) -> State: ...

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """Lossless JSON form of the whole state (secrets included: never sent to clients)."""

    # -- defaults engines may override for speed or wording ---------------------------------

    def move_id(self, move: Move) -> str:
        return canonical_id(move)

    def move_label(self, move: Move, lang: str = "en") -> str:
        """A label of ``move`` for people, in ``lang`` (engines word it from the label
        templates of their ``texts.<lang>.json``: :func:`shared.kernel.catalogue.wording`)."""
        return self.move_id(move)

    def move_group(self, move: Move, lang: str = "en") -> str | None:
        """What ``move`` is one of, for people choosing from a long list (the card it plays,
        in ``lang``), or None. A page folds a run of moves of one group into one heading, so
        an engine lists a group's moves together."""
        return None

    def random_move(self, seat: int, rng: random.Random) -> Move:
        """A uniformly random legal move (playouts call this; engines may make it faster)."""
        return rng.choice(self.legal_moves(seat))

    def apply_legal(self, seat: int, move: Move, rng: random.Random) -> list[Event]:
        """``apply`` for a move this state itself offered (one of ``legal_moves(seat)`` or
        ``random_move``'s answer): the search plays millions of those, so an engine may skip
        re-validating them. Anything that came from outside must go through ``apply``."""
        return self.apply(seat, move, rng)

    def advance(self, seat: int, move: Move, rng: random.Random) -> None:
        """``apply_legal`` without its events: the search's step (it never reads them), so
        an engine may skip building them. Same state afterwards (the conformance test)."""
        self.apply_legal(seat, move, rng)

    def observe_move(self, seat: int, move: Move, observer: int) -> str:
        """What ``observer`` learns when ``seat`` plays ``move`` (ISMCTS keys its tree on it).

        Public moves are seen whole; a secret move (a face-down pick) must return the same
        string for every choice, e.g. ``"hidden"``.
        """
        return self.move_id(move)

    def observed_moves(self, seat: int, observer: int) -> list[tuple[str, Move]]:
        """``(observe_move(seat, m, observer), m)`` for every legal move ``m`` of ``seat``,
        in legal-move order. The search calls this at every tree node; an engine may override
        it with a faster equivalent (the conformance test checks that they agree)."""
        return [(self.observe_move(seat, move, observer), move)
                for move in self.legal_moves(seat)]

    def find_move(self, seat: int, move_or_id: Move | str) -> Move:
        """Resolve a client's move (object or id) to the canonical legal move, or raise."""
        if seat not in self.to_move():
            raise NotYourTurn(f"seat {seat} owes no decision now")
        legal = self.legal_moves(seat)
        if isinstance(move_or_id, str):
            for move in legal:
                if self.move_id(move) == move_or_id:
                    return move
            raise IllegalMove(f"no legal move has id {move_or_id!r}")
        for move in legal:
            if move == move_or_id:  # exact: a "0" where 0 belongs is not the same move
                return move
        raise IllegalMove(self.explain_illegal(seat, move_or_id))

    def explain_illegal(self, seat: int, move: Move) -> str:
        """Why ``move`` is not legal now; engines override for precise reasons."""
        return f"{json.dumps(move, sort_keys=True)} is not a legal move for seat {seat} now"


# Native like State, so the search's calls of ``advance`` stay C vtable calls.
@mypyc_attr(allow_interpreted_subclasses=True)
class EventsOptionalState(State):
    """A State whose engine plays a move in one ``_apply(seat, move, rng, events)`` that
    builds events only when ``events`` is a list: ``apply_legal`` collects them for the API,
    the search's ``advance`` passes ``None`` and builds none (in a North Star playout, about
    a seventh of the work)."""

    def apply_legal(self, seat: int, move: Move, rng: random.Random) -> list[Event]:
        events: list[Event] = []
        self._apply(seat, move, rng, events)
        return events

    def advance(self, seat: int, move: Move, rng: random.Random) -> None:
        self._apply(seat, move, rng, None)

    @abstractmethod
    def _apply(self, seat: int, move: Move, rng: random.Random,
               events: list[Event] | None) -> None:
        """Play a move ``legal_moves(seat)`` offered; append events to ``events`` unless
        it is ``None``."""


# Compiled with the search and the engines so that a game's cut-off is a native class the
# compiled playout loop calls through a C vtable; tests may subclass it in Python.
@mypyc_attr(allow_interpreted_subclasses=True)
class Cutoff:
    """A playout cut-off a game offers (``Game.playout_cutoff``): stop a playout at a
    game-defined horizon and score the position instead of playing the match out.

    The search calls ``mark`` once where a playout begins and ``evaluate(state, mark)``
    before every playout move, so ``evaluate`` must answer "keep playing" (``None``) cheaply.
    Past the horizon it returns one reward per seat on the search's terminal scale, in
    [0, 1] (``shared.search.ismcts.rewards``: two seats, win 1, loss 0), which the search
    backs up as if the match had ended there. This base never cuts.
    """

    def mark(self, state: State) -> int:
        """Where the playout begins, in the game's own unit (e.g. its round)."""
        return 0

    def evaluate(self, state: State, mark: int) -> list[float] | None:
        """``None`` to keep playing, else the per-seat rewards of ``state`` (see above)."""
        return None
