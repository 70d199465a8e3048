"""Fit the constants of Evolution (North Star)'s playout cut-off (``shared/games/evolution_ns/
cutoff.py``) to the random playouts it replaces.

Run from the repository root::

    .venv/bin/python -m bench.fit_cutoff_ns --matches 3000

It plays seeded two-seat matches with uniformly random moves and, at every round start
(where the cut-off scores a playout), notes each seat's N-4.1 points, species, hand and the
deck's rounds left (``cutoff.rounds_left``). It prints the least-squares gain of the final
score over the points now (per species and round left, per round left, per card in hand)
and the log-loss of the two-seat win chance ``logistic(1.702 * margin / (spread *
sqrt(rounds left)))`` for a few spreads, against the points-now margin alone.
"""

from __future__ import annotations

import argparse
import math
import random

from shared.games import get_game
from shared.games.evolution_ns.cutoff import PROBIT, rounds_left
from shared.games.evolution_ns.state import NSState

Row = tuple[int, list[tuple[float, int, int]], list[float]]  # left, (points, species, hand), final


def snapshots(matches: int) -> list[Row]:
    """Every round start of ``matches`` seeded random two-seat matches."""
    game = get_game("evolution-ns")
    rows: list[Row] = []
    for seed in range(matches):
        rng = random.Random(seed)
        state = game.new_state(2, game.resolve_options({}), rng)
        assert isinstance(state, NSState)
        seen: list[tuple[int, list[tuple[float, int, int]]]] = []
        last = state.round
        while not state.is_over():
            seat = state.to_move()[0]
            state.advance(seat, state.random_move(seat, rng), rng)
            if state.round != last and not state.is_over():
                last = state.round
                points = state.scores()[0]
                seen.append((rounds_left(state), [
                    (points[s], len(state.species[s]), len(state.hands[s])) for s in (0, 1)]))
        final = state.result().scores
        rows += [(left, seats, final) for left, seats in seen]
    return rows


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gauss-Jordan elimination with partial pivoting."""
    n = len(a)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for i in range(n):
        pivot = max(range(i, n), key=lambda r: abs(m[r][i]))
        m[i], m[pivot] = m[pivot], m[i]
        for r in range(n):
            if r != i:
                f = m[r][i] / m[i][i]
                m[r] = [x - f * y for x, y in zip(m[r], m[i], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3000)
    args = parser.parse_args()
    rows = snapshots(args.matches)
    xs: list[list[float]] = []
    ys: list[float] = []
    for left, seats, final in rows:
        for s in (0, 1):
            points, species, hand = seats[s]
            xs.append([left * species, left, hand])
            ys.append(final[s] - points)
    k = len(xs[0])
    a = [[sum(x[i] * x[j] for x in xs) for j in range(k)] for i in range(k)]
    b = [sum(x[i] * y for x, y in zip(xs, ys, strict=True)) for i in range(k)]
    species_gain, round_gain, hand_gain = solve(a, b)
    print(f"# {len(rows)} round starts of {args.matches} matches")
    print(f"gain per species and round left={species_gain:.3f} per round left="
          f"{round_gain:.3f} (the same for both seats) per card in hand={hand_gain:.3f}")
    for spread in (3.0, 3.5, 4.0, 5.0, 6.0):
        for projected in (False, True):
            loss, count = 0.0, 0
            for left, seats, final in rows:
                if final[0] == final[1]:
                    continue
                margin = seats[0][0] - seats[1][0]
                if projected:
                    margin += (species_gain * left * (seats[0][1] - seats[1][1])
                               + hand_gain * (seats[0][2] - seats[1][2]))
                p = 1.0 / (1.0 + math.exp(-PROBIT * margin / (spread * math.sqrt(left))))
                p = min(max(p, 1e-9), 1 - 1e-9)
                loss -= math.log(p if final[0] > final[1] else 1 - p)
                count += 1
            print(f"spread={spread} {'projected' if projected else 'points now'} "
                  f"log-loss={loss / count:.4f}")


if __name__ == "__main__":
    main()
