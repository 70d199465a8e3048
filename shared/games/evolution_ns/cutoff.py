"""A playout cut-off for Evolution (North Star): stop at a round boundary and estimate the
final standing (``Game.playout_cutoff``; the search uses it with two seats up to 1,000
simulations a move, ``EvolutionNSGame.cutoff_budgets``).

A playout stops once it has played ``rounds`` round ends (N-3.5) past the round it began in,
i.e. at the next round's start (cards dealt, N-3.1). The position is then scored as each
seat's projected final score: its N-4.1 points now (bag, population, traits of surviving
species) plus what the rest of the match adds. The rest is estimated from the deck (N-3.1:
the deal draws 3 + 1 per species a seat; the round whose deal empties the deck is the last,
N-4.1). The gain and the spread are fitted by least squares and log-loss to 3,000 seeded
two-seat matches of uniformly random play, the playouts the cut-off replaces (24,041
round starts; ``python -m bench.fit_cutoff_ns`` reproduces the fit): the projection is the
expected final score of such a playout, and the spread of its final margin grows as the
square root of the rounds left.

Rewards are the search's terminal scale (``shared.search.ismcts.rewards``): a seat's mean
chance of finishing ahead of each other seat, the logistic of the projected margin over the
spread. With two seats that is the expected terminal reward (win 1, loss 0) of the playout.
"""

from __future__ import annotations

import math
from typing import Final, cast

from shared.kernel.protocol import Cutoff, State

from .cards import HAND_BASE
from .state import NSState

#: Points a species adds per round left, beyond the seat's points now (fitted, see above).
SPECIES_GAIN: Final = 0.28
#: Points a card in hand adds by the end (fitted): most become traits or population.
HAND_GAIN: Final = 0.13
#: Standard deviation of a two-seat final margin per square root of the rounds left (fitted).
SPREAD: Final = 4.0
#: The logistic's slope that matches a normal distribution's (1.702: the usual probit scale).
PROBIT: Final = 1.702
#: Rounds a playout plays past the one it begins in, by default: 1 ends it with that round.
DEFAULT_ROUNDS: Final = 1


def rounds_left(st: NSState) -> int:
    """Rounds still to play, this one included: 1 in the last round (N-3.1, N-4.1), else one
    more per deal the deck still holds, counting 3 + 1 per species a seat (N-3.1)."""
    if st.last_round:
        return 1
    deal = 0
    for row in st.species:
        deal += HAND_BASE + len(row)
    return 1 + -(-len(st.deck) // deal)


def projected_score(st: NSState, seat: int, left: int) -> float:
    """``seat``'s N-4.1 points now plus the fitted gain of ``left`` rounds and its hand."""
    row = st.species[seat]
    points = st.bags[seat]  # N-4.1: food in the bag; Fat Tissue food scores nothing
    for sp in row:
        points += sp.pop + len(sp.traits)  # N-4.1: population and traits of a survivor
    return points + SPECIES_GAIN * left * len(row) + HAND_GAIN * len(st.hands[seat])


def projected_rewards(st: NSState) -> list[float]:
    """Every seat's reward on the search's terminal scale (see the module docstring)."""
    n = st.num_players
    left = rounds_left(st)
    values = [projected_score(st, seat, left) for seat in range(n)]
    slope = PROBIT / (SPREAD * math.sqrt(left))
    out: list[float] = []
    for seat in range(n):
        ahead = 0.0
        for other in range(n):
            if other != seat:
                ahead += 1.0 / (1.0 + math.exp(-slope * (values[seat] - values[other])))
        out.append(ahead / (n - 1) if n > 1 else 1.0)
    return out


class RoundCutoff(Cutoff):
    """Cut a playout at the start of the ``rounds``-th round after the one it began in."""

    def __init__(self, rounds: int = DEFAULT_ROUNDS) -> None:
        if rounds < 1:
            raise ValueError("a cut-off horizon is at least one round")
        self.rounds = rounds

    def mark(self, state: State) -> int:
        """The last round the playout plays whole."""
        return cast(NSState, state).round + self.rounds - 1

    def evaluate(self, state: State, mark: int) -> list[float] | None:
        st = cast(NSState, state)
        if st.round <= mark:  # the per-move check: one comparison
            return None
        return projected_rewards(st)
