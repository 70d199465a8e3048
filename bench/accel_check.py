"""A fingerprint of everything the compiled build could change: engine traces and searches.

Run from the repository root, plain and compiled::

    .venv/bin/python -m bench.accel_check
    .venv/bin/python -m bench.accel bench.accel_check

Each prints one JSON line: ``compiled`` (the modules that ran as compiled extensions) and
``digest``, a hash of seeded random matches of both Evolution engines (every step's legal
moves, the engine's ``random_move`` draw, each seat's view, the state's JSON round trip and the
events of every move, and the result) and of seeded ISMCTS moves with their per-move visit
counts. Equal digests mean the compiled build plays exactly the moves the sources play.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from typing import Any

from bench.accel import compiled_modules
from bench.bench_search import positions
from shared.games import get_game
from worker.search import SearchBudget, search_move


def _feed(digest: Any, item: object) -> None:
    digest.update(json.dumps(item, sort_keys=True, default=repr).encode())


def fingerprint(matches: int, searches: int, simulations: int) -> str:
    """The digest over ``matches`` random matches and ``searches`` seeded searches of each
    compiled engine (Evolution, then Evolution (North Star) with both options)."""
    digest = hashlib.sha256()
    for game_id, counts in (("evolution", (2, 3, 4)), ("evolution-ns", (2, 3, 4, 5, 6))):
        game = get_game(game_id)
        for seed in range(matches):
            players = counts[seed % len(counts)]
            options = game.resolve_options({"quick": seed % 2 == 1}
                                           if game_id == "evolution-ns" else {})
            rng = random.Random(seed)
            state = game.new_state(players, options, rng)
            while not state.is_over():
                seat = state.to_move()[0]
                _feed(digest, state.legal_moves(seat))
                if seed % 4 == 0:  # views and the codec are slower: every fourth match
                    _feed(digest, [state.view(s) for s in range(players)])
                    _feed(digest, game.state_from_json(state.to_json()).to_json())
                probe = state.clone()
                _feed(digest, probe.random_move(seat, random.Random(seed)))
                move = state.random_move(seat, rng)
                _feed(digest, state.apply(seat, move, rng))
            _feed(digest, state.result().to_json())
        for players in (2, 4):
            for state, seat in positions(game, players, searches, seed=players):
                stats: dict[str, Any] = {}
                move = search_move(game, state.view(seat), seat,
                                   SearchBudget(simulations, 600.0), random.Random(seat), stats,
                                   stop_when_decided=False)
                _feed(digest, [move, stats["visits"], stats["iterations"]])
    return digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=300)
    parser.add_argument("--searches", type=int, default=3, help="positions per player count")
    parser.add_argument("--simulations", type=int, default=300)
    args = parser.parse_args()
    digest = fingerprint(args.matches, args.searches, args.simulations)
    print(json.dumps({"compiled": compiled_modules(), "digest": digest}))


if __name__ == "__main__":
    main()
