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

Multiple-observer variant (``multi_observer=True``, Cowling, Powley & Whitehouse 2012, MO-ISMCTS):
one tree per seat, each keyed on what *that* seat observes. A decision is selected by UCB1 in
the tree of the seat making it, over its own moves seen whole, and every tree follows the
move as its owner observes it. The others' secret choices are then searched as each of them
would (modelled opponents who know their own cards) instead of drawn from the playout
policy, while the searcher's tree still only learns what the searcher sees. A seat that acts
later in a sequentialised simultaneous step sees the earlier picks only as its tree's one
"secret" edge, so no tree learns a pick its owner could not see.

Subtree reuse (``tree``, a :class:`SearchTree`; ``shared/search/reuse.py`` keeps them between
decisions): the search continues from the node an earlier search reached by the edges the seat
has observed since, so that node's statistics count towards this decision while the budget
still counts new iterations only. Such a tree follows simultaneous steps below the root in
seat order (``searcher_first=False``), the order in which moves are played (the bench plays
them so), so that the next decision's node exists in it.

Both at once (``multi_observer=True`` with ``trees``, a :class:`SeatTrees`): every seat's
tree is kept, and the next search continues each from the node the searcher's observations
since lead to (``reuse.SeatTreeCache``). It stays fair — every kept tree holds only what the
searcher could know:

* Each tree, the other seats' included, was grown in determinizations sampled from the
  searcher's view with the search's own rng; another seat's tree models that seat as if it
  knew its cards, but its cards are the searcher's guesses, never the true ones.
