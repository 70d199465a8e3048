"""Bot strength: seeded matches between bot kinds, seats rotated, 95% Wilson intervals.

Run from the repository root, e.g.::

    .venv/bin/python -m bench.strength --game savanna --players 2 --matches 200 \\
        --pairing medium,random --pairing medium,greedy --pairing hard,medium
    .venv/bin/python -m bench.strength --game savanna --players 4 --pairing medium,random
    .venv/bin/python -m bench.strength            # the standard plan (PLAN), every game

A pairing ``A,B`` plays ``A`` in one seat and ``B`` in every other seat; match ``i`` (seeded
by ``i``) puts ``A`` in seat ``i mod players``. The figure is A's first-place rate (a shared
first place counts as first; shared firsts are also listed separately as ``ties``).

Bot specs: ``random``; ``greedy`` (``shared.bots.choice.greedy_move``, the bot the worker runs);
``easy`` / ``medium`` / ``hard`` (the levels' simulation counts, without the service's time
caps, so a seeded match plays the same moves on any machine and build; see
``shared/bots/catalogue.py``); ``sims:N`` (N simulations);
``time:S`` (S seconds a move, no simulation limit: equal-time comparisons); ``ismcts:N`` is
``sims:N``. A suffix ``/r`` forces the uniformly random playout policy, ``/h`` the game's
candidate heuristic (``Game.playout_heuristic``), registered or not. Search variants follow
as ``+name`` suffixes (``VARIANTS``), so a pairing plays a variant against the default
search at equal simulations, e.g. ``--pairing sims:300+cut,sims:300``; the record keeps
both specs, variants included. The variants that lost their 200-match test (``+mo``,
``+reuse``, ``+moreuse``, ``+seatorder``, ``+margin``) left with their search options; their
records stay in the results file, and commit 8625cbb is the last one that plays them.
``+cut`` stops every playout at the game's candidate cut-off (``Game.playout_cutoff``, e.g.
Evolution (North Star)'s end of the round) and backs up its evaluation; ``+cut:N`` sets the
horizon to N (the game's unit). ``+full`` plays playouts to the end of the match even where
the game registers its cut-off at that player count and budget (``Game.cutoff_budgets``), so
the search as it was before a registration plays the search as it is. Compare it at equal
time and at equal simulations::

    python -m bench.accel bench.strength --game evolution-ns --players 2 \\
        --pairing time:0.25+cut,time:0.25 --pairing sims:300+cut,sims:300
Matches run in ``--procs`` processes (default 2, one per core of the bench machine).
``python -m bench.accel bench.strength ...`` runs the same matches with the engine compiled
by mypyc, about three times sooner (``bench/accel.py``); each record says which build played.

Every finished match is appended to ``--out`` (``bench/results/strength.jsonl``, committed) as
one JSON line with the commit the bots ran at and the game's rules version (``rules``, the
``Game.version``); a rerun plays only the seeds not yet recorded under the current rules, so
the 200-match plan can be run in pieces, and ``--report`` prints the figures of everything
recorded, one row per rules version. A match played under other rules is a different game:
docs/benchmarks.md's table (``--markdown``) counts only the current rules version's records.
A record without ``rules`` predates the field and was played under its game's first rules version
(``<game>-1``; no game had changed its version before). Each record also keeps how the
default search's playouts ended for its bots (``playouts``: ``full``, or ``cut`` at the
game's registered cut-off, ``Game.playouts`` under each bot's budget; ``full/cut`` when A's
and B's differ; a ``+cut`` or ``+full`` variant overrides it for its own bot): registering a
cut-off changes the moves of every search bot it covers, so the table counts only records of
the search as it now is, and a record without the field was played before any game
registered one (``full``). A line with ``seeds: [first, last]``
and ``firsts`` instead of ``seed`` and ``first`` is an earlier run kept only as its total.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.bench_search import load_game
from shared.bots.catalogue import LEVELS
from shared.bots.choice import greedy_move
from shared.games import all_games
from shared.infra.accel import compiled_modules
from shared.kernel.budget import TIMED_SIMULATIONS
from shared.kernel.protocol import Cutoff, Game, Move, State, View
from shared.search import SearchBudget, SearchConfig, search_move
from shared.search.policies import Policy, heuristic_for, policy_for, random_policy

COMMAND = "python -m bench.strength " + " ".join(sys.argv[1:])
RESULTS = Path(__file__).parent / "results" / "strength.jsonl"


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


#: Search variants a bot spec may add (``+cut``): options of the bot's ``SearchConfig``.
VARIANTS: dict[str, dict[str, Any]] = {
    # The game's candidate playout cut-off (``Game.playout_cutoff``) at its default horizon;
    # ``+cut:N`` sets the horizon to N (the game's unit, e.g. rounds).
    "cut": {"cutoff": 0},
    # Playouts to the end of the match even where the game registers a cut-off
    # (``Game.cutoff_budgets``): the search as it was before the registration.
    "full": {"full_playouts": True},
}


def parse_spec(spec: str) -> tuple[str, str, dict[str, Any]]:
    """``(name, playout suffix, search keyword arguments)`` of a bot spec; raises
    ``ValueError`` for an unknown variant or a variant on a bot that does not search."""
    base, *variants = spec.split("+")
    name, _, suffix = base.partition("/")
    options: dict[str, Any] = {}
    for variant in variants:
        variant, _, horizon = variant.partition(":")
        if variant == "cut" and horizon:
            if not horizon.isdigit() or int(horizon) < 1:
                raise ValueError(f"{spec!r}: a cut-off horizon is a positive integer")
            options["cutoff"] = int(horizon)
            continue
        if horizon or variant not in VARIANTS:
            raise ValueError(f"unknown search variant {variant!r} in {spec!r} "
                             f"(known: {', '.join(VARIANTS)})")
        options.update(VARIANTS[variant])
    if "cutoff" in options and options.get("full_playouts"):
        raise ValueError(f"{spec!r}: +cut and +full contradict each other")
    if options and name in ("random", "greedy"):
        raise ValueError(f"{spec!r}: only a search bot has variants")
    return name, suffix, options


def budget_of(spec: str) -> SearchBudget:
    """The search budget of a search bot's spec: a level's or ``sims:N`` simulations without
    the service's time caps, or ``time:S`` seconds a move (a time budget)."""
    name = parse_spec(spec)[0]
    if name in LEVELS:
        return SearchBudget(LEVELS[name].simulations, 3600.0)
    if name.startswith(("sims:", "ismcts:")):
        return SearchBudget(int(name.partition(":")[2]), 3600.0)
    if name.startswith("time:"):
        return SearchBudget(TIMED_SIMULATIONS, float(name[5:]))
    raise ValueError(f"unknown bot spec {spec!r}")


