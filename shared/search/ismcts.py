"""Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012), generic.

The searcher knows only its view. Every iteration samples a determinization from the view
(``Game.sampler``: ``Game.sample_from_view`` with the view's known part worked out once) and
uses it as the iteration's working state (no other clone), descends one tree whose edges
are what the *searcher observes* of each move (``State.observe_move(actor, move, searcher)``),
expands one node, plays out with the game's playout policy and backs up a reward for every
seat.

* Own moves and public moves are distinct edges; another seat's secret choices collapse to
  one edge, and the concrete move behind such an edge is drawn from the playout policy.
* Selection is UCB1 over the children compatible with the current determinization, with
  ISMCTS availability counts in place of the parent's visits.
* Every node stores the total reward of the seat that made the move into it, so each seat
  maximises its own result (a paranoid or two-player sign flip would not fit 3 to 8 seats).
* Chance happens inside ``apply`` with the search's rng and is not a tree edge (open loop).
* Simultaneous steps are sequentialised: the searcher acts first when it is listed (its
  decision is then the root's edge), the others in seat order. Their secret picks are drawn
  from the policy, so no one in the tree "sees" a simultaneous pick it should not.
* Nodes where only one edge exists (forced or fully secret moves) do not count as the
  iteration's expansion, so the tree's depth is spent on real choices.

Playout cut-off (``SearchConfig.cutoff``, a game's ``Cutoff``; ``Game.search_cutoff``
registers one): each playout stops at the game's horizon and backs up the game's estimate of
every seat's reward on the scale below instead of playing the match out
(``policies.playout_cut``); a match that ends first backs up its real result.

Reward of a finished match per seat, in [0, 1]: ``0.5 * (n - rank) / (n - 1)`` plus
``0.5 * (score - min) / (max - min)`` (the second term 0.5 for all when all scores are equal).
Rank dominates (first place is worth as much as the whole score spread) while the score term
still separates a close second from a distant last in games with 3+ seats. With two seats it
is simply win 1, loss 0 (a tie 0.75 each).

Options that lost their 200-match test (multiple-observer ISMCTS, subtree reuse, both
together, a score-margin reward; docs/benchmarks.md's "Search changes tried") were removed from the
search; commit 8625cbb is the last one that has them.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from shared.kernel.budget import SearchBudget
from shared.kernel.protocol import Cutoff, Game, Move, Result, State, View
from shared.kernel.rng import randbelow
from shared.search.policies import Policy, playout_cut, playout_until, policy_for

EXPLORATION: Final = 0.7  # UCB1 constant for rewards in [0, 1]; the usual ISMCTS choice (~1/sqrt 2)
DECIDED_CHECK_EVERY: Final = 16  # iterations between checks whether the root's choice is settled


@dataclass(frozen=True)
class SearchConfig:
    """How ``search_move`` searches; the defaults are production's search.

    ``policy`` plays the playouts (default: the game's, ``policies.policy_for``);
    ``exploration`` is the UCB1 constant; ``stop_when_decided`` stops early, with the same
    move, once no other root move can overtake the most visited one (``_decided``); ``clock``
    (seconds) is the time source, for tests; ``cutoff`` stops every playout at its horizon
    and backs up its evaluation (``Cutoff``; a ``Cutoff()`` that never cuts plays playouts
    out), by default the game's registered one (``Game.search_cutoff``, per player count and
    budget, ``Game.cutoff_budgets``).
    """

    policy: Policy | None = None
    exploration: float = EXPLORATION
    stop_when_decided: bool = True
    clock: Callable[[], float] = time.perf_counter
    cutoff: Cutoff | None = None


DEFAULT_CONFIG: Final = SearchConfig()


class Node:
    """A tree node: the move edge into it, as statistics of the seat that made that move."""

    __slots__ = ("actor", "actor_at", "avail", "children", "groups", "legal", "secret", "total",
                 "visits")

    def __init__(self, actor: int) -> None:
        self.actor = actor  # seat whose move leads here; ``total`` is that seat's reward
        self.visits = 0
        self.avail = 0  # iterations in which this edge was available (ISMCTS)
        self.total = 0.0
        self.children: dict[str, Node] = {}
        # (actor, key) once another seat's choice here proved wholly secret to the searcher:
        # later visits then skip enumerating that seat's moves (see ``_iterate``).
        self.secret: tuple[int, str] | None = None
        # The last legal-move list seen here and its moves grouped by observation: when the
        # next determinization offers an equal list (a cheap C-level comparison), the groups
        # are reused instead of asking the engine for every move's observation again.
        self.legal: list[Move] | None = None
        self.groups: dict[str, list[Move]] = {}
        self.actor_at = -1  # the seat whose moves ``legal`` lists


def rewards(result: Result) -> list[float]:
    """Per-seat reward in [0, 1] of a finished match (see the module docstring)."""
    n = len(result.scores)
    if n < 2:
        return [1.0] * n
    lo, hi = min(result.scores), max(result.scores)
    span = hi - lo
    out = []
    for place, score in zip(result.ranking, result.scores, strict=True):
        spread = (score - lo) / span if span else 0.5
        out.append(0.5 * (n - place) / (n - 1) + 0.5 * spread)
    return out


def search_move(game: Game, view: View, seat: int, budget: SearchBudget, rng: random.Random,
                *, config: SearchConfig = DEFAULT_CONFIG,
                stats: dict[str, Any] | None = None) -> Move:
    """The move ISMCTS chooses for ``seat`` knowing only ``view``, searched as ``config``
    says (``SearchConfig``).

    Runs ``budget.simulations`` iterations or stops before the first iteration that would
    end after ``budget.time_cap`` seconds (predicted as the slower of the mean iteration so
    far and the last one),
    whichever comes first (an iteration whose playout runs past the cap is abandoned:
    ``policies.playout_until``), though never before ``budget.min_simulations`` iterations
    have completed (the cap does not cut that floor), and returns the most visited root move
    (a canonical legal move of ``seat``): a time budget gets the best move found within it.
    Deterministic for a given ``rng`` state unless the time cap cuts the search. Errors
    propagate (the caller falls back to a random move).
    ``stats``, if given, is filled with ``iterations``, ``elapsed``, ``stopped`` ("budget",
    "decided", "time" or "forced") and per-move ``visits`` and mean ``values``.
    """
    play = config.policy or policy_for(game)
    clock = config.clock
    start = clock()
    draw = game.sampler(view, seat)
    sample = draw(rng)
    cut = config.cutoff if config.cutoff is not None \
        else game.search_cutoff(sample.num_players, budget)
    if seat not in sample.to_move():
        raise ValueError(f"seat {seat} owes no decision in this view")
    # The searcher's own moves are seen whole: one root edge per legal move, same in every
    # determinization (the protocol guarantees the seat's legal moves follow from its view).
    root_moves: dict[str, Move] = {}
    for move in sample.legal_moves(seat):
        root_moves.setdefault(sample.observe_move(seat, move, seat), move)
    if not root_moves:
        raise ValueError(f"seat {seat} has no legal move")
    root = Node(-1)
    iterations, stopped = 0, "forced"
    if len(root_moves) > 1:
        iterations, stopped = _run(root, sample, draw, seat, budget, rng, config, play, cut,
                                   start)
    if stats is not None:
        _report(stats, root, root_moves, iterations, clock() - start, stopped)
    best_key = next(iter(root_moves))
    best = (-1, -1.0)
    for key in root_moves:  # legal-move order breaks exact ties: reproducible
        child = root.children.get(key)
        if child is not None and child.visits:  # an abandoned iteration's edge has none
            rank = (child.visits, child.total / child.visits)
            if rank > best:
                best, best_key = rank, key
    return root_moves[best_key]


def _run(root: Node, sample: State, draw: Callable[[random.Random], State], seat: int,
         budget: SearchBudget, rng: random.Random, config: SearchConfig, play: Policy,
         cut: Cutoff | None, start: float) -> tuple[int, str]:
    """The search's iterations from ``root`` (``sample`` the first determinization): how
    many completed and why they stopped (see ``search_move``)."""
    # The configuration's fields as locals: no attribute look-up per iteration.
    clock = config.clock
    exploration = config.exploration
    stop_when_decided = config.stop_when_decided
    deadline = start + budget.time_cap
    simulations = budget.simulations
    floor = budget.min_simulations
    previous = start
    iterations = 0
    # Typed State, not Any: the compiled build then calls the native engine's methods
    # directly (a C vtable) instead of looking them up by name.
    state: State | None = sample  # the first determinization is used too, not wasted
    while iterations < simulations:
        if state is None:
            # Stop before an iteration predicted to end past the deadline: a time budget
            # is answered inside it with the best move so far. The prediction is the
            # slower of the mean iteration and the last one, because on a loaded machine
            # one iteration's wall time can jump far above the mean (bench_bot_wait).
            now = clock()
            if iterations >= floor and now + max(
                    (now - start) / iterations, now - previous) > deadline:
                return iterations, "time"
            previous = now
            if stop_when_decided and iterations % DECIDED_CHECK_EVERY == 0 and _decided(
                    root, simulations - iterations):
                return iterations, "decided"
            state = draw(rng)
        # Below the floor of simulations no playout is abandoned: the cap does not cut it.
        until = deadline if iterations >= floor else math.inf
        done = _iterate(state, root, seat, play, rng, exploration, until, clock, cut)
        state = None
        if not done:  # its playout ran past the deadline: answer with what we have
            return iterations, "time"
        iterations += 1
    return iterations, "budget"


def _report(stats: dict[str, Any], root: Node, root_moves: dict[str, Move], iterations: int,
            elapsed: float, stopped: str) -> None:
    """Fill ``stats`` (see ``search_move``) from the searched ``root``."""
    visited = {key: root.children[key] for key in root_moves
               if key in root.children and root.children[key].visits}
    stats.update(
        iterations=iterations, elapsed=elapsed, stopped=stopped,
        visits={key: child.visits for key, child in visited.items()},
        values={key: child.total / child.visits for key, child in visited.items()},
    )


def _decided(root: Node, remaining: int) -> bool:
    """Whether the most visited root move is already certain to stay the most visited.

    Each iteration adds one visit to one root edge, so when the leader's lead exceeds the
    iterations left, no other edge can catch up: stopping now returns exactly the move the
    full budget would (the usual "early stop" of MCTS engines; it saves time, not strength).
    """
    first = second = 0
    for child in root.children.values():
        visits = child.visits
        if visits > first:
            first, second = visits, first
        elif visits > second:
            second = visits
    return first - second > remaining


def _groups(node: Node, state: State, actor: int, observer: int,
            legal: list[Move]) -> dict[str, list[Move]]:
    """``actor``'s legal moves grouped by what ``observer`` sees of them, cached on ``node``
    while the actor and its legal moves stay the same."""
    if node.actor_at == actor and node.legal == legal:
        return node.groups
    groups: dict[str, list[Move]] = {}
    for key, move in state.observed_moves(actor, observer):
        group = groups.get(key)
        if group is None:
            groups[key] = [move]
        else:
            group.append(move)
    node.legal, node.groups, node.actor_at = list(legal), groups, actor
    return groups


def _select(node: Node, groups: dict[str, Any], actor: int, exploration: float,
            rng: random.Random) -> tuple[str, Node, bool]:
    """Expand an untried observation of ``node`` (chosen at random), else pick the child with
    the best UCB among those available now; returns (key, child, expanded)."""
    children = node.children
    untried = [key for key in groups if key not in children]
    if untried:
        key = untried[randbelow(rng, len(untried))] if len(untried) > 1 else untried[0]
        child = children[key] = Node(actor)
        for other in groups:
            if other in children:
                children[other].avail += 1
        return key, child, True
    best_value = -1.0
    key = ""
    child = node
    for candidate in groups:
        edge = children[candidate]
        edge.avail += 1
        value = edge.total / edge.visits + exploration * math.sqrt(
            math.log(edge.avail) / edge.visits)
        if value > best_value:
            best_value, key, child = value, candidate, edge
    return key, child, False



def _iterate(state: State, root: Node, seat: int, play: Policy, rng: random.Random,
             exploration: float, deadline: float, clock: Callable[[], float],
             cutoff: Cutoff | None) -> bool:
    """One ISMCTS iteration on the determinization ``state`` (consumed); false, with nothing
    backed up, if its playout was abandoned at ``deadline``. The searcher acts first in a
    simultaneous step; ``cutoff`` as in ``SearchConfig``."""
    node = root
    path: list[Node] = []
    seats = state.to_move()
    while seats:
        actor = seat if seat in seats else seats[0]
        secret = node.secret
        if secret is not None and secret[0] == actor:
            # Known secret step: draw the policy's move and confirm it still looks the same
            # to the searcher (a public move would not), instead of listing every move.
            move = play(state, actor, rng)
            if state.observe_move(actor, move, seat) == secret[1]:
                child = node.children[secret[1]]
                child.avail += 1
                path.append(child)
                state.advance(actor, move, rng)
                node = child
                seats = state.to_move()
                continue
        legal = state.legal_moves(actor)
        groups = _groups(node, state, actor, seat, legal)
        count = len(legal)
        children = node.children
        expanded = False
        if len(groups) == 1:
            # A forced or wholly secret choice: one edge; the concrete move is the policy's.
            key, group = next(iter(groups.items()))
            move = group[0] if len(group) == 1 else play(state, actor, rng)
            found = children.get(key)
            if found is None:
                found = children[key] = Node(actor)
            child = found
            child.avail += 1
            node.secret = (actor, key) if count > 1 and actor != seat else None
        else:
            node.secret = None
            key, child, expanded = _select(node, groups, actor, exploration, rng)
            group = groups[key]
            move = group[0] if len(group) == 1 else group[randbelow(rng, len(group))]
        path.append(child)
        state.advance(actor, move, rng)
        node = child
        if expanded:
            break
        seats = state.to_move()
    return _play_out(state, path, play, rng, deadline, clock, cutoff)


def _play_out(state: State, path: list[Node], play: Policy, rng: random.Random,
              deadline: float, clock: Callable[[], float], cutoff: Cutoff | None) -> bool:
    """Play ``state`` out (to ``cutoff``'s horizon, if any) and back up along ``path``;
    false, with nothing backed up, if the playout was abandoned at ``deadline``."""
    if cutoff is None:
        if not playout_until(state, play, rng, deadline, clock):
            return False
        _back_up(path, rewards(state.result()))
        return True
    done, scored = playout_cut(state, play, rng, deadline, clock, cutoff)
    if not done:
        return False
    # No evaluation: the match ended before the horizon, and its real result counts.
    _back_up(path, scored if scored is not None else rewards(state.result()))
    return True


def _back_up(path: list[Node], reward: list[float]) -> None:
    """Credit every edge of ``path`` with ``reward`` (per seat: a finished match's rewards,
    or a cut-off's evaluation of an unfinished one) for the seat that made its move."""
    for edge in path:
        edge.visits += 1
        edge.total += reward[edge.actor]
