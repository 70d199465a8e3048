"""Digests of seeded random matches and seeded searches, to prove a faster engine plays the
same moves (``tests/games/test_engine_fingerprint.py``).

The match digest covers, per step, the legal moves, the engine's ``random_move`` draw, the
events of the move and (every fourth match) every seat's view and the JSON round trip; then
the result. The search digest covers seeded ISMCTS moves with their per-move visit counts,
with playouts to the end of the match whatever cut-off a game registers (the compiled and
plain builds are compared on the registered search too, ``bench.accel_check``).
Recorded on the engines before their speed-up (Evolution (North Star) at commit 9cfc884;
Darwinning! re-recorded at 06e781f, its rules fix ``darwinning-2`` with the engine still
unchanged otherwise, and again for ``darwinning-3``, the declinable two-player pick;
Evolution (North Star) re-recorded for its rules fix ``evolution-ns-2``), in
``fixtures/engine_fingerprints.json``, by::

    python -m tests.games.engine_fingerprint > tests/games/fixtures/engine_fingerprints.json

Re-record only for a change that is meant to change moves (a rules fix, a new random
generator, a search change), and say so in the commit.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from bench.accel_check import options_for
from bench.bench_search import positions
from shared.games import get_game
from shared.kernel.protocol import Cutoff, Game
from shared.search import SearchBudget, SearchConfig, search_move

GAMES = ("darwinning", "evolution-ns")
MATCHES = 100
SEARCHES = 2  # positions per player count
SIMULATIONS = 200


def _feed(digest: Any, item: object) -> None:
    digest.update(json.dumps(item, sort_keys=True, default=repr).encode())


def match_digest(game: Game, matches: int = MATCHES) -> str:
    """Seeded random matches over 2-4 seats and the game's options."""
    digest = hashlib.sha256()
    counts = [2, 3, 4]
    for seed in range(matches):
        players = counts[seed % len(counts)]
        rng = random.Random(seed)
        state = game.new_state(players, options_for(game, seed), rng)
        while not state.is_over():
            seat = state.to_move()[0]
            _feed(digest, state.legal_moves(seat))
            if seed % 4 == 0:
                _feed(digest, [state.view(s) for s in range(players)])
                _feed(digest, game.state_from_json(state.to_json()).to_json())
            probe = state.clone()
            _feed(digest, probe.random_move(seat, random.Random(seed)))
            move = state.random_move(seat, rng)
            _feed(digest, state.apply(seat, move, rng))
        _feed(digest, state.result().to_json())
    return digest.hexdigest()


def search_digest(game: Game, searches: int = SEARCHES, simulations: int = SIMULATIONS) -> str:
    """Seeded ISMCTS searches from positions of seeded 2- and 4-seat matches."""
    digest = hashlib.sha256()
    for players in (2, 4):
        for state, seat in positions(game, players, searches, seed=players):
            stats: dict[str, Any] = {}
            # Full playouts (a cut-off that never cuts plays the very same moves), so the
            # digests recorded before a game registered its cut-off still prove the engine.
            move = search_move(game, state.view(seat), seat, SearchBudget(simulations, 600.0),
                               random.Random(seat), stats=stats,
                               config=SearchConfig(stop_when_decided=False, cutoff=Cutoff()))
            _feed(digest, [move, stats["visits"], stats["iterations"]])
    return digest.hexdigest()


def record() -> dict[str, dict[str, str]]:
    return {game_id: {"matches": match_digest(get_game(game_id)),
                      "searches": search_digest(get_game(game_id))} for game_id in GAMES}


if __name__ == "__main__":
    print(json.dumps(record(), indent=2, sort_keys=True))
