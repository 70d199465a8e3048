"""Subtree reuse between a bot's decisions (``search_move(tree=...)``, ``shared.search.reuse``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from shared.kernel.protocol import State
from shared.search import SearchBudget, search_move
from shared.search.ismcts import Node, SearchTree, SeatTrees
from shared.search.reuse import Observation, SeatTreeCache, TreeCache, count_nodes, follow, merge
from tests.worker.toygame import TOY

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


@pytest.mark.slow  # seeded matches of searching seats
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
    with pytest.raises(ValueError, match="multi_observer"):
        search_move(TOY, state.view(0), 0, BUDGET, random.Random(0), trees=SeatTrees())


# -- multiple observers with every seat's tree kept (``trees=``, ``SeatTreeCache``) ----------


def _search_mo(state: State, seat: int, trees: SeatTrees | None, stats: dict[str, Any],
               seed: int = 0) -> Any:
    return search_move(TOY, state.view(seat), seat, BUDGET, random.Random(seed), stats,
                       stop_when_decided=False, multi_observer=True, searcher_first=False,
                       trees=trees)


def _play_mo(players: int, seed: int, reuser: int, cache: SeatTreeCache,
             on_decision: Any = None) -> list[Any]:
    """A toy match: ``reuser`` keeps its MO trees in ``cache`` (the others search plainly);
    it learns the others' moves only as ``observe_move`` shows them to it. Its moves."""
    rng = random.Random(seed)
    state = TOY.new_state(players, {}, rng)
    log: list[Observation] = []
    moves = []
    step = 0
    while not state.is_over():
        seat = state.to_move()[0]
        stats: dict[str, Any] = {}
        if seat == reuser:
            trees = cache.take(seed, log, seat)
            # Root visits each tree brings (the search then adds to the same nodes).
            kept = [_root_visits(root) for root in trees.roots] or [0] * players
            move = _search_mo(state, seat, trees, stats, step)
            cache.put(seed, trees, log)
            moves.append(move)
            if on_decision is not None:
                on_decision(seat, kept, trees, stats)
        else:
            move = _search(state, seat, None, stats, step, searcher_first=True)
        log.append((seat, state.observe_move(seat, move, reuser)))
        state.apply(seat, move, rng)
        step += 1
    return moves


def _shape(node: Node | None) -> Any:
    """A tree's statistics, edges and recorded observations, for comparing trees."""
    if node is None:
        return None
    return (node.actor, node.visits, node.avail, round(node.total, 9),
            sorted(node.seen) if node.seen else None,
            {key: _shape(child) for key, child in sorted(node.children.items())})


def _root_visits(node: Node | None) -> int:
    return 0 if node is None else sum(child.visits for child in node.children.values())


def test_an_empty_set_of_trees_searches_exactly_as_the_multiple_observer_search() -> None:
    state = TOY.new_state(3, {}, random.Random(2))
    plain: dict[str, Any] = {}
    fresh: dict[str, Any] = {}
    trees = SeatTrees()
    move = search_move(TOY, state.view(0), 0, BUDGET, random.Random(7), plain,
                       stop_when_decided=False, multi_observer=True, searcher_first=False)
    assert _search_mo(state, 0, trees, fresh, 7) == move
    assert fresh["visits"] == plain["visits"] and fresh["values"] == plain["values"]
    assert len(trees.roots) == 3 and all(_root_visits(root) == BUDGET.simulations
                                         for root in trees.roots)
    # Only the other seats' trees record what the searcher saw of their edges.
    assert all(child.seen is None for child in trees.roots[0].children.values())
    assert all(child.seen for root in trees.roots[1:] for child in root.children.values())


@pytest.mark.parametrize("players", [2, 3])
def test_every_seats_tree_carries_over_and_the_budget_counts_new_iterations(
        players: int) -> None:
    cache = SeatTreeCache()
    seen: list[list[int]] = []

    def check(seat: int, before: list[int], trees: SeatTrees, stats: dict[str, Any]) -> None:
        if stats["stopped"] == "forced":
            return
        assert stats["iterations"] == BUDGET.simulations
        # The searcher's kept statistics count towards its decision, on top of the budget.
        assert sum(stats["visits"].values()) == stats["reused"] + BUDGET.simulations
        assert stats["reused"] == before[seat]
        # Every tree continued from the node kept for it (or a fresh one): its visits grow by
        # exactly the new iterations.
        after = [_root_visits(root) for root in trees.roots]
        assert [new - old for new, old in zip(after, before, strict=True)] == \
            [BUDGET.simulations] * players
        seen.append(before)

    for seed in range(3):
        _play_mo(players, seed, seed % players, cache, check)
    carried = [before for before in seen if any(before)]
    assert len(carried) >= len(seen) // 2
    # The other seats' trees are found too, not just the searcher's.
    assert sum(sum(visits > 0 for visits in before) >= 2 for before in carried) \
        >= len(carried) // 2
    assert cache.hits > cache.misses


