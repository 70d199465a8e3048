"""``python -m evo_arena tournament ...``: run a tournament on a server and print its standings.

Creates the tournament (``POST /v1/tournaments``), follows its progress over the server-sent
event stream with a progress bar, then prints the final standings table. Only HTTP is used,
so it works against any Evo Arena server::

    python -m evo_arena tournament --server http://127.0.0.1:8000 --game savanna \\
        --bot random --bot greedy --bot ismcts:easy --seed 1

An ``account:<id>`` entrant is entered at once only with that account's key (``--key``); any
other account is invited and the tournament waits (status ``waiting``) until it accepts.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from typing import Any, TextIO

import requests


def entrant(text: str) -> dict[str, Any]:
    """``random``, ``ismcts:easy``, ``ismcts:200`` (simulations) or ``account:<id>``."""
    kind, _, level = text.partition(":")
    if kind == "account":
        return {"account": level}
    bot: dict[str, Any] = {"kind": kind}
    if level:
        bot.update({"simulations": int(level)} if level.isdigit() else {"level": level})
    return {"bot": bot}


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="python -m evo_arena", description=__doc__,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = root.add_subparsers(dest="command", required=True)
    run = commands.add_parser("tournament", help="create a tournament and follow it")
    run.add_argument("--server", default="http://127.0.0.1:8000")
    run.add_argument("--game", required=True)
    run.add_argument("--format", default="round_robin", choices=["round_robin", "swiss", "pods"])
    run.add_argument("--seats", type=int, default=2, help="seats per match (pods: 3-6)")
    run.add_argument("--bot", dest="entrants", action="append", type=entrant, required=True,
                     help="an entrant: random, greedy, ismcts:easy, ismcts:300, account:<id>")
    run.add_argument("--rounds", type=int, default=1)
    run.add_argument("--deals", type=int, help="pods: how many deals")
    run.add_argument("--seed", type=int)
    run.add_argument("--move-deadline", type=float, default=10.0)
    run.add_argument("--concurrency", type=int, default=4)
    run.add_argument("--name")
    run.add_argument("--key", help="an account's API key: that account's entries are taken "
                                   "at once; other accounts named are invited")
    run.add_argument("--json", action="store_true", help="print the final tournament as JSON")
    return root


def events(http: requests.Session, url: str) -> Iterator[dict[str, Any]]:
    """The ``data`` of each server-sent event of ``url`` until the server ends the stream."""
    with http.get(url, stream=True, timeout=(10, 60)) as response:
        response.raise_for_status()
        for raw in response.iter_lines(decode_unicode=True):
            # Text, as the stream declares its charset; bytes only if a server declared none.
            line = raw if isinstance(raw, str) else raw.decode()
            if line and line.startswith("data: "):
                yield json.loads(line[len("data: "):])


def bar(progress: dict[str, Any], width: int = 30) -> str:
    done, total = progress["done"], max(1, progress["total"])
    filled = round(width * done / total)
    eta = progress.get("eta_seconds")
    left = f", ~{eta:.0f} s left" if eta is not None else ""
    return f"[{'#' * filled}{'.' * (width - filled)}] {done}/{progress['total']} matches{left}"


def table(standings: list[dict[str, Any]]) -> str:
    lines = [f"{'#':>3}  {'entrant':<24} {'points':>7} {'wins':>5} {'matches':>7} "
             f"{'avg place':>9} {'rating (mu-3s)':>15}"]
    for row in standings:
        rating = row.get("rating")
        shown = (f"{rating['mu']:.1f}±{rating['sigma']:.1f} ({rating['conservative']:.1f})"
                 if rating else "-")
        place = "-" if row["average_place"] is None else f"{row['average_place']:.2f}"
        lines.append(f"{row['rank']:>3}  {row['name'][:24]:<24} {row['points']:>7.1f} "
                     f"{row['wins']:>5} {row['matches']:>7} {place:>9} {shown:>15}")
    return "\n".join(lines)


def run_tournament(args: argparse.Namespace, out: TextIO) -> int:
    http = requests.Session()
    body = {"game": args.game, "format": args.format, "seats": args.seats,
            "entrants": args.entrants, "rounds": args.rounds, "seed": args.seed,
            "move_deadline": args.move_deadline, "concurrency": args.concurrency}
    if args.deals is not None:
        body["deals"] = args.deals
    if args.name:
        body["name"] = args.name
    headers = {"Authorization": f"Bearer {args.key}"} if args.key else {}
    response = http.post(f"{args.server}/v1/tournaments", json=body, headers=headers,
                         timeout=60)
    if response.status_code != 201:
        print(f"the server refused the tournament: {response.json().get('detail')}",
              file=sys.stderr)
        return 2
    created = response.json()
    url = f"{args.server}/v1/tournaments/{created['id']}"
    # The server shows the seed only once the tournament is over: ours, if we chose it.
    seed = created["seed"] if created["seed"] is not None else args.seed
    print(f"tournament {created['id']}: {created['progress']['total']} matches "
          f"(seed {'shown at the end' if seed is None else seed})", file=out)
    status = created["status"]
    if status == "waiting":
        print("waiting for the invited accounts to accept", file=out)
    while status in ("running", "waiting"):
        for event in events(http, f"{url}/stream"):
            status = event["status"]
            print(f"\r{bar(event['progress']):<72}", end="", file=out, flush=True)
        if status in ("running", "waiting"):
            time.sleep(1)  # the stream ended (its time limit); reconnect
    final = http.get(url, timeout=60).json()
    print(f"\r{bar(final['progress']):<72}\n{final['status']}", file=out)
    print(json.dumps(final, indent=2) if args.json else table(final["standings"]), file=out)
    return 0 if final["status"] == "finished" else 1


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    return run_tournament(args, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
