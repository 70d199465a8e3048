"""``bench.report``'s reading of ``load.jsonl``: which records make one run of the load bench."""

from __future__ import annotations

from typing import Any

from bench.report import _runs


def _record(at: str, server: str, clients: int, round_: int) -> dict[str, Any]:
    return {"at": f"2026-12-05T{at}Z", "server": server, "clients": clients, "streams": 0,
            "round": round_}


def _one_run(start_minute: int) -> list[dict[str, Any]]:
    """Three rounds of both servers at 2 and 10 clients, 8 s apart."""
    records, second = [], start_minute * 60
    for clients in (2, 10):
        for round_ in range(3):
            for server in ("api", "bare"):
                records.append(_record(f"07:{second // 60:02d}:{second % 60:02d}", server,
                                       clients, round_))
                second += 8
    return records


def test_a_run_is_its_rounds_together() -> None:
    assert [len(run) for run in _runs(_one_run(0))] == [12]


def test_a_run_right_after_another_is_its_own() -> None:
    """The code before a change measured a minute after the change's run: two runs, though
    no gap of RUN_GAP_SECONDS lies between them (their rounds come again)."""
    first, second = _one_run(0), _one_run(3)
    assert _runs(first + second) == [first, second]


def test_a_gap_starts_a_run() -> None:
    first, later = _one_run(0)[:4], _one_run(30)[4:]
    assert _runs(first + later) == [first, later]