def test_a_tree_whose_node_is_not_found_starts_afresh() -> None:
    # Seat 0 searched, picked card 1, then seat 1 picked in secret; seat 0 decides next.
    mine = Node(-1)
    after_me = mine.children["pick:1"] = Node(0)
    after_me.children["pick:hidden"] = Node(1)
    after_me.children["pick:hidden"].children["pick:2"] = Node(0)
    # Seat 1's tree: seat 0's pick is one secret edge; seat 1's own picks are edges of their
    # own, which seat 0 saw only as "pick:hidden": both are followed and merged.
    theirs = Node(-1)
    hidden = theirs.children["pick:hidden"] = _edge(0, 10, {"pick:1", "pick:3"})
    low = hidden.children["pick:5"] = _edge(1, 6, {"pick:hidden"})
    high = hidden.children["pick:7"] = _edge(1, 4, {"pick:hidden"})
    low.children["pick:hidden"] = _edge(0, 3, {"pick:2"})
    high.children["pick:hidden"] = _edge(0, 2, {"pick:2", "pick:4"})
    # Seat 2's tree never saw seat 0 pick card 1: it starts afresh.
    other = Node(-1)
    other.children["pick:hidden"] = _edge(0, 10, {"pick:3"})
    cache = SeatTreeCache()
    cache.put("m", SeatTrees([mine, theirs, other]), [])
    trees = cache.take("m", [(0, "pick:1"), (1, "pick:hidden")], 0)
    assert trees.roots[0] is after_me.children["pick:hidden"]
    merged = trees.roots[1]
    assert merged is not None and (merged.visits, merged.seen) == (10, {"pick:hidden"})
    assert _shape(merged.children["pick:hidden"]) == (0, 5, 5, 2.5, ["pick:2", "pick:4"], {})
    assert trees.roots[2] is None and (cache.hits, cache.misses) == (2, 1)
    # A seat's true observation of its own secret pick is no edge the searcher can follow.
    cache.put("m", SeatTrees([mine, theirs, other]), [])
    assert cache.take("m", [(0, "pick:1"), (1, "pick:5")], 0).roots == [None, None, None]
    # Another history than the cached one: every tree afresh.
    cache.put("m", SeatTrees([mine, theirs, other]), [(1, "bank")])
    assert cache.take("m", [(0, "pick:1"), (1, "pick:hidden")], 0).roots == []
    assert cache.fresh == 1


def _edge(actor: int, visits: int, seen: set[str]) -> Node:
    node = Node(actor)
    node.visits = node.avail = visits
    node.total = visits / 2
    node.seen = set(seen)
    return node


def test_merge_sums_statistics_and_merges_children_by_key() -> None:
    one, two = _edge(1, 3, {"a"}), _edge(1, 5, {"a"})
    one.children["x"] = _edge(0, 2, {"x"})
    two.children["x"] = _edge(0, 4, {"y"})
    two.children["z"] = _edge(0, 1, {"z"})
    merged = merge([one, two])
    assert _shape(merged) == (1, 8, 8, 4.0, ["a"], {
        "x": (0, 6, 6, 3.0, ["x", "y"], {}), "z": _shape(two.children["z"])})
    assert (one.visits, two.children["x"].visits) == (3, 4)  # the originals are unchanged


def test_kept_trees_are_reproducible_for_a_seeded_rng() -> None:
    runs = []
    for _ in range(2):
        shapes: list[Any] = []

        def keep(seat: int, before: list[int], trees: SeatTrees, stats: dict[str, Any],
                 shapes: list[Any] = shapes) -> None:
            shapes.append((before, stats["visits"], [_shape(root) for root in trees.roots]))

        moves = _play_mo(3, 4, 1, SeatTreeCache(), keep)
        runs.append((moves, shapes))
    assert runs[0] == runs[1] and len(runs[0][0]) > 2


def test_kept_trees_know_only_what_the_searcher_could() -> None:
    # Two deals behind one view of seat 0: the opponents play the same cards in the first
    # round but hold different others. Seat 0's moves and every tree it keeps are the same.
    def deal(hands: list[list[int]]) -> State:
        return TOY.state_from_json({"players": 3, "deck": 12, "hands": hands,
                                    "picks": [None] * 3, "prize": 2, "prizes": [1, 3],
                                    "revealed": [], "scores": [0, 0, 0], "gambler": None})

    one = deal([[1, 9, 5], [2, 10, 4], [3, 11, 6]])
    two = deal([[1, 9, 5], [2, 12, 8], [3, 7, 4]])
    assert one.view(0) == two.view(0) and one.to_json() != two.to_json()
    runs = []
    for state in (one, two):
        cache = SeatTreeCache()
        log: list[Observation] = []
        shapes = []
        rng = random.Random(0)
        for step, (seat, move) in enumerate([(0, None), (1, 2), (2, 3), (0, None)]):
            if move is None:
                trees = cache.take("m", log, 0)
                move = _search_mo(state, 0, trees, {}, step)
                cache.put("m", trees, log)
                shapes.append((move, [_shape(root) for root in trees.roots]))
            else:
                move = {"type": "pick", "card": move}
            log.append((seat, state.observe_move(seat, move, 0)))
            state.apply(seat, move, rng)
            if state.gambler is not None:  # the round's winner banks, in public
                log.append((state.gambler, "bank"))
                state.apply(state.gambler, {"type": "bank"}, rng)
        assert cache.hits == 3  # every seat's tree was followed to the second decision
        runs.append(shapes)
    assert one.view(0) == two.view(0)
    assert runs[0] == runs[1]
