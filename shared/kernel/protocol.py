"""The game protocol every engine implements.

The API, the bots and the tests use games only through this module, never knowing which game
they hold. Conventions (see DESIGN.md):

* Seats are ints ``0..n-1``. ``to_move()`` lists every seat that owes a decision *now*; in a
  simultaneous secret step (a draft) several seats are listed at once, and a seat that is not
  "on turn" (a defender) may be listed alone.
* A move is a small JSON object ``{"type": ..., **params}`` in one canonical form. Every legal
  move has a short stable id (``move_id``) and a human label (``move_label``).
* ``apply(seat, move, rng)`` mutates the state and returns the events it caused. An event is a
  JSON object with a ``type``; an optional ``audience`` (list of seats) restricts it to those
  seats while the match runs. Engines emit a public counterpart for private events where the
  public may know that *something* happened ("seat 2 chose a card"); it carries
  ``exclude: [seat]`` so the seat that got the private event does not see the news twice.
* Randomness comes only from the ``rng`` passed in (a :class:`random.Random`).
* ``view(seat)`` is exactly what that seat may know (``None``: a spectator). It is JSON-ready.
* ``Game.sample_from_view(view, seat, rng)`` builds a full state consistent with that view,
  hidden parts filled at random. Bots search from it and from nothing else.
* ``to_json`` / ``Game.state_from_json`` form a lossless codec (no pickle).
* ``Game.schemas()`` is the JSON Schema of a view and of each move type (``type`` names it):
  the contract's per-game types and the API's move check come from it.
* ``Game.components()`` is the game's component catalogue (:mod:`shared.kernel.catalogue`):
  every card, trait, board… with its name, rules text and numbers; the view schemas mark
  with ``x-component`` each field that names one.
* Fast paths for the search, each with a plain default an engine may override with an exact
  equivalent (the conformance test checks each against the plain form): ``Game.sampler``
  (many samples of one view), ``State.observed_moves`` (every legal move with its
  observation), ``random_move`` (a legal move, uniformly), ``apply_legal`` (play a move
  the state itself offered, without re-validating it) and ``advance`` (the same without
  building the events, which a search never reads).
* An optional playout cut-off (``Game.playout_cutoff``, a :class:`Cutoff`): the search stops
  a playout at a game-defined horizon and backs up the game's evaluation of the position.

``State`` and what it uses (the move shapes, the errors, ``Result``) are defined in
:mod:`shared.kernel.state`, which the compiled build compiles with the engines so that their
states are native classes; this module re-exports them, so games import everything from here.
"""

from __future__ import annotations

import importlib
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from shared.kernel.budget import SearchBudget
from shared.kernel.state import (
    Cutoff,
    Event,
    EventsOptionalState,
    IllegalMove,
    Move,
    NotYourTurn,
    Result,
    State,
    View,
    canonical_id,
)

__all__ = ["Cutoff", "CutoffBudgets", "Event", "EventsOptionalState", "Game", "IllegalMove",
           "Move", "NotYourTurn", "Option", "Policy", "Result", "State", "View",
           "canonical_id"]


