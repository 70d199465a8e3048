"""The strength bench's bookkeeping: one record per match, resuming, and the summary."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bench.strength import (
    Bot,
    _ranges,
    budget_of,
    load_game,
    load_records,
    markdown,
    pairing_playouts,
    parse_spec,
    run_pairing,
    summarise,
    wilson,
)
from shared.games import get_game
from shared.kernel.protocol import Cutoff
from shared.search import SearchBudget, SearchConfig, search_move


def test_records_every_match_and_resumes_where_it_stopped(tmp_path: Path) -> None:
    out = tmp_path / "strength.jsonl"
    run_pairing("toy", 2, "sims:8", "random", range(4), 1, out)
    first = load_records(out)
    assert sorted(r["seed"] for r in first) == [0, 1, 2, 3]
    assert all(r["a"] == "sims:8" and r["b"] == "random" and "code" in r for r in first)
    run_pairing("toy", 2, "sims:8", "random", range(6), 1, out)  # plays only seeds 4 and 5
    records = load_records(out)
    assert sorted(r["seed"] for r in records) == list(range(6))
    assert records[:4] == first
    [line] = summarise(records)
    firsts = sum(r["first"] for r in records)
    assert f"matches=6 first={firsts} " in line and "seeds=0-5" in line


def test_earlier_totals_count_with_single_matches_but_never_twice(tmp_path: Path) -> None:
    total = {"game": "g", "players": 2, "a": "medium", "b": "random", "seeds": [0, 9],
             "firsts": 9}
    single = {"game": "g", "players": 2, "a": "medium", "b": "random", "seed": 10,
              "first": True, "a_moves": 4, "a_seconds": 2.0}
    [line] = summarise([total, single])
    lo, hi = wilson(10, 11)
    assert "matches=11 first=10 rate=0.909" in line and f"[{lo:.3f}, {hi:.3f}]" in line
    assert "seeds=0-10" in line and "medium_s/move=0.500" in line
    with pytest.raises(ValueError, match="counted twice"):
        summarise([total, {**single, "seed": 9}])
    out = tmp_path / "r.jsonl"
    out.write_text(json.dumps(total) + "\n")
    assert load_records(out) == [total]


def test_seed_ranges_and_wilson_interval() -> None:
    assert _ranges([0, 1, 2, 5, 7, 8]) == "0-2,5,7-8"
    lo, hi = wilson(200, 200)
    assert hi == 1.0 and 0.98 < lo < 0.982  # docs/benchmarks.md's [0.981, 1.000]
    lo, hi = wilson(168, 200)
    assert (round(lo, 3), round(hi, 3)) == (0.783, 0.884)


def test_markdown_table_judges_each_plan_row_by_its_lower_bound() -> None:
    def total(a: str, b: str, players: int, matches: int, firsts: int) -> dict[str, object]:
        return {"game": "savanna", "rules": get_game("savanna").version, "players": players,
                "a": a, "b": b, "seeds": [0, matches - 1], "firsts": firsts}

    records = [total("medium", "random", 2, 200, 200), total("medium", "greedy", 2, 200, 110),
               total("hard", "medium", 2, 30, 25), total("easy", "random", 2, 10, 10)]
    rows = {line.split(" | ")[0]: line for line in markdown(records)[2:]}
    assert "| Ecosystem: Savanna 2p `medium` vs `random` | 200 | 200 | 1.000 | [0.981, 1.000] " \
        "| 0-199 | ≥ 0.90: lower bound ✓ |" in rows.values()
    # 110 of 200 is 0.55 with a lower bound of 0.481: short of the 0.60 target.
    assert rows["| Ecosystem: Savanna 2p `medium` vs `greedy`"].endswith("lower bound ✗ |")
    assert rows["| Ecosystem: Savanna 2p `hard` vs `medium`"].endswith(
        "lower bound ✓ — 30 of the 200 matches asked for |")
    assert rows["| Ecosystem: Savanna 4p `medium` vs 3 `random`"].endswith("not run |")
    assert not any("easy" in line for line in rows.values())  # not a plan row


def test_only_matches_of_the_current_rules_version_count(tmp_path: Path) -> None:
    """A game whose rules changed is a new game: its earlier matches count for nothing."""
    current = get_game("savanna").version
    assert current != "savanna-1"
    old = {"game": "savanna", "players": 2, "a": "medium", "b": "random", "seeds": [0, 199],
           "firsts": 200}  # no "rules": recorded before the field, under savanna-1
    new = {"game": "savanna", "rules": current, "players": 2, "a": "medium", "b": "random",
           "seed": 0, "first": False, "a_moves": 40, "a_seconds": 4.0}
    rows = {line.split(" | ")[0]: line for line in markdown([old, new])[2:]}
    assert rows["| Ecosystem: Savanna 2p `medium` vs `random`"].startswith(
        "| Ecosystem: Savanna 2p `medium` vs `random` | 1 | 0 | 0.000 |")
    lines = summarise([old, new])  # the report keeps both, one line per rules version
    assert any("(savanna-1, full playouts)" in line and "matches=200" in line
               for line in lines)
    assert any(f"({current}, full playouts)" in line and "matches=1 " in line
               for line in lines)
    # Resuming replays the seeds the old rules recorded; it keeps the current ones.
    out = tmp_path / "strength.jsonl"
    out.write_text(json.dumps({**old, "game": "toy", "seeds": [0, 2], "firsts": 3}) + "\n")
    run_pairing("toy", 2, "sims:8", "random", range(3), 1, out)
    records = load_records(out)
    assert sorted(r["seed"] for r in records[1:]) == [0, 1, 2]
    assert {r["rules"] for r in records[1:]} == {"1"}  # the toy game's version


def test_only_matches_of_the_search_with_the_current_playouts_count(tmp_path: Path) -> None:
    """Registering a cut-off at a player count changes every search bot's moves there: the
    matches its search played with full playouts count for nothing in the table."""
    game = get_game("evolution-ns")
    # registered for two seats at medium's budget (see its cut-off's tests)
    assert pairing_playouts(game, 2, "medium", "random") == "cut"
    base = {"game": game.id, "rules": game.version, "players": 2, "a": "medium",
            "b": "random"}
    full = {**base, "seeds": [0, 199], "firsts": 200}  # no "playouts": before the field
    now = {**base, "playouts": "cut", "seed": 0, "first": False, "a_moves": 9,
           "a_seconds": 1.0}
    prefix = "| Evolution (North Star) 2p `medium` vs `random` |"
    [row] = [line for line in markdown([full, now])[2:] if line.startswith(prefix)]
    assert row.split(" | ")[1:3] == ["1", "0"]
    lines = summarise([full, now])  # the report keeps both, one line per search
    assert any("full playouts" in line and "matches=200" in line for line in lines)
    assert any("cut playouts" in line and "matches=1 " in line for line in lines)
    # A run records the playouts and replays the seeds recorded with the other ones.
    out = tmp_path / "strength.jsonl"
    out.write_text(json.dumps({**full, "game": "toy", "rules": "1", "players": 2,
                               "playouts": "cut", "seeds": [0, 1], "firsts": 2}) + "\n")
    run_pairing("toy", 2, "sims:8", "random", range(2), 1, out)
    assert [r.get("playouts") for r in load_records(out)] == ["cut", "full", "full"]


def test_a_record_keeps_how_each_search_bots_playouts_ended() -> None:
    """The cut-off is registered per budget: a pairing's label says how each search bot's
    default playouts ended, so replaying is asked of exactly the rows whose moves changed."""
    game = get_game("evolution-ns")
    assert pairing_playouts(game, 2, "medium", "greedy") == "cut"  # greedy does not search
    assert pairing_playouts(game, 2, "easy", "sims:300") == "cut"
    assert pairing_playouts(game, 2, "hard", "medium") == "full/cut"  # A's, then B's
    assert pairing_playouts(game, 2, "medium", "hard") == "cut/full"
    assert pairing_playouts(game, 2, "hard", "hard+full") == "full"  # variants aside
    assert pairing_playouts(game, 2, "time:0.25", "time:1") == "cut/full"
    assert pairing_playouts(game, 3, "medium", "random") == "full"  # two seats alone
    assert pairing_playouts(game, 2, "random", "greedy") == "full"  # nothing searches
    assert pairing_playouts(get_game("savanna"), 2, "medium", "random") == "full"
    assert budget_of("time:0.25").timed and not budget_of("hard").timed
    assert budget_of("ismcts:400") == budget_of("sims:400") == SearchBudget(400, 3600.0)
    with pytest.raises(ValueError, match="unknown bot spec"):
        budget_of("tough")


def test_a_pairing_names_search_variants_and_records_them(tmp_path: Path) -> None:
    assert parse_spec("ismcts:400+full") == ("ismcts:400", "", {"full_playouts": True})
    assert parse_spec("hard/r") == ("hard", "r", {})
    # The variants that lost their 200-match test left with their search options.
    for bad in ("ismcts:400+nope", "random+full", "ismcts:400+mo", "ismcts:400+reuse",
                "ismcts:400+moreuse", "ismcts:400+margin", "ismcts:400+seatorder"):
        with pytest.raises(ValueError):
            parse_spec(bad)
    out = tmp_path / "strength.jsonl"
    run_pairing("toy", 2, "ismcts:8+full", "ismcts:8", range(2), 1, out)
    records = load_records(out)
    assert [(r["a"], r["b"]) for r in records] == [("ismcts:8+full", "ismcts:8")] * 2
    with pytest.raises(ValueError, match="unknown search variant"):
        run_pairing("toy", 2, "ismcts:8+typo", "ismcts:8", range(2), 1, out)
    assert load_records(out) == records  # refused before playing anything


def test_a_cut_off_variant_plays_the_games_candidate_at_a_horizon() -> None:
    assert parse_spec("time:0.3+cut") == ("time:0.3", "", {"cutoff": 0})
    assert parse_spec("sims:300+cut:2") == ("sims:300", "", {"cutoff": 2})
    for bad in ("sims:300+cut:0", "sims:300+cut:x", "sims:300+full:2", "greedy+cut",
                "sims:300+cut+full"):
        with pytest.raises(ValueError):
            parse_spec(bad)
    game = load_game("evolution-ns")
    state = game.new_state(2, game.resolve_options({}), random.Random(1))
    seat = state.to_move()[0]
    move = Bot("sims:20+cut:2").choose(game, state.view(seat), seat, random.Random(2))
    assert move in state.legal_moves(seat)
    toy = load_game("toy")
    toy_state = toy.new_state(2, {}, random.Random(1))
    with pytest.raises(ValueError, match="no playout cut-off"):
        Bot("sims:20+cut").choose(toy, toy_state.view(0), 0, random.Random(2))


def test_a_full_variant_plays_to_the_end_where_a_cut_off_is_registered() -> None:
    """``+full`` is the search before a registration: the same move and statistics as an
    explicit never-cutting cut-off, and unlike the registered search's."""
    assert parse_spec("sims:60+full") == ("sims:60", "", {"full_playouts": True})
    game = load_game("evolution-ns")
    assert game.playouts(2, SearchBudget(60, 600.0)) == "cut"
    state = game.new_state(2, game.resolve_options({}), random.Random(4))
    seat = state.to_move()[0]
    view = state.view(seat)

    def visits(cutoff: Cutoff | None = None) -> dict[str, int]:
        stats: dict[str, object] = {}
        search_move(game, view, seat, SearchBudget(60, 600.0), random.Random(5), stats=stats,
                    config=SearchConfig(stop_when_decided=False, cutoff=cutoff))
        return stats["visits"]  # type: ignore[return-value]

    full = visits(Cutoff())
    assert visits() != full  # the registered cut-off changes the search
    bot = Bot("sims:60+full")
    chosen = bot.choose(game, view, seat, random.Random(5))
    assert chosen in state.legal_moves(seat)


def test_shared_firsts_count_half_in_the_score() -> None:
    base = {"game": "g", "players": 2, "a": "ismcts:4+mo", "b": "ismcts:4"}
    records = [{**base, "seed": 0, "first": True, "tie": True},
               {**base, "seed": 1, "first": True, "tie": False},
               {**base, "seed": 2, "first": False, "tie": False},
               {**base, "seed": 3, "first": False, "tie": False}]
    [line] = summarise(records)
    lo, hi = wilson(1.5, 4)
    assert "first=2 rate=0.500" in line and "ties=1 score=1.5 score_rate=0.375" in line
    assert f"score_wilson95=[{lo:.3f}, {hi:.3f}]" in line
