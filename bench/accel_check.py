"""A fingerprint of everything the compiled build could change: engine traces and searches.

Run from the repository root, plain and compiled::

    .venv/bin/python -m bench.accel_check
    .venv/bin/python -m bench.accel bench.accel_check

Each prints one JSON line: ``compiled`` (the modules that ran as compiled extensions),
``games`` and ``digest``, a hash, for every registered game, of seeded random matches over
its options (every step's legal moves, the engine's ``random_move`` draw, each seat's view,
the state's JSON round trip and the events of every move, and the result) and of seeded
ISMCTS moves with their per-move visit counts. Equal digests mean the compiled build plays
exactly the moves the sources play.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from typing import Any

from bench.bench_search import positions
from shared.games import all_games
from shared.infra.accel import compiled_modules
from shared.kernel.protocol import Game
from shared.search import SearchBudget, SearchConfig, search_move


def _feed(digest: Any, item: object) -> None:
    digest.update(json.dumps(item, sort_keys=True, default=repr).encode())


def player_counts(game: Game) -> list[int]:
    """The smallest table and two more seats (as far as the game allows)."""
    return sorted({game.min_players, min(game.max_players, game.min_players + 2)})


def options_for(game: Game, seed: int) -> dict[str, Any]:
    """The game's options varied by ``seed``: each choice in turn, each flag on and off."""
    chosen: dict[str, Any] = {}
    for index, option in enumerate(game.options):
        turn = seed >> index  # a different period per option, so combinations are met
        if option.choices:
            chosen[option.name] = option.choices[turn % len(option.choices)]
        elif option.type == "bool":
            chosen[option.name] = turn % 2 == 1
    return game.resolve_options(chosen)


def fingerprint_game(game: Game, matches: int, searches: int, simulations: int) -> str:
    """The digest over ``matches`` random matches and ``searches`` seeded searches of ``game``
    for each of its :func:`player_counts`."""
    digest = hashlib.sha256()
    counts = [*range(game.min_players, min(game.max_players, game.min_players + 2) + 1)]
    for seed in range(matches):
        players = counts[seed % len(counts)]
        rng = random.Random(seed)
        state = game.new_state(players, options_for(game, seed), rng)
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
    for players in player_counts(game):
        for state, seat in positions(game, players, searches, seed=players):
            stats: dict[str, Any] = {}
            move = search_move(game, state.view(seat), seat, SearchBudget(simulations, 600.0),
                               random.Random(seat), stats=stats,
                               config=SearchConfig(stop_when_decided=False))
            _feed(digest, [move, stats["visits"], stats["iterations"]])
    return digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=300, help="random matches per game")
    parser.add_argument("--searches", type=int, default=3, help="positions per player count")
    parser.add_argument("--simulations", type=int, default=300)
    args = parser.parse_args()
    games = {game.id: fingerprint_game(game, args.matches, args.searches, args.simulations)
             for game in all_games()}
    digest = hashlib.sha256(json.dumps(games, sort_keys=True).encode()).hexdigest()
    print(json.dumps({"compiled": compiled_modules(), "games": games, "digest": digest}))


if __name__ == "__main__":
    main()
