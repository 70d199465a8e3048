"""Bot strength: seeded matches between bot kinds, seats rotated, 95% Wilson intervals.

Run from the repository root, e.g.::

    .venv/bin/python -m bench.strength --game savanna --players 2 --matches 200 \\
        --pairing medium,random --pairing medium,greedy --pairing hard,medium
    .venv/bin/python -m bench.strength --game savanna --players 4 --pairing medium,random
    .venv/bin/python -m bench.strength            # the standard plan (PLAN), every game

A pairing ``A,B`` plays ``A`` in one seat and ``B`` in every other seat; match ``i`` (seeded
by ``i``) puts ``A`` in seat ``i mod players``. The figure is A's first-place rate (a shared
first place counts as first; shared firsts are also listed separately as ``ties``).

Bot specs: ``random``; ``greedy`` (``worker.bots.greedy_move``, the bot the worker runs);
``easy`` / ``medium`` / ``hard`` (the levels); ``sims:N`` (N simulations);
``time:S`` (S seconds a move, no simulation limit: equal-time comparisons). A suffix ``/r``
forces the uniformly random playout policy, ``/h`` the game's candidate heuristic
(``worker.search.policies.HEURISTICS``), registered or not.
Matches run in ``--procs`` processes (default 2, one per core of the bench machine).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from dataclasses import dataclass
from typing import Any

from bench.bench_search import load_game
from shared.games import all_games
from shared.protocol import Game, Move, State, View
from worker.bots import greedy_move
from worker.search import LEVELS, SearchBudget, search_move
from worker.search.policies import HEURISTICS, Policy, policy_for, random_policy

COMMAND = "python -m bench.strength " + " ".join(sys.argv[1:])


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Bot:
    spec: str
    moves: int = 0
    seconds: float = 0.0

    def choose(self, game: Game, view: View, seat: int, rng: random.Random) -> Move:
        start = time.perf_counter()
        try:
            return self._choose(game, view, seat, rng)
        finally:
            self.moves += 1
            self.seconds += time.perf_counter() - start

    def _choose(self, game: Game, view: View, seat: int, rng: random.Random) -> Move:
        name, _, suffix = self.spec.partition("/")
        if name == "random":
            state = game.sample_from_view(view, seat, rng)
            return rng.choice(state.legal_moves(seat))
        if name == "greedy":
            return greedy_move(game, view, seat, rng)
        policy: Policy = policy_for(game.id)
        if suffix == "r":
            policy = random_policy
        elif suffix == "h":
            policy = HEURISTICS[game.id]
        if name in LEVELS:
            budget = LEVELS[name]
        elif name.startswith("sims:"):
            budget = SearchBudget(int(name[5:]), 3600.0)
        elif name.startswith("time:"):
            budget = SearchBudget(10**9, float(name[5:]))
        else:
            raise ValueError(f"unknown bot spec {self.spec!r}")
        return search_move(game, view, seat, budget, rng, policy=policy)


def play_match(args: tuple[str, int, str, str, int]) -> dict[str, Any]:
    """One seeded match: ``a`` in seat ``seed % players``, ``b`` elsewhere."""
    game_id, players, a, b, seed = args
    game = load_game(game_id)
    rng = random.Random(seed)
    state: State = game.new_state(players, game.resolve_options({}), rng)
    a_seat = seed % players
    bots = [Bot(a) if s == a_seat else Bot(b) for s in range(players)]
    step = 0
    start = time.perf_counter()
    while not state.is_over():
        seat = state.to_move()[0]
        decision_rng = random.Random(seed * 1_000_003 + step * 101 + seat)
        move = bots[seat].choose(game, state.view(seat), seat, decision_rng)
        state.apply(seat, move, rng)
        step += 1
    result = state.result()
    return {"seed": seed, "first": result.ranking[a_seat] == 1,
            "tie": result.ranking[a_seat] == 1 and len(result.winners) > 1,
            "a_moves": bots[a_seat].moves, "a_seconds": bots[a_seat].seconds,
            "seconds": time.perf_counter() - start}


def run_pairing(game_id: str, players: int, a: str, b: str, matches: int, procs: int,
                first_seed: int) -> str:
    jobs = [(game_id, players, a, b, first_seed + i) for i in range(matches)]
    start = time.perf_counter()
    if procs > 1:
        with multiprocessing.Pool(procs) as pool:
            results = list(pool.imap_unordered(play_match, jobs))
    else:
        results = [play_match(job) for job in jobs]
    wall = time.perf_counter() - start
    firsts = sum(r["first"] for r in results)
    ties = sum(r["tie"] for r in results)
    lo, hi = wilson(firsts, matches)
    a_moves = sum(r["a_moves"] for r in results)
    a_secs = sum(r["a_seconds"] for r in results)
    per_move = a_secs / a_moves if a_moves else 0.0
    return (f"{game_id} players={players} {a} vs {b}: matches={matches} first={firsts} "
            f"ties={ties} rate={firsts / matches:.3f} wilson95=[{lo:.3f}, {hi:.3f}] "
            f"{a}_s/move={per_move:.3f} wall={wall:.0f}s seeds={first_seed}..."
            f"{first_seed + matches - 1}")


#: The standard figures: (players, A, B). ``python -m bench.strength`` alone runs them all for
#: every registered game with ``--matches`` (default 200) each: hours on a 2-core machine.
PLAN: tuple[tuple[int, str, str], ...] = (
    (2, "medium", "random"), (4, "medium", "random"), (2, "medium", "greedy"),
    (2, "hard", "medium"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="game id (default: every game)")
    parser.add_argument("--players", type=int, default=2, help="seats for --pairing")
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--pairing", action="append", help="A,B (default: the standard plan)")
    parser.add_argument("--procs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0, help="first match seed")
    args = parser.parse_args()
    games = args.game or [game.id for game in all_games()]
    plan = ([(args.players, *pairing.split(",", 1)) for pairing in args.pairing]
            if args.pairing else list(PLAN))
    print(f"# {COMMAND}", flush=True)
    for game_id in games:
        for players, a, b in plan:
            print(run_pairing(game_id, int(players), a, b, args.matches, args.procs, args.seed),
                  flush=True)


if __name__ == "__main__":
    main()
