"""The search on Evolution (North Star): it finds the one attack that decides the match."""

from __future__ import annotations

import random

from shared.games import get_game
from shared.search import SearchBudget, search_move
from tests.games.evolution_ns.helpers import Builder


def test_search_attacks_the_species_whose_loss_decides() -> None:
    # The last round's feeding; seat 0's hungry carnivore must attack one of seat 1's two
    # fed species. Eating the plain one loses 3-5; eating the two-trait one ties 3-3 and wins
    # on trait points (N-4.2).
    b = Builder(2)
    b.species(0, "carnivore", body=3, pop=1)
    b.species(1, body=1, pop=1, food=1)
    b.species(1, "fertile", "long_neck", body=2, pop=1, food=1)
    b.hand(1, "horns", "horns")
    state = b.done(hole=0)
    state.last_round = True
    game = get_game("evolution-ns")
    assert [m["target"] for m in state.legal_moves(0)] == [0, 1]
    for seed in range(3):
        move = search_move(game, state.view(0), 0, SearchBudget(200, 60.0),
                           random.Random(seed))
        assert move == {"type": "attack", "species": 0, "target_seat": 1, "target": 1}
