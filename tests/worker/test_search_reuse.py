"""Subtree reuse between a bot's decisions (``search_move(tree=...)``, ``worker.search.reuse``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from shared.protocol import State
from tests.worker.toygame import TOY
from worker.search import SearchBudget, search_move
from worker.search.ismcts import Node, SearchTree
from worker.search.reuse import Observation, TreeCache, count_nodes, follow

BUDGET = SearchBudget(simulations=120, time_cap=60.0)


def _search(state: State, seat: int, tree: SearchTree | None, stats: dict[str, Any],
            seed: int = 0, searcher_first: bool = False) -> Any:
    return search_move(TOY, state.view(seat), seat, BUDGET, random.Random(seed), stats,
                       stop_when_decided=False, tree=tree, searcher_first=searcher_first)


def _play(players: int, seed: int, reuser: int, cache: TreeCache,
          on_decision: Any = None) -> State:
    """A toy match with the search in every seat, ``reuser`` reusing its trees from
    ``cache``; the others' moves reach it only as ``observe_move`` shows them to it."""
    rng = random.Random(seed)
    state = TOY.new_state(players, {}, rng)
    log: list[Observation] = []
    step = 0
    while not state.is_over():
        seat = state.to_move()[0]
        stats: dict[str, Any] = {}
        if seat == reuser:
            tree = cache.take((seed, seat), log, seat)
            hit = tree.root is not None
            move = _search(state, seat, tree, stats, step)
            cache.put((seed, seat), tree, log)
            if on_decision is not None:
                on_decision(state, move, stats, hit)
        else:
            move = _search(state, seat, None, stats, step, searcher_first=True)
        log.append((seat, state.observe_move(seat, move, reuser)))
        state.apply(seat, move, rng)
        step += 1
    return state


def test_an_empty_tree_searches_exactly_as_without_one() -> None:
    # The option off (no tree, or a fresh one) is the plain search, move for move.
    state = TOY.new_state(3, {}, random.Random(2))
    for searcher_first in (True, False):
        plain: dict[str, Any] = {}
        fresh: dict[str, Any] = {}
        tree = SearchTree()
        move = _search(state, 0, None, plain, 7, searcher_first)
        assert _search(state, 0, tree, fresh, 7, searcher_first) == move
        assert fresh["visits"] == plain["visits"] and fresh["values"] == plain["values"]
        assert fresh["reused"] == plain["reused"] == 0
        assert tree.root is not None and sum(
            child.visits for child in tree.root.children.values()) == BUDGET.simulations


@pytest.mark.parametrize("players", [2, 3])
def test_a_reusing_seat_plays_legal_moves_and_keeps_its_statistics(players: int) -> None:
    cache = TreeCache()
    seen: list[tuple[bool, int, int]] = []

    def check(state: State, move: Any, stats: dict[str, Any], hit: bool) -> None:
        assert move in state.legal_moves(state.to_move()[0])
        # Equal simulations: the budget counts new iterations; the reused visits come on top.
        total = sum(stats["visits"].values())
        if stats["stopped"] != "forced":
            assert stats["iterations"] == BUDGET.simulations
            assert total == stats["reused"] + BUDGET.simulations
        seen.append((hit, stats["reused"], total))

    for seed in range(3):
        _play(players, seed, seed % players, cache, check)
    hits = [reused for hit, reused, _ in seen if hit]
    # Seat order below the root: the next decision's node is found, unless the iterations
    # never reached it (or reached it with another seat acting: a miss, see below).
    assert len(hits) >= len(seen) // (2 if players == 2 else 3)
    assert sum(reused > 0 for reused in hits) >= len(hits) // 2
    assert all(reused == 0 for hit, reused, _ in seen if not hit)


def test_a_view_that_does_not_extend_the_cached_one_is_a_miss() -> None:
    state = TOY.new_state(2, {}, random.Random(5))
    cache = TreeCache()
    tree = cache.take("m", [], 0)
    assert tree.root is None and cache.misses == 1
    move = _search(state, 0, tree, {})
    cache.put("m", tree, [])
    mine = (0, state.observe_move(0, move, 0))
    theirs = (1, "pick:hidden")
    # The seat's own observations after its move lead to its next decision: a hit.
    assert cache.take("m", [mine, theirs], 0).root is not None and cache.hits == 1
    # Everything else searches afresh (each ``take`` removes the entry, so put it back).
    for log in ([(0, "pick:99"), theirs],  # a move the tree never saw
                [mine, (0, "pick:hidden")],  # the right observation by the wrong seat
                [mine, (1, "pick:3")],  # what the seat could not see: never an edge
                [(9, "x")]):  # another history
        cache.put("m", _searched(state, move), [])
        assert cache.take("m", log, 0).root is None
    cache.put("m", _searched(state, move), [(1, "bank")])
    assert cache.take("m", [mine, theirs], 0).root is None  # the cached prefix differs
    cache.put("m", _searched(state, move), [])
    assert cache.take("other match", [mine, theirs], 0).root is None
    assert cache.take("m", [mine, theirs], 0).root is not None
    assert cache.take("m", [mine, theirs], 0).root is None  # one tree serves one search


def _searched(state: State, move: Any) -> SearchTree:
    tree = SearchTree()
    assert _search(state, 0, tree, {}) == move
    return tree


def test_the_node_reached_must_be_the_seats_own_decision() -> None:
    root = Node(-1)
    mine = root.children["pick:1"] = Node(0)
    theirs = mine.children["pick:hidden"] = Node(1)
    theirs.children["bank"] = Node(1)
    # After seat 0's pick, the tree has seat 1 moving next: seat 1's decision, not seat 0's.
    assert follow(root, [(0, "pick:1")], 1) is mine
    assert follow(root, [(0, "pick:1")], 0) is None
    # After seat 1's hidden pick, seat 1 (the gambler) decides: its node, nobody else's.
    assert follow(root, [(0, "pick:1"), (1, "pick:hidden")], 1) is theirs
    assert follow(root, [(0, "pick:1"), (1, "pick:hidden")], 0) is None
    assert follow(root, [], 0) is root  # seat 0's moves at the root
    assert count_nodes(root) == 4


def test_memory_is_bounded() -> None:
    def tree_of(size: int) -> SearchTree:
        root = Node(-1)
        for index in range(size - 1):
            root.children[str(index)] = Node(0)
        return SearchTree(root)

    cache = TreeCache(max_trees=2, max_nodes=10)
    cache.put("a", tree_of(3), [])
    cache.put("b", tree_of(3), [])
    cache.put("c", tree_of(3), [])  # over max_trees: the least recently used goes
    assert len(cache) == 2 and cache.nodes == 6
    assert cache.take("a", [], 0).root is None
    cache.put("d", tree_of(6), [])  # 12 nodes, over max_nodes: the oldest ("b") goes
    assert len(cache) == 2 and cache.nodes == 9
    assert cache.take("b", [], 0).root is None
    cache.put("e", tree_of(11), [])  # larger than the whole bound: not kept
    assert len(cache) == 2 and cache.nodes == 9
    assert cache.take("e", [], 0).root is None
    assert cache.take("d", [], 0).root is not None and cache.nodes == 3 and len(cache) == 1


def test_reuse_and_multiple_observers_do_not_mix() -> None:
    state = TOY.new_state(2, {}, random.Random(1))
    with pytest.raises(ValueError, match="reuse"):
        search_move(TOY, state.view(0), 0, BUDGET, random.Random(0), tree=SearchTree(),
                    multi_observer=True)
