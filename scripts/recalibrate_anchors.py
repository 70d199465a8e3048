"""Recalibrate the anchors: refit the built-in bots' fixed ratings and rewrite each game's
``anchors.json`` (in the game's folder, ``shared/games/<engine>/``). The only code that
changes those files; the server only reads them.

    .venv/bin/python -m scripts.recalibrate_anchors --game savanna   # one game
    .venv/bin/python -m scripts.recalibrate_anchors                  # every game
    .venv/bin/python -m scripts.recalibrate_anchors --check          # print, write nothing

The results are the strength bench's records (``bench/results/strength.jsonl``, written by
``python -m bench.strength``: seeded bot-vs-bot matches, seats rotated) of the game's current
rules version and of the search as it now is (the records docs/benchmarks.md's table counts).
Only plain bots become anchors: ``random``, ``greedy``, the levels (``bot:ismcts:<level>``)
and ``sims:N`` (``bot:ismcts:simsN``); variants (``+cut``, ``/r``, ``time:S``) are left out.
To anchor another bot, play it against an anchored one first, e.g. ``python -m bench.accel
bench.strength --game savanna --players 2 --matches 200 --pairing easy,random``, then run
this. The fit: ``shared.ratings.calibrate``; the method: docs/ratings.md.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from bench.strength import RESULTS, figures, load_records, pairing_playouts, parse_spec
from shared.bots.catalogue import LEVELS
from shared.games import all_games, get_game
from shared.ratings import calibrate
from shared.ratings.anchors import path_of


def player_key(spec: str) -> str | None:
    """The rating key of a strength-bench bot spec; None for a variant or a timed bot."""
    try:
        name, suffix, options = parse_spec(spec)
    except ValueError:  # a variant since retired
        return None
    if suffix or options or "+" in spec:
        return None
    if name in ("random", "greedy"):
        return f"bot:{name}"
    if name in LEVELS:
        return f"bot:ismcts:{name}"
    if name.startswith(("sims:", "ismcts:")) and name.partition(":")[2].isdigit():
        return f"bot:ismcts:sims{int(name.partition(':')[2])}"
    return None


def results_of(game_id: str, records: list[dict[str, Any]]) -> list[calibrate.Result]:
    game = get_game(game_id)
    out = []
    for f in figures([r for r in records if r["game"] == game_id]):
        a, b = player_key(f.a), player_key(f.b)
        if (a is None or b is None or a == b or f.rules != game.version
                or f.playouts != pairing_playouts(game, f.players, f.a, f.b)):
            continue
        out.append(calibrate.Result(a, b, f.players, f.matches, f.score))
    return out


NOTE = ("Fixed ratings of the game's built-in bots (anchors), written by `python -m "
        "scripts.recalibrate_anchors` from bench/results/strength.jsonl (docs/ratings.md); "
        "edit by rerunning it, never by hand.")


def recalibrate(game_id: str, records: list[dict[str, Any]]) -> dict[str, Any]:
    """The game's ``anchors.json``."""
    results = results_of(game_id, records)
    return {"game": game_id, "rules": get_game(game_id).version, "note": NOTE,
            "method": (calibrate.__doc__ or "").strip().split("\n\n")[0],
            "fitted_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "results": [{"a": r.a, "b": r.b, "players": r.players, "matches": r.matches,
                         "score": r.score} for r in results],
            "anchors": calibrate.fit(results)}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--game", action="append", help="a game id (repeat; default: all)")
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--out", type=Path,
                        help="write here instead of the game's folder (one --game only)")
    parser.add_argument("--check", action="store_true", help="print the fit, write nothing")
    args = parser.parse_args()
    games = args.game or [game.id for game in all_games()]
    if args.out and len(games) != 1:
        parser.error("--out takes exactly one --game")
    records = load_records(args.results)
    for game_id in games:
        entry = recalibrate(game_id, records)
        for key, rating in sorted(entry["anchors"].items(), key=lambda kv: kv[1]["mu"]):
            print(f"{game_id} {key}: mu {rating['mu']:.2f} (se {rating['se']:.2f})")
        if not args.check:
            out = args.out or path_of(game_id)
            out.write_text(json.dumps(entry, indent=2, sort_keys=True) + "\n")
            print(f"wrote {out}")


if __name__ == "__main__":
    main()
