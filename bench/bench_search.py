"""Search speed: random-playout rate vs ISMCTS simulation rate, per game, one core.

Run from the repository root::

    .venv/bin/python -m bench.bench_search [--games savanna evolution] [--players 4]
        [--seconds 3] [--positions 3]

For each game and a few positions of a seeded random match (the opening and positions a
third and two thirds of the way in), it prints:

* ``playout/s``: complete random matches per second from one determinization (a clone of a
  sampled state played to the end with the game's playout policy and scored with
  ``result()``, as every ISMCTS iteration must; no sampling cost);
* ``sample+playout/s``: the same but sampling a fresh determinization each time, which is
  exactly the non-tree work an ISMCTS iteration must do;
* ``ismcts/s``: ISMCTS iterations per second of ``search_move`` with the same policy;
* ``ratio``: ismcts/s over playout/s (the target is >= 70%) and over sample+playout/s.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

from shared.games import all_games, get_game
from shared.kernel.protocol import Game, State
from shared.search import SearchBudget, SearchConfig, search_move
from shared.search.policies import Policy, heuristic_for, playout, policy_for, random_policy

COMMAND = "python -m bench.bench_search " + " ".join(sys.argv[1:])


def load_game(game_id: str) -> Game:
    """A registered game, or the test toy game (``toy``)."""
    if game_id == "toy":
        from tests.worker.toygame import TOY

        return TOY
    return get_game(game_id)


def players_for(game: Game, wanted: int) -> int:
    return min(max(wanted, game.min_players), game.max_players)


def positions(game: Game, players: int, count: int, seed: int = 0) -> list[tuple[State, int]]:
    """Decision points (state, seat) of one seeded random match, spread over its length."""
    rng = random.Random(seed)
    state = game.new_state(players, game.resolve_options({}), rng)
    trace: list[tuple[State, int]] = []
    while not state.is_over():
        seat = state.to_move()[0]
        if len(state.legal_moves(seat)) > 1:
            trace.append((state.clone(), seat))
        state.apply(seat, state.random_move(seat, rng), rng)
    picks = [trace[(len(trace) * i) // (count * 3 // 2 or 1)] for i in range(count)]
    return picks


def timed(work: Any, seconds: float) -> tuple[int, float]:
    """Calls of ``work()`` done in about ``seconds``, and the time they took."""
    done = 0
    start = time.perf_counter()
    while True:
        work()
        done += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done, elapsed


def measure(game: Game, state: State, seat: int, seconds: float,
            policy: Policy | None = None, rounds: int = 5) -> dict[str, float]:
    """The three rates, measured in interleaved slices so that load from other processes on
    the machine hits all three alike."""
    play = policy or policy_for(game)
    view = state.view(seat)
    rng = random.Random(1)
    det = game.sample_from_view(view, seat, rng)

    def raw() -> None:
        state = det.clone()
        playout(state, play, rng)
        state.result()

    draw = game.sampler(view, seat)

    def sampled() -> None:
        state = draw(rng)
        playout(state, play, rng)
        state.result()

    totals = {"playout": [0, 0.0], "sampled": [0, 0.0], "ismcts": [0, 0.0]}
    piece = seconds / rounds
    for index in range(rounds):
        for name, work in (("playout", raw), ("sampled", sampled)):
            done, took = timed(work, piece)
            totals[name][0] += done
            totals[name][1] += took
        stats: dict[str, Any] = {}
        search_move(game, view, seat, SearchBudget(10_000_000, piece), random.Random(index),
                    stats=stats, config=SearchConfig(policy=play))
        totals["ismcts"][0] += stats["iterations"]
        totals["ismcts"][1] += stats["elapsed"]
    rates = {name: done / took for name, (done, took) in totals.items()}
    rates["ratio"] = rates["ismcts"] / rates["playout"]
    rates["ratio_sampled"] = rates["ismcts"] / rates["sampled"]
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=None, help="game ids (default: all)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="per rate and position, in 5 interleaved slices")
    parser.add_argument("--positions", type=int, default=3)
    parser.add_argument("--random-policy", action="store_true",
                        help="use the uniformly random policy even where a heuristic exists")
    parser.add_argument("--heuristic", action="store_true",
                        help="use the game's candidate heuristic policy, registered or not")
    args = parser.parse_args()
    games = [load_game(g) for g in args.games] if args.games else all_games()
    print(f"# {COMMAND}")
    for game in games:
        players = players_for(game, args.players)
        policy = random_policy if args.random_policy else policy_for(game)
        if args.heuristic:
            policy = heuristic_for(game) or policy
        for index, (state, seat) in enumerate(positions(game, players, args.positions)):
            legal = len(state.legal_moves(seat))
            m = measure(game, state, seat, args.seconds, policy)
            print(f"{game.id} players={players} position={index} seat={seat} legal={legal} "
                  f"policy={policy.__name__} playout/s={m['playout']:.0f} "
                  f"sample+playout/s={m['sampled']:.0f} ismcts/s={m['ismcts']:.0f} "
                  f"ratio={m['ratio']:.0%} ratio_vs_sampled={m['ratio_sampled']:.0%}",
                  flush=True)


if __name__ == "__main__":
    main()
