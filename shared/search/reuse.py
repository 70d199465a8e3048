"""Subtree reuse between a bot's decisions: an in-process cache of search trees.

After a bot's move and the others' moves it observed, the node its last search reached by
those edges holds statistics about its next decision; ``search_move(tree=...)`` continues
from there, so they count towards the next decision while the budget counts new iterations.

The cache is only an optimisation and never changes what a search may know:

* a tree is taken for a decision only when the observations it was searched after are a
  prefix of the seat's observations now, and every later observation is an edge of the tree
  (same observation, same actor) — the walk uses the seat's own observations alone, the same
  strings the tree's edges are keyed on (``State.observe_move(actor, move, seat)``);
* anything else (another process served the last decision, the match moved on in a way the
  tree never explored, an evicted entry) is a miss, and the search starts afresh, with a
  correct move either way — a worker stays stateless;
* memory is bounded: at most ``max_trees`` entries, least recently used evicted first, and at
  most ``max_nodes`` nodes over all entries (a tree larger than that is not kept).

A key names one seat of one match, e.g. ``(match_id, seat)``; taking an entry removes it, so
one tree serves one search.

``SeatTreeCache`` does the same for the multiple-observer search's trees, one per seat
(``search_move(multi_observer=True, trees=...)``): the searcher's tree is followed as above,
each other seat's tree by the searcher's observations recorded on its edges
(``follow_seen``), never by what that seat itself observed (see ``ismcts``'s docstring).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from shared.search.ismcts import Node, SearchTree, SeatTrees

#: One observed move: (the seat that moved, what the observing seat saw of it).
Observation = tuple[int, str]


@dataclass
class _Entry:
    root: Node
    observed: tuple[Observation, ...]  # the seat's observations when ``root`` was searched
    nodes: int


def count_nodes(root: Node) -> int:
    """Nodes in the tree under (and including) ``root``."""
    count = 0
    stack = [root]
    while stack:
        node = stack.pop()
        count += 1
        stack.extend(node.children.values())
    return count


def follow(root: Node, observed: Sequence[Observation], seat: int) -> Node | None:
    """The node reached from ``root`` by the ``observed`` edges, if it is a decision of
    ``seat`` in the tree (every child is a move of ``seat``), else ``None``."""
    node = root
    for actor, seen in observed:
        child = node.children.get(seen)
        if child is None or child.actor != actor:
            return None
        node = child
    if any(child.actor != seat for child in node.children.values()):
        return None
    return node


def follow_seen(root: Node, observed: Sequence[Observation], seat: int) -> Node | None:
    """Another seat's tree followed by the searcher's ``observed`` edges (``Node.seen``): the
    node reached, the merge of all reached where the searcher could not tell them apart, if
    it is a decision of ``seat`` (the searcher), else ``None``."""
    frontier = [root]
    for actor, seen in observed:
        frontier = [child for node in frontier for child in node.children.values()
                    if child.actor == actor and child.seen is not None and seen in child.seen]
        if not frontier:
            return None
    node = frontier[0] if len(frontier) == 1 else merge(frontier)
    if any(child.actor != seat for child in node.children.values()):
        return None
    return node


def merge(nodes: Sequence[Node]) -> Node:
    """One node whose statistics and subtree are the sums of ``nodes``' (edges of one tree
    reached by disjoint iterations), children merged by key. Sums are new nodes; a child
    found under one node alone is taken over as it is (the cache has given the tree up)."""
    merged = Node(nodes[0].actor)
    by_key: dict[str, list[Node]] = {}
    for node in nodes:
        merged.visits += node.visits
        merged.avail += node.avail
        merged.total += node.total
        if node.seen is not None:
            merged.seen = node.seen if merged.seen is None else merged.seen | node.seen
        for key, child in node.children.items():
            by_key.setdefault(key, []).append(child)
    for key, children in by_key.items():
        merged.children[key] = children[0] if len(children) == 1 else merge(children)
    return merged


class TreeCache:
    """Search trees of recent decisions, keyed by seat of a match (see the module docstring)."""

    def __init__(self, max_trees: int = 16, max_nodes: int = 200_000) -> None:
        self.max_trees = max_trees
        self.max_nodes = max_nodes
        self._entries: OrderedDict[Hashable, _Entry] = OrderedDict()
        self.nodes = 0  # nodes held over all entries
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._entries)

    def take(self, key: Hashable, observed: Sequence[Observation], seat: int) -> SearchTree:
        """A tree for ``seat``'s decision after ``observed`` (all its observations so far, in
        order): the cached tree's node for it on a hit, an empty tree otherwise."""
        entry = self._entries.pop(key, None)
        node = None
        if entry is not None:
            self.nodes -= entry.nodes
            done = len(entry.observed)
            if len(observed) >= done and tuple(observed[:done]) == entry.observed:
                node = follow(entry.root, observed[done:], seat)
        if node is None:
            self.misses += 1
        else:
            self.hits += 1
        return SearchTree(node)

    def put(self, key: Hashable, tree: SearchTree, observed: Sequence[Observation]) -> None:
        """Keep ``tree`` (just searched after ``observed``) for ``key``'s next decision."""
        old = self._entries.pop(key, None)
        if old is not None:
            self.nodes -= old.nodes
        if tree.root is None:
            return
        nodes = count_nodes(tree.root)
        if nodes > self.max_nodes:
            return
        self._entries[key] = _Entry(tree.root, tuple(observed), nodes)
        self.nodes += nodes
        while len(self._entries) > self.max_trees or self.nodes > self.max_nodes:
            _, evicted = self._entries.popitem(last=False)
            self.nodes -= evicted.nodes


