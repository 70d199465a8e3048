"""The analysis of one seat's decisions in a finished match: at each of them, the hint's
search (``shared.search``, from the seat's view alone, as a bot or a hint searches) says
what it would have played and how the move the seat played compares.

The *loss* of a decision is the search's win estimate of its own choice minus that of the
move played (0 when they agree; never below 0: the search's choice is its most visited move,
whose mean may trail a rarely tried one's). The decisions with the largest losses are
*marked*: where the seat lost most of its win estimate. Pure: games only through the kernel,
no I/O; deterministic for a given log and budget unless the time cap cuts a search.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Sequence
from typing import Any

from shared.kernel.budget import SearchBudget
from shared.kernel.protocol import Game, State
from shared.search import SearchConfig, search_move

#: At most this many decisions are marked, worst first ...
MARKED = 5
#: ... and only those that lost at least this much of the win estimate (a smaller gap is the
#: search's own noise at an analysis budget).
MIN_LOSS = 0.05
#: Every root move is searched to the end of the budget: the early stop would leave the move
#: played with too few visits to have an estimate.
CONFIG = SearchConfig(stop_when_decided=False)


def replayed(game: Game, seats: int, options: dict[str, Any], seed: int,
             entries: Sequence[dict[str, Any]]) -> Iterator[tuple[State, dict[str, Any]]]:
    """``(state before the move, its log entry)`` for each move of the log, in order, the
    state rebuilt from the seed as the match dealt it (the state is mutated after each
    yield: copy it to keep it)."""
    rng = random.Random(seed)
    state = game.new_state(seats, options, rng)
    for entry in entries:
        if "move" in entry:
            yield state, entry
            state.apply(entry["seat"], entry["move"], rng)


def analyse(game: Game, seats: int, options: dict[str, Any], seed: int,
            entries: Sequence[dict[str, Any]], seat: int, budget: SearchBudget
            ) -> dict[str, Any]:
    """Every decision ``seat`` made with a choice, searched as a hint would be, and the
    steps of the marked ones (worst first)."""
    started = time.monotonic()
    decisions = []
    for step, (state, entry) in enumerate(replayed(game, seats, options, seed, entries), 1):
        if entry["seat"] != seat or len(state.legal_moves(seat)) < 2:
            continue
        decisions.append(_decision(game, state, entry, step, seat, seed, budget))
    lost = sorted((d for d in decisions if d["loss"] is not None and d["loss"] >= MIN_LOSS),
                  key=lambda d: (-d["loss"], d["step"]))
    return {"seat": seat, "simulations": budget.simulations, "decisions": decisions,
            "marked": [d["step"] for d in lost[:MARKED]],
            "seconds": round(time.monotonic() - started, 3)}


def _decision(game: Game, state: State, entry: dict[str, Any], step: int, seat: int,
              seed: int, budget: SearchBudget) -> dict[str, Any]:
    """One decision: the move played, the search's choice, their estimates and the loss."""
    stats: dict[str, Any] = {}
    # The seat's view only (never the full state: the search must not know what the seat
    # did not), seeded by the decision so the same analysis comes out again.
    best = search_move(game, state.view(seat), seat, budget,
                       random.Random(f"analysis:{seed}:{step}:{seat}"), config=CONFIG,
                       stats=stats)
    values = stats.get("values", {})
    played = values.get(state.observe_move(seat, entry["move"], seat))
    chosen = values.get(state.observe_move(seat, best, seat))
    loss = None if played is None or chosen is None else max(0.0, chosen - played)
    return {"step": step, "version": entry["version"], "move": entry["move"],
            "label": entry.get("label", state.move_label(entry["move"])),
            "win_estimate": _rounded(played), "best": best, "best_id": state.move_id(best),
            "best_label": state.move_label(best), "best_win_estimate": _rounded(chosen),
            "loss": _rounded(loss)}


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 3)
