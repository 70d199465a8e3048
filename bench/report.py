"""Rewrite the generated tables of ``docs/benchmarks.md`` from the records in ``bench/results/``.

Run from the repository root::

    .venv/bin/python -m bench.report            # rewrite the tables in place
    .venv/bin/python -m bench.report --check    # exit 1 if a committed table is out of date

Each table sits between marker comments, ``<!-- table:NAME -->`` and ``<!-- /table:NAME -->``;
everything outside the markers is prose and left alone. The tables:

* ``strength``: the strength plan against its targets, from ``bench/results/strength.jsonl``,
  by ``bench.strength.markdown`` (the same generator as ``python -m bench.strength --report
  --markdown``, so the two never disagree);
* ``load``: the API against the bare Flask+Redis app, from ``bench/results/load.jsonl``
  (``python -m bench.bench_load --json ...``), one column group per run (A, B, ... in time
  order; a run is a sequence of records with no gap over ``RUN_GAP_SECONDS``). A cell is the
  median of the run's rounds: moves/s (POST p50 / p95 / p99 ms; load average), and the ratio
  of the medians with the median of each round's own API/bare ratio in brackets, in bold
  when under ``TARGET_RATIO``, as ``bench_load`` itself computes them.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from bench.strength import RESULTS as STRENGTH_RESULTS
from bench.strength import load_records, markdown

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "benchmarks.md"
LOAD_RESULTS = ROOT / "bench" / "results" / "load.jsonl"
#: Records further apart than this belong to different runs of the load bench.
RUN_GAP_SECONDS = 600
#: The load bench's target: the API keeps at least this share of the bare app's rate.
TARGET_RATIO = 0.5


def strength_table(path: Path = STRENGTH_RESULTS) -> list[str]:
    """The strength plan's table (``bench.strength.markdown``) from ``path``."""
    return markdown(load_records(path))


def _runs(records: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The records split into runs: a new run starts after a gap of ``RUN_GAP_SECONDS``, or
    where a round of a setting comes again (a run right after another, e.g. the code before
    a change measured just after it)."""
    runs: list[list[dict[str, Any]]] = []
    previous: datetime | None = None
    seen: set[tuple[Any, ...]] = set()
    for record in records:
        at = datetime.strptime(record["at"], "%Y-%m-%dT%H:%M:%SZ")
        key = (record["server"], record["streams"], record["clients"], record["round"])
        if (previous is None or (at - previous).total_seconds() > RUN_GAP_SECONDS
                or key in seen):
            runs.append([])
            seen = set()
        runs[-1].append(record)
        seen.add(key)
        previous = at
    return runs


def _median(rows: list[dict[str, Any]], key: str) -> float:
    return statistics.median(row[key] for row in rows)


def _rounds(run: list[dict[str, Any]], server: str, streams: int, clients: int
            ) -> list[dict[str, Any]]:
    """One server's rounds at one setting of a run, in round order."""
    return sorted((r for r in run if r["server"] == server and r["streams"] == streams
                   and r["clients"] == clients), key=lambda r: r["round"])


def _cell(rows: list[dict[str, Any]]) -> str:
    """moves/s (POST p50 / p95 / p99 ms; load) of one server at one setting."""
    ms = [f"{_median(rows, q) * 1000:,.0f}" for q in ("p50", "p95", "p99")]
    return (f"{_median(rows, 'moves_per_s'):,.1f} ({' / '.join(ms)}; "
            f"{_median(rows, 'load'):.1f})")


def _ratio(value: float) -> str:
    text = f"{value:.2f}"
    return f"**{text}**" if value < TARGET_RATIO else text


def load_table(path: Path = LOAD_RESULTS) -> list[str]:
    """The API/bare table of every run in ``path`` (medians of its rounds, as bench_load)."""
    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    runs = _runs(records)
    names = [chr(ord("A") + index) for index in range(len(runs))]
    header = ["streams", "clients"]
    for name in names:
        header += [f"run {name}: API", f"run {name}: bare", f"{name}: API/bare (paired)"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    settings = sorted({(r["streams"], r["clients"]) for r in records})
    for streams, clients in settings:
        cells = [f"{streams:,}", str(clients)]
        for run in runs:
            api, bare = (_rounds(run, server, streams, clients) for server in ("api", "bare"))
            if not api or not bare:
                cells += ["", "", ""]
                continue
            of_medians = _median(api, "moves_per_s") / _median(bare, "moves_per_s")
            # Each round's two runs were back to back, on much the same machine.
            paired = statistics.median(a["moves_per_s"] / b["moves_per_s"]
                                       for a, b in zip(api, bare, strict=True))
            cells += [_cell(api), _cell(bare), f"{_ratio(of_medians)} ({_ratio(paired)})"]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


TABLES: dict[str, Callable[[], list[str]]] = {"strength": strength_table, "load": load_table}


def _pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"(<!-- table:{name} -->\n)(.*?)(<!-- /table:{name} -->)", re.S)


def committed(text: str, name: str) -> list[str]:
    """The lines of table ``name`` as written between its markers in ``text``."""
    match = _pattern(name).search(text)
    if match is None:
        raise ValueError(f"no <!-- table:{name} --> ... <!-- /table:{name} --> in the doc")
    return match.group(2).splitlines()


def render(text: str) -> str:
    """``text`` with every generated table replaced by what the records give now."""
    for name, table in TABLES.items():
        committed(text, name)  # raises when the markers are missing
        body = "\n".join(table()) + "\n"
        text = _pattern(name).sub(lambda m, body=body: m.group(1) + body + m.group(3), text)
    return text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="rewrite nothing; exit 1 if a table is out of date")
    args = parser.parse_args()
    text = DOC.read_text(encoding="utf-8")
    new = render(text)
    if args.check:
        if new != text:
            print(f"{DOC.relative_to(ROOT)}: a generated table is out of date "
                  "(run python -m bench.report)", file=sys.stderr)
            return 1
        return 0
    if new != text:
        DOC.write_text(new, encoding="utf-8")
        print(f"rewrote the tables of {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