* The walk to the next decision uses the searcher's observations alone. The searcher's tree
  is keyed on them. Another seat's tree is keyed on what *that* seat observes, which the
  searcher cannot follow: the seat's own secret moves are edges of their own there. Walking
  it by the seat's true observations would hand the searcher those secrets, so each of its
  edges records what the searcher observed of the moves behind it (``Node.seen``), and the
  walk keeps every edge consistent with what the searcher saw; where several are (the
  seat's secret pick), their subtrees are merged into one (``reuse.merge``): the seat's
  statistics over the iterations consistent with the searcher's observations, as a fresh
  root mixes the seat's possible hands.
* A tree whose walk finds no such edge, or ends elsewhere than at the searcher's decision,
  starts afresh, as do all of them on a cache miss.

Playout cut-off (``cutoff``, a game's ``Cutoff``; ``Game.search_cutoff`` registers one): each
playout stops at the game's horizon and backs up the game's estimate of every seat's reward
on the scale below instead of playing the match out (``policies.playout_cut``); a match that
ends first backs up its real result. ``margin`` applies to real results only.

Reward of a finished match per seat, in [0, 1]: ``0.5 * (n - rank) / (n - 1)`` plus
``0.5 * (score - min) / (max - min)`` (the second term 0.5 for all when all scores are equal).
Rank dominates (first place is worth as much as the whole score spread) while the score term
still separates a close second from a distant last in games with 3+ seats. With two seats it
is simply win 1, loss 0 (a tie 0.75 each).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any, Final

from shared.kernel.budget import SearchBudget
from shared.kernel.protocol import Cutoff, Game, Move, Result, State, View
from shared.kernel.rng import randbelow
from shared.search.policies import Policy, playout_cut, playout_until, policy_for

EXPLORATION: Final = 0.7  # UCB1 constant for rewards in [0, 1]; the usual ISMCTS choice (~1/sqrt 2)
DECIDED_CHECK_EVERY: Final = 16  # iterations between checks whether the root's choice is settled


class Node:
    """A tree node: the move edge into it, as statistics of the seat that made that move."""

    __slots__ = ("actor", "actor_at", "avail", "children", "groups", "legal", "secret", "seen",
                 "total", "visits")

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
        # Kept MO trees only (``SeatTrees``): in another seat's tree, what the *searcher*
        # observed of the moves behind this edge, so a later decision can follow the tree by
        # the searcher's observations alone (``reuse.follow_seen``).
        self.seen: set[str] | None = None


class SearchTree:
    """A search tree handed from one decision to the next (subtree reuse).

    ``root`` is the node to continue from, or ``None`` to start afresh; ``search_move`` sets it
    to the root it searched. The node must be the seat's own decision as reached by the edges
    it observed (``reuse.TreeCache`` checks that), so its statistics are the seat's own.
    """

    __slots__ = ("root",)

    def __init__(self, root: Node | None = None) -> None:
        self.root = root


class SeatTrees:
    """Every seat's MO-ISMCTS tree handed from one decision to the next (``multi_observer``
    with reuse): ``roots[s]`` is seat ``s``'s tree, ``None`` (or missing) to start it afresh.

    ``search_move`` leaves the roots it searched there, and records on the nodes of the other
    seats' trees what the searcher observed of each edge's moves (``Node.seen``), so
    ``reuse.SeatTreeCache`` can follow every tree by the searcher's own observations.
    """

    __slots__ = ("roots",)

    def __init__(self, roots: list[Node | None] | None = None) -> None:
        self.roots: list[Node | None] = roots if roots is not None else []


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


def margin_rewards(result: Result, weight: float) -> list[float]:
    """``rewards`` blended with each seat's score margin: ``(1 - weight) * rewards + weight *
    margin``, the margin being ``0.5 + 0.5 * (score - best other score) / max |score|``
    (clipped to [0, 1]). A win by a wide margin then backs up more than a narrow one, which
    two seats' win-or-lose reward cannot tell apart (``margin`` option of ``search_move``)."""
    base = rewards(result)
    scores = result.scores
    if len(scores) < 2:
        return base
    scale = max(abs(score) for score in scores) or 1.0
    out = []
    for index, score in enumerate(scores):
        best_other = max(other for seat, other in enumerate(scores) if seat != index)
        lead = max(-1.0, min(1.0, (score - best_other) / scale))
        out.append((1.0 - weight) * base[index] + weight * (0.5 + 0.5 * lead))
    return out


def search_move(game: Game, view: View, seat: int, budget: SearchBudget, rng: random.Random,
                stats: dict[str, Any] | None = None, policy: Policy | None = None,
                exploration: float = EXPLORATION, stop_when_decided: bool = True,
                clock: Callable[[], float] = time.perf_counter,
                multi_observer: bool = False, tree: SearchTree | None = None,
                searcher_first: bool = True, margin: float = 0.0,
                trees: SeatTrees | None = None, cutoff: Cutoff | None = None) -> Move:
    """The move ISMCTS chooses for ``seat`` knowing only ``view``.

    Runs ``budget.simulations`` iterations or stops before the first iteration that would
    end after ``budget.time_cap`` seconds (predicted as the slower of the mean iteration so
    far and the last one),
    whichever comes first (an iteration whose playout runs past the cap is abandoned:
    ``policies.playout_until``), though never before ``budget.min_simulations`` iterations
    have completed (the cap does not cut that floor), and returns the most visited root move
    (a canonical legal move of ``seat``): a time budget gets the best move found within it.
    Deterministic for a given ``rng`` state unless the time cap cuts the search. Errors
    propagate (the caller falls back to a random move).
    Unless ``stop_when_decided`` is false, it stops early, with the same move, once no other
    root move can overtake the most visited one in the iterations left (``_decided``).
    ``stats``, if given, is filled with ``iterations``, ``elapsed``, ``stopped`` ("budget",
    "decided", "time" or "forced"), ``reused`` (root visits a reused tree brought) and
    per-move ``visits`` and mean ``values``. ``clock``
    (seconds) is the time source, for tests. ``multi_observer`` searches one tree per seat
    (MO-ISMCTS, see the module docstring) instead of the searcher's tree alone. ``tree``
    continues from ``tree.root`` (its statistics count, the budget counts new iterations) and
    leaves the searched root there (subtree reuse). ``searcher_first`` false orders
    simultaneous steps below the root in seat order instead of the searcher first.
    ``margin`` (0 to 1) blends the score margin into the reward (``margin_rewards``).
    ``trees`` (with ``multi_observer``) continues every seat's tree from ``trees.roots`` and
    leaves the searched roots there (see ``SeatTrees`` and the module docstring).
    ``cutoff`` stops every playout at its horizon and backs up its evaluation instead of
    the finished match's rewards (``Cutoff``); by default the game's registered one
    (``Game.search_cutoff``), registered per player count and budget
    (``Game.cutoff_budgets``).
    """
    if tree is not None and multi_observer:
        raise ValueError("subtree reuse of one tree keeps the searcher's tree alone: "
                         "with multi_observer, pass every seat's trees as `trees`")
    if trees is not None and not multi_observer:
        raise ValueError("`trees` keeps one tree per seat: it needs multi_observer")
    play = policy or policy_for(game)
    start = clock()
    deadline = start + budget.time_cap
    draw = game.sampler(view, seat)
    sample = draw(rng)
    cut = cutoff if cutoff is not None else game.search_cutoff(sample.num_players, budget)
    if seat not in sample.to_move():
        raise ValueError(f"seat {seat} owes no decision in this view")
    # The searcher's own moves are seen whole: one root edge per legal move, same in every
    # determinization (the protocol guarantees the seat's legal moves follow from its view).
    root_moves: dict[str, Move] = {}
    for move in sample.legal_moves(seat):
        root_moves.setdefault(sample.observe_move(seat, move, seat), move)
    if not root_moves:
        raise ValueError(f"seat {seat} has no legal move")
    stopped = "budget"
    roots: list[Node] = []
    if multi_observer:
        # MO-ISMCTS: every seat's own tree, the searcher's being ``root`` (its statistics
        # decide); kept ones continue, the others start afresh.
        kept = trees.roots if trees is not None else []
        for other in range(sample.num_players):
            found = kept[other] if other < len(kept) else None
            roots.append(found if found is not None else Node(-1))
        root = roots[seat]
        if trees is not None:
            trees.roots = list(roots)
    else:
        root = tree.root if tree is not None and tree.root is not None else Node(-1)
        if tree is not None:
            tree.root = root
    reused = sum(child.visits for child in root.children.values())
    iterations = 0
    if len(root_moves) == 1:
        stopped = "forced"
    else:
        # Typed State, not Any: the compiled build then calls the native engine's methods
        # directly (a C vtable) instead of looking them up by name.
        state: State | None = sample  # the first determinization is used too, not wasted
        simulations = budget.simulations
        floor = budget.min_simulations
        previous = start
        while iterations < simulations:
            if state is None:
                # Stop before an iteration predicted to end past the deadline: a time budget
                # is answered inside it with the best move so far. The prediction is the
                # slower of the mean iteration and the last one, because on a loaded machine
                # one iteration's wall time can jump far above the mean (bench_bot_wait).
                now = clock()
                if iterations >= floor and now + max(
                        (now - start) / iterations, now - previous) > deadline:
                    stopped = "time"
                    break
                previous = now
                if stop_when_decided and iterations % DECIDED_CHECK_EVERY == 0 and _decided(
                        root, simulations - iterations):
                    stopped = "decided"
                    break
                state = draw(rng)
            # Below the floor of simulations no playout is abandoned: the cap does not cut it.
            until = deadline if iterations >= floor else math.inf
            if multi_observer:
                done = _iterate_multi(state, roots, seat, play, rng, exploration, until,
                                      clock, margin, searcher_first, trees is not None, cut)
            else:
                done = _iterate(state, root, seat, play, rng, exploration, until, clock,
                                searcher_first, margin, cut)
            state = None
            if not done:  # its playout ran past the deadline: answer with what we have
                stopped = "time"
                break
            iterations += 1
    if stats is not None:
        stats.update(
            iterations=iterations, elapsed=clock() - start, stopped=stopped, reused=reused,
            visits={key: root.children[key].visits for key in root_moves
                    if key in root.children and root.children[key].visits},
            values={key: root.children[key].total / root.children[key].visits
                    for key in root_moves if key in root.children and root.children[key].visits},
        )
    best_key = next(iter(root_moves))
    best = (-1, -1.0)
    for key in root_moves:  # legal-move order breaks exact ties: reproducible
        child = root.children.get(key)
        if child is not None and child.visits:  # an abandoned iteration's edge has none
            rank = (child.visits, child.total / child.visits)
            if rank > best:
                best, best_key = rank, key
    return root_moves[best_key]


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
             searcher_first: bool = True, margin: float = 0.0,
             cutoff: Cutoff | None = None) -> bool:
    """One ISMCTS iteration on the determinization ``state`` (consumed); false, with nothing
    backed up, if its playout was abandoned at ``deadline``. The searcher acts first in a
    simultaneous step at the root (its decision), and below it too unless ``searcher_first``
    is false (then seat order); ``margin`` and ``cutoff`` as in ``search_move``."""
    node = root
    path: list[Node] = []
    seats = state.to_move()
    at_root = True
    while seats:
        actor = seat if (searcher_first or at_root) and seat in seats else seats[0]
        at_root = False
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
    return _play_out(state, (path,), play, rng, deadline, clock, margin, cutoff)


def _iterate_multi(state: State, roots: list[Node], seat: int, play: Policy, rng: random.Random,
                   exploration: float, deadline: float, clock: Callable[[], float],
                   margin: float = 0.0, searcher_first: bool = True,
                   record: bool = False, cutoff: Cutoff | None = None) -> bool:
    """One MO-ISMCTS iteration on ``state`` (consumed): ``roots[s]`` is seat ``s``'s tree.

    The seat to act selects in its own tree, where its moves are distinct edges (it sees
    them whole); every other tree steps along the edge its owner observes. The descent ends
    after the first new edge in the acting seat's tree, as in ``_iterate`` (and like it,
    returns false with nothing backed up if the playout was abandoned at ``deadline``).
    ``searcher_first`` as in ``_iterate``; ``record`` notes on every edge of the other
    seats' trees what the searcher observed of the move (``Node.seen``, for kept trees);
    ``cutoff`` as in ``search_move``.
    """
    nodes = list(roots)
    paths: list[list[Node]] = [[] for _ in roots]
    observers = range(len(roots))
    seats = state.to_move()
    at_root = True
    while seats:
        actor = seat if (searcher_first or at_root) and seat in seats else seats[0]
        at_root = False
        node = nodes[actor]
        legal = state.legal_moves(actor)
        groups = _groups(node, state, actor, actor, legal)
        children = node.children
        expanded = False
        if len(groups) == 1:
            key, group = next(iter(groups.items()))  # forced: no choice, no expansion
            child = children.get(key)
            if child is None:
                child = children[key] = Node(actor)
            child.avail += 1
        else:
            key, child, expanded = _select(node, groups, actor, exploration, rng)
            group = groups[key]
        move = group[0] if len(group) == 1 else group[randbelow(rng, len(group))]
        paths[actor].append(child)
        nodes[actor] = child
        by_searcher = ""
        if record:
            by_searcher = key if actor == seat else state.observe_move(actor, move, seat)
            if actor != seat:
                _note_seen(child, by_searcher)
        for observer in observers:
            if observer != actor:
                seen = by_searcher if record and observer == seat \
                    else state.observe_move(actor, move, observer)
                here = nodes[observer].children
                step = here.get(seen)
                if step is None:
                    step = here[seen] = Node(actor)
                step.avail += 1
                if record and observer != seat:
                    _note_seen(step, by_searcher)
                paths[observer].append(step)
                nodes[observer] = step
        state.advance(actor, move, rng)
        if expanded:
            break
        seats = state.to_move()
    return _play_out(state, paths, play, rng, deadline, clock, margin, cutoff)


def _note_seen(node: Node, observation: str) -> None:
    """Add what the searcher observed of a move to the edge ``node`` of another seat's tree."""
    if node.seen is None:
        node.seen = {observation}
    else:
        node.seen.add(observation)


def _play_out(state: State, paths: Sequence[list[Node]], play: Policy, rng: random.Random,
              deadline: float, clock: Callable[[], float], margin: float,
              cutoff: Cutoff | None) -> bool:
    """Play ``state`` out (to ``cutoff``'s horizon, if any) and back up along ``paths``;
    false, with nothing backed up, if the playout was abandoned at ``deadline``."""
    if cutoff is None:
        if not playout_until(state, play, rng, deadline, clock):
            return False
        _back_up(state, paths, margin)
        return True
    done, scored = playout_cut(state, play, rng, deadline, clock, cutoff)
    if not done:
        return False
    _back_up(state, paths, margin, scored)
    return True


def _back_up(state: State, paths: Sequence[list[Node]], margin: float,
             scored: list[float] | None = None) -> None:
    """Credit every edge of ``paths`` with the reward of the finished ``state`` for the seat
    that made that edge's move (``margin`` as in ``search_move``), or with ``scored``, a
    cut-off's rewards of the unfinished ``state``, when given."""
    if scored is not None:
        reward = scored
    else:
        result = state.result()
        reward = margin_rewards(result, margin) if margin else rewards(result)
    for path in paths:
        for edge in path:
            edge.visits += 1
            edge.total += reward[edge.actor]