def pairing_playouts(game: Game, players: int, a: str, b: str) -> str:
    """How the default search's playouts end for the pairing's search bots (``Game.playouts``
    under each one's budget, a ``+cut`` or ``+full`` variant aside): ``cut`` or ``full`` when
    they agree (or no bot searches: ``full``), else A's and B's joined as ``full/cut``."""
    ends = [game.playouts(players, budget_of(spec)) for spec in (a, b)
            if parse_spec(spec)[0] not in ("random", "greedy")]
    if len(set(ends)) <= 1:
        return ends[0] if ends else "full"
    return "/".join(ends)


@dataclass
class Bot:
    spec: str
    moves: int = 0
    seconds: float = 0.0

    def choose(self, game: Game, view: View, seat: int, rng: random.Random) -> Move:
        """The bot's move from ``view``."""
        start = time.perf_counter()
        try:
            return self._choose(game, view, seat, rng)
        finally:
            self.moves += 1
            self.seconds += time.perf_counter() - start

    def _choose(self, game: Game, view: View, seat: int, rng: random.Random) -> Move:
        name, suffix, options = parse_spec(self.spec)
        if name == "random":
            state = game.sample_from_view(view, seat, rng)
            return rng.choice(state.legal_moves(seat))
        if name == "greedy":
            return greedy_move(game, view, seat, rng)
        policy: Policy = policy_for(game)
        if suffix == "r":
            policy = random_policy
        elif suffix == "h":
            heuristic = heuristic_for(game)
            if heuristic is None:
                raise ValueError(f"{game.id} has no heuristic playout policy")
            policy = heuristic
        budget = budget_of(self.spec)
        horizon = options.pop("cutoff", None)
        if options.pop("full_playouts", False):
            options["cutoff"] = Cutoff()  # a cut-off that never cuts: playouts to the end
        elif horizon is not None:  # ``+cut``: 0 asks for the game's default horizon
            cutoff = game.playout_cutoff(horizon or None)
            if cutoff is None:
                raise ValueError(f"{game.id} has no playout cut-off")
            options["cutoff"] = cutoff
        return search_move(game, view, seat, budget, rng,
                           config=SearchConfig(policy=policy, **options))


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


def load_records(path: Path) -> list[dict[str, Any]]:
    """Every record of the results file (one JSON object a line), oldest first."""
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def rules_of(record: dict[str, Any]) -> str:
    """The rules version a record was played under (``<game>-1`` before the field existed)."""
    return record.get("rules") or f"{record['game']}-1"