@dataclass
class _SeatEntry:
    roots: list[Node | None]
    observed: tuple[Observation, ...]
    nodes: int


class SeatTreeCache:
    """Every seat's tree of recent multiple-observer decisions (``SeatTrees``), keyed and
    bounded as ``TreeCache``. ``hits`` and ``misses`` count the trees of a cached entry, one
    per seat, found or not; ``fresh`` counts decisions with no usable entry at all."""

    def __init__(self, max_trees: int = 16, max_nodes: int = 400_000) -> None:
        self.max_trees = max_trees
        self.max_nodes = max_nodes
        self._entries: OrderedDict[Hashable, _SeatEntry] = OrderedDict()
        self.nodes = 0
        self.hits = 0
        self.misses = 0
        self.fresh = 0

    def __len__(self) -> int:
        return len(self._entries)

    def take(self, key: Hashable, observed: Sequence[Observation], seat: int) -> SeatTrees:
        """Trees for ``seat``'s decision after ``observed`` (all the searcher's observations so
        far): each seat's node for it where found, ``None`` (a fresh tree) elsewhere."""
        entry = self._entries.pop(key, None)
        if entry is not None:
            self.nodes -= entry.nodes
            done = len(entry.observed)
            if len(observed) < done or tuple(observed[:done]) != entry.observed:
                entry = None
        if entry is None:
            self.fresh += 1
            return SeatTrees()
        since = observed[done:]
        roots: list[Node | None] = [None] * len(entry.roots)
        for owner, root in enumerate(entry.roots):
            if root is not None:
                roots[owner] = follow(root, since, seat) if owner == seat \
                    else follow_seen(root, since, seat)
        found = sum(root is not None for root in roots)
        self.hits += found
        self.misses += len(roots) - found
        return SeatTrees(roots)

    def put(self, key: Hashable, trees: SeatTrees, observed: Sequence[Observation]) -> None:
        """Keep ``trees`` (just searched after ``observed``) for ``key``'s next decision."""
        old = self._entries.pop(key, None)
        if old is not None:
            self.nodes -= old.nodes
        if not trees.roots:
            return
        nodes = sum(count_nodes(root) for root in trees.roots if root is not None)
        if nodes > self.max_nodes:
            return
        self._entries[key] = _SeatEntry(list(trees.roots), tuple(observed), nodes)
        self.nodes += nodes
        while len(self._entries) > self.max_trees or self.nodes > self.max_nodes:
            _, evicted = self._entries.popitem(last=False)
            self.nodes -= evicted.nodes
