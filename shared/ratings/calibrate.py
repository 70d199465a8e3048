"""The anchors' fixed ratings, fitted to bot-vs-bot results (``scripts.recalibrate_anchors``).

A result is a pairing: ``a`` in one seat and ``b`` in every other of ``players`` seats, ``a``
first in ``score`` of ``matches`` (a shared first counting half). Under OpenSkill's
Plackett-Luce model, with every seat at the anchors' ``sigma``, ``a`` comes first with
probability ``e^(mu_a/c) / (e^(mu_a/c) + (players-1) e^(mu_b/c))``, ``c = sqrt(players
(sigma^2 + beta^2))``. The fit is the maximum of that likelihood over every result, with
half a first and half a loss added to each pairing (so a pairing won every time, such as
``medium`` against ``random``, gives a finite gap) and ``reference`` (``bot:random``) held at
``mu0``, OpenSkill's starting mean: a new account starts level with the random bot's mean.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from shared.ratings.model import MODEL

REFERENCE = "bot:random"
SIGMA = 1.0  # every anchor's sigma: a fixed point is (nearly) certain
SMOOTHING = 0.5  # firsts and losses added to each pairing


@dataclass(frozen=True)
class Result:
    a: str
    b: str
    players: int
    matches: int
    score: float  # a's firsts, a shared first counting half


def _p_first(mu_a: float, mu_b: float, players: int, sigma: float) -> float:
    c = math.sqrt(players * (sigma ** 2 + MODEL.beta ** 2))
    return 1.0 / (1.0 + (players - 1) * math.exp((mu_b - mu_a) / c))


def log_likelihood(mus: dict[str, float], results: Sequence[Result],
                   sigma: float = SIGMA) -> float:
    total = 0.0
    for r in results:
        p = _p_first(mus[r.a], mus[r.b], r.players, sigma)
        won, n = r.score + SMOOTHING, r.matches + 2 * SMOOTHING
        total += won * math.log(p) + (n - won) * math.log(1.0 - p)
    return total


def fit(results: Sequence[Result], reference: str = REFERENCE, mu0: float = MODEL.mu,
        sigma: float = SIGMA, rounds: int = 200) -> dict[str, dict[str, float]]:
    """Player key -> ``{"mu", "sigma", "se"}`` (``se``: the mean's standard error, from the
    likelihood's curvature). Every player must be linked to ``reference`` by results."""
    players = sorted({r.a for r in results} | {r.b for r in results})
    if reference not in players:
        raise ValueError(f"no result involves {reference}: nothing to fix the scale")
    _check_linked(players, results, reference)
    mus = {p: mu0 for p in players}
    free = [p for p in players if p != reference]
    for _ in range(rounds):  # coordinate ascent: the likelihood is concave in each mean
        moved = 0.0
        for player in free:
            before = mus[player]
            mus[player] = _argmax(_along(mus, player, results, sigma), before)
            moved = max(moved, abs(mus[player] - before))
        if moved < 1e-6:
            break
    out = {}
    for player in players:
        se = 0.0 if player == reference else _standard_error(mus, player, results, sigma)
        out[player] = {"mu": round(mus[player], 3), "sigma": sigma, "se": round(se, 3)}
    return out


def _along(mus: dict[str, float], player: str, results: Sequence[Result], sigma: float
           ) -> Callable[[float], float]:
    """The log-likelihood as a function of ``player``'s mean, the others held."""
    return lambda x: log_likelihood({**mus, player: x}, results, sigma)


def _argmax(f: Callable[[float], float], start: float, span: float = 200.0) -> float:
    """The maximum of a concave ``f`` near ``start`` (golden-section search)."""
    lo, hi = start - span, start + span
    ratio = (math.sqrt(5) - 1) / 2
    x1, x2 = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
    f1, f2 = f(x1), f(x2)
    while hi - lo > 1e-7:
        if f1 < f2:
            lo, x1, f1 = x1, x2, f2
            x2 = lo + ratio * (hi - lo)
            f2 = f(x2)
        else:
            hi, x2, f2 = x2, x1, f1
            x1 = hi - ratio * (hi - lo)
            f1 = f(x1)
    return (lo + hi) / 2


def _standard_error(mus: dict[str, float], player: str, results: Sequence[Result],
                    sigma: float, h: float = 1e-3) -> float:
    mid = log_likelihood(mus, results, sigma)
    up = log_likelihood({**mus, player: mus[player] + h}, results, sigma)
    down = log_likelihood({**mus, player: mus[player] - h}, results, sigma)
    curvature = -(up - 2 * mid + down) / h ** 2
    return 1.0 / math.sqrt(curvature) if curvature > 0 else math.inf


def _check_linked(players: list[str], results: Sequence[Result], reference: str) -> None:
    linked, frontier = {reference}, [reference]
    while frontier:
        current = frontier.pop()
        for r in results:
            for one, other in ((r.a, r.b), (r.b, r.a)):
                if one == current and other not in linked:
                    linked.add(other)
                    frontier.append(other)
    unlinked = sorted(set(players) - linked)
    if unlinked:
        raise ValueError(f"no chain of results links {', '.join(unlinked)} to {reference}")