def playouts_of(record: dict[str, Any]) -> str:
    """How the searches' playouts ended in a record's match (``Game.playouts``): ``full``
    before the field existed, when no game registered a cut-off."""
    return record.get("playouts") or "full"


def pairing_key(record: dict[str, Any]) -> tuple[str, int, str, str, str, str]:
    return (record["game"], record["players"], record["a"], record["b"], rules_of(record),
            playouts_of(record))


def run_pairing(game_id: str, players: int, a: str, b: str, seeds: range, procs: int,
                out: Path) -> None:
    """Play the seeds not yet in ``out``, appending one record per finished match, so a run
    that is stopped (or split across machines) resumes where it stopped."""
    for spec in (a, b):
        parse_spec(spec)  # an unknown variant fails here, not in the first match
    game = load_game(game_id)
    rules, playouts = game.version, pairing_playouts(game, players, a, b)
    key = (game_id, players, a, b, rules, playouts)
    done = {seed for record in load_records(out) if pairing_key(record) == key
            for seed in _seeds_of(record)}
    jobs = [(game_id, players, a, b, seed) for seed in seeds if seed not in done]
    print(f"# {game_id} ({rules}, {playouts} playouts) {players}p {a} vs {b}: "
          f"{len(seeds) - len(jobs)} of "
          f"{len(seeds)} seeds already in {out}, playing {len(jobs)}", flush=True)
    code = code_version()
    # Which engine build played (``bench.accel``): the moves are the same, only the times differ.
    build = "mypyc" if compiled_modules() else "python"
    out.parent.mkdir(parents=True, exist_ok=True)
    with multiprocessing.Pool(procs) as pool:
        for result in pool.imap_unordered(play_match, jobs):
            record = {"game": game_id, "rules": rules, "playouts": playouts,
                      "players": players, "a": a, "b": b, **result, "code": code,
                      "build": build}
            # Opened per record: a git checkout that replaces the file during a run of hours
            # must not leave the rest of the run writing to the replaced (deleted) file.
            with out.open("a") as sink:
                sink.write(json.dumps(record) + "\n")


def _seeds_of(record: dict[str, Any]) -> range:
    """The seeds a record covers: one match, or an earlier run kept only as a total."""
    if "seeds" in record:
        first, last = record["seeds"]
        return range(first, last + 1)
    return range(record["seed"], record["seed"] + 1)


@dataclass(frozen=True)
class Figure:
    """One pairing's figures over every recorded match."""

    game: str
    players: int
    a: str
    b: str
    rules: str
    playouts: str
    matches: int
    firsts: int
    low: float
    high: float
    seeds: str
    a_seconds_per_move: float
    ties: int = 0  # of the firsts, those shared with another seat

    @property
    def rate(self) -> float:
        return self.firsts / self.matches

    @property
    def score(self) -> float:
        """A's results with a shared first counted as half a first: the fair figure for two
        bots of (nearly) equal strength, whose first-place rate ties alone would lift."""
        return self.firsts - self.ties / 2


def figures(records: list[dict[str, Any]]) -> list[Figure]:
    """One figure per pairing, sorted by pairing; raises if a seed is recorded twice."""
    by_pairing: dict[tuple[str, int, str, str, str, str], list[dict[str, Any]]] = {}
    for record in records:
        by_pairing.setdefault(pairing_key(record), []).append(record)
    result = []
    for (game_id, players, a, b, rules, playouts), group in sorted(by_pairing.items()):
        seeds = sorted(seed for record in group for seed in _seeds_of(record))
        if len(seeds) != len(set(seeds)):
            raise ValueError(f"{game_id} ({rules}, {playouts} playouts) {a} vs {b}: "
                             "a seed is counted twice")
        firsts = sum(record.get("firsts", record.get("first", 0)) for record in group)
        ties = sum(bool(record.get("tie")) for record in group)
        lo, hi = wilson(firsts, len(seeds))
        timed = [r for r in group if "a_moves" in r]
        moves = sum(r["a_moves"] for r in timed)
        per_move = sum(r["a_seconds"] for r in timed) / moves if moves else float("nan")
        result.append(Figure(game_id, players, a, b, rules, playouts, len(seeds), firsts, lo,
                             hi, _ranges(seeds), per_move, ties))
    return result


