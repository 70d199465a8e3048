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
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from worker.search.ismcts import Node, SearchTree

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