@dataclass(frozen=True)
class Option:
    """One option a match of a game may set, e.g. Darwinning ``eras``."""

    name: str
    type: str  # "int" | "bool" | "str"
    default: Any
    description: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[Any, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        data = {"name": self.name, "type": self.type, "default": self.default,
                "description": self.description}
        for key in ("minimum", "maximum"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        if self.choices is not None:
            data["choices"] = list(self.choices)
        return data


#: A playout policy: a legal move for ``seat`` in a full (determinized) ``state``, drawn with
#: ``rng`` only. The search plays it with ``advance``, so it must return a move the state
#: itself offers (from ``legal_moves`` or ``random_move``) or build exactly such a move.
Policy = Callable[["State", int, random.Random], Move]


@dataclass(frozen=True)
class CutoffBudgets:
    """The budgets at which a game registers its cut-off (``Game.cutoff_budgets``): a
    simulation budget of at most ``simulations`` a move, or a time budget
    (``SearchBudget.timed``) of at most ``seconds`` a move."""

    simulations: int
    seconds: float

    def cover(self, budget: SearchBudget) -> bool:
        """Whether the search under ``budget`` cuts its playouts."""
        if budget.timed:
            return budget.time_cap <= self.seconds
        return budget.simulations <= self.simulations


class Game(ABC):
    """A game in the catalogue: metadata plus constructors of states."""

    id: str
    name: str
    version: str  # rules version, stored with every match
    min_players: int
    max_players: int
    options: tuple[Option, ...] = ()
    description: str = ""

    def resolve_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        """Validate ``options`` against the declared ones and fill defaults."""
        options = dict(options or {})
        known = {opt.name: opt for opt in self.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise ValueError(f"unknown option(s) for {self.id}: {', '.join(unknown)}")
        resolved = {}
        for name, opt in known.items():
            value = options.get(name, opt.default)
            expected: Any = {"int": int, "bool": bool, "str": str}[opt.type]
            if type(value) is not expected:
                raise ValueError(f"option {name} must be of type {opt.type}")
            if opt.minimum is not None and value < opt.minimum:
                raise ValueError(f"option {name} must be at least {opt.minimum}")
            if opt.maximum is not None and value > opt.maximum:
                raise ValueError(f"option {name} must be at most {opt.maximum}")
            if opt.choices is not None and value not in opt.choices:
                raise ValueError(f"option {name} must be one of {list(opt.choices)}")
            resolved[name] = value
        return resolved

    @abstractmethod
    def new_state(self, players: int, options: dict[str, Any], rng: random.Random) -> State:
        """A fresh match for ``players`` seats with resolved ``options``."""

    @abstractmethod
    def state_from_json(self, data: dict[str, Any]) -> State: ...

    @abstractmethod
    def sample_from_view(self, view: View, seat: int, rng: random.Random) -> State:
        """A full state consistent with ``view`` (seat ``seat``'s), hidden parts random."""

    def sampler(self, view: View, seat: int) -> Callable[[random.Random], State]:
        """``rng -> sample_from_view(view, seat, rng)``, for drawing many samples of one view.

        An engine may override it to work out the view's known part once; each call must
        then return exactly what ``sample_from_view`` would with the same ``rng`` state.
        """
        return lambda rng: self.sample_from_view(view, seat, rng)

    def playout_heuristic(self) -> Policy | None:
        """The game's candidate heuristic playout policy, if it has one (``None``: none).

        Strength benches compare it with uniform playouts (``bench.strength`` spec suffix
        ``/h``); the search uses it only where ``heuristic_playouts`` is true.
        """
        return None

    #: True once the heuristic measurably beat uniform playouts at equal wall time.
    heuristic_playouts: bool = False

    def playout_policy(self) -> Policy | None:
        """The policy the search plays playouts with (``None``: uniformly random moves)."""
        return self.playout_heuristic() if self.heuristic_playouts else None

    def playout_cutoff(self, horizon: int | None = None) -> Cutoff | None:
        """The game's candidate playout cut-off (``None``: none): playouts stop at a horizon
        (``horizon`` in the game's own unit, ``None`` its default) and are scored by the game.

        Strength benches compare it with full playouts (``bench.strength`` variant ``+cut``);
        the search uses it only at the player counts and budgets in ``cutoff_budgets``.
        """
        return None

    #: Per player count, the budgets at which the cut-off measurably beat full playouts
    #: (200 seeded matches each): the search uses it there alone. A cut-off's evaluation is
    #: fitted and measured per count, and its bias can cost more than the extra playouts it
    #: buys once full playouts are plentiful, so a registration names the budgets it won at.
    cutoff_budgets: Mapping[int, CutoffBudgets] = MappingProxyType({})

    def search_cutoff(self, players: int, budget: SearchBudget) -> Cutoff | None:
        """The cut-off the search plays playouts with in a match of ``players`` seats under
        ``budget`` (``None``: to the end of the match)."""
        return self.playout_cutoff() if self._cuts(players, budget) else None

    def playouts(self, players: int, budget: SearchBudget) -> str:
        """How the search's playouts end in a match of ``players`` seats under ``budget``:
        ``"cut"`` at the game's registered cut-off, ``"full"`` at the end of the match.
        Strength records keep it, since registering a cut-off changes the bots' moves."""
        return "cut" if self._cuts(players, budget) else "full"

    def _cuts(self, players: int, budget: SearchBudget) -> bool:
        where = self.cutoff_budgets.get(players)
        return where is not None and where.cover(budget)

    def compiled_modules(self) -> tuple[str, ...]:
        """Dotted names of this engine's modules that the compiled build compiles with mypyc
        (``shared.infra.accel``; the worker runs that build when it exists).

        By default every module of the package that defines the game's class except its
        ``__init__`` (registration glue, not hot) and its ``catalogue`` (the component
        catalogue, read once), or the defining module itself when the engine is a single
        module. An engine overrides it to add helper modules or to leave
        out one that mypyc rejects (``tests/test_accel.py`` builds and checks them all).
        """
        engine, module = self._engine()
        if not hasattr(module, "__path__"):
            return (engine,)
        return tuple(sorted(f"{engine}.{path.stem}" for path in self.data_dir().glob("*.py")
                            if path.stem not in ("__init__", "catalogue")))

    def _engine(self) -> tuple[str, Any]:
        # Engines live in shared.games.<engine>: a package, or a single module.
        engine = ".".join(type(self).__module__.split(".")[:3])
        return engine, importlib.import_module(engine)

    def data_dir(self) -> Path:
        """The engine's folder: its data files (``components.json``, ``schemas.json``, the
        match page's ``board.js``) live beside its modules."""
        return Path(str(self._engine()[1].__file__)).parent

    def schemas(self) -> dict[str, Any]:
        """JSON Schema (2020-12) of what this game sends and takes: ``{"view": <a seat's or a
        spectator's view>, "moves": {<move type>: <that move's object>}, "$defs": {...}}``,
        every ``$ref`` of the form ``#/$defs/<name>``.

        By default read from ``schemas.json`` in :meth:`data_dir`. The contract (openapi.yaml,
        written by ``scripts/openapi_games.py``) and the API's move check
        (``shared.matches.moves``) both read it, so a game declares its shapes once.
        """
        path = self.data_dir() / "schemas.json"
        schemas: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return schemas

    def components(self, lang: str = "en") -> dict[str, Any]:
        """The game's component catalogue in ``lang`` (see :mod:`shared.kernel.catalogue`):
        ``{"game", "lang", "reconstruction", "note", "categories", "components"}``. Built by
        each engine from its data files (``components.json``, ``texts.<lang>.json``); the
        default is an empty catalogue."""
        return {"game": self.id, "lang": lang, "reconstruction": False, "note": "",
                "categories": [], "components": []}

    def greedy_value(self, state: State, seat: int) -> float:
        """A cheap evaluation of ``state`` for ``seat`` (the greedy bot maximises it)."""
        if state.is_over():
            result = state.result()
            return result.scores[seat]
        return 0.0

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "rules_version": self.version,
                "min_players": self.min_players, "max_players": self.max_players,
                "options": [opt.to_json() for opt in self.options],
                "description": self.description}