def summarise(records: list[dict[str, Any]]) -> list[str]:
    """One line per pairing: matches, A's firsts, rate, 95% Wilson interval, seeds, time, and
    the shared firsts with the interval of A's score counting them as half (``Figure.score``:
    a search variant against the current search is judged by that one)."""
    lines = []
    for f in figures(records):
        low, high = wilson(f.score, f.matches)
        lines.append(f"{f.game} ({f.rules}, {f.playouts} playouts) players={f.players} "
                     f"{f.a} vs {f.b}: "
                     f"matches={f.matches} first={f.firsts} rate={f.rate:.3f} "
                     f"wilson95=[{f.low:.3f}, {f.high:.3f}] seeds={f.seeds} "
                     f"{f.a}_s/move={f.a_seconds_per_move:.3f} ties={f.ties} "
                     f"score={f.score:g} score_rate={f.score / f.matches:.3f} "
                     f"score_wilson95=[{low:.3f}, {high:.3f}]")
    return lines


def markdown(records: list[dict[str, Any]], matches: int = 200) -> list[str]:
    """docs/benchmarks.md's table: every game's PLAN rows, each against its target, in plan order.

    A row passes when the lower bound of its 95% interval clears the target; a row with fewer
    than ``matches`` matches says so. Pairings outside the plan, and matches played under
    another rules version than the game's current one or by searches whose playouts ended
    otherwise than they now do (``pairing_playouts``), are left out."""
    found = {(f.game, f.players, f.a, f.b, f.rules, f.playouts): f for f in figures(records)}
    lines = ["| pairing | matches | A first | rate | 95% CI | seeds | target |",
             "|---|---|---|---|---|---|---|"]
    for game in all_games():
        for players, a, b, target in PLAN:
            f = found.get((game.id, players, a, b, game.version,
                           pairing_playouts(game, players, a, b)))
            others = f"{players - 1} `{b}`" if players > 2 else f"`{b}`"
            name = f"{game.name} {players}p `{a}` vs {others}"
            if f is None:
                lines.append(f"| {name} | 0 | | | | | ≥ {target:.2f}: not run |")
                continue
            verdict = "lower bound ✓" if f.low >= target else "lower bound ✗"
            short = f" — {f.matches} of the {matches} matches asked for" \
                if f.matches < matches else ""
            lines.append(f"| {name} | {f.matches} | {f.firsts} | {f.rate:.3f} | "
                         f"[{f.low:.3f}, {f.high:.3f}] | {f.seeds} | "
                         f"≥ {target:.2f}: {verdict}{short} |")
    return lines


def _ranges(seeds: list[int]) -> str:
    """``0-55,60`` for a sorted list of seeds."""
    parts: list[str] = []
    start = prev = seeds[0]
    for seed in [*seeds[1:], None]:
        if seed is not None and seed == prev + 1:
            prev = seed
            continue
        parts.append(f"{start}" if start == prev else f"{start}-{prev}")
        if seed is not None:
            start = prev = seed
    return ",".join(parts)


def code_version() -> str:
    """The commit the bots ran at (``+dirty`` with uncommitted changes), for the record."""
    root = Path(__file__).resolve().parents[1]
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True, cwd=root).stdout.strip()
        # The results file itself changes during every run: it does not make the code dirty.
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--",
                                ".", ":!bench/results"], cwd=root,
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+dirty" if dirty else "")


#: The standard figures: (players, A, B, the first-place rate A must reach, issue #4).
#: ``python -m bench.strength`` alone runs them all for every registered game with
#: ``--matches`` (default 200) each: hours on a 2-core machine.
PLAN: tuple[tuple[int, str, str, float], ...] = (
    (2, "medium", "random", 0.90), (4, "medium", "random", 0.60),
    (2, "medium", "greedy", 0.60), (2, "hard", "medium", 0.55))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="game id (default: every game)")
    parser.add_argument("--players", type=int, default=2, help="seats for --pairing")
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--pairing", action="append", help="A,B (default: the standard plan)")
    parser.add_argument("--procs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0, help="first match seed")
    parser.add_argument("--out", type=Path, default=RESULTS,
                        help=f"results file, appended to and resumed from (default {RESULTS})")
    parser.add_argument("--report", action="store_true",
                        help="only summarise the results file, play nothing")
    parser.add_argument("--markdown", action="store_true",
                        help="with --report: the table of the plan against its targets "
                             "(docs/benchmarks.md)")
    args = parser.parse_args()
    if not args.report:
        games = args.game or [game.id for game in all_games()]
        plan = ([(args.players, *pairing.split(",", 1)) for pairing in args.pairing]
                if args.pairing else [row[:3] for row in PLAN])
        print(f"# {COMMAND}", flush=True)
        seeds = range(args.seed, args.seed + args.matches)
        for game_id in games:
            for players, a, b in plan:
                run_pairing(game_id, int(players), a, b, seeds, args.procs, args.out)
    records = load_records(args.out)
    report = markdown(records, args.matches) if args.markdown else summarise(records)
    for line in report:
        print(line, flush=True)


if __name__ == "__main__":
    main()
