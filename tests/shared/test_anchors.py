"""Built-in bots as anchors (issue 39): their ratings are fixed (each game's anchors.json),
matches move only the other seats, rated against the anchors' fixed values; every rated
match appends each player's new rating to its history, exactly once."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from pathlib import Path

import pytest

from bench.strength import pairing_playouts
from shared.accounts.service import AccountService
from shared.bots import turns
from shared.games import all_games, get_game
from shared.infra.redis_client import RedisClient
from shared.matches.record import MatchRecord
from shared.matches.service import MatchService
from shared.matches.store import MatchStore
from shared.ratings import anchors as anchor_file
from shared.ratings import calibrate
from shared.ratings import model as ratings
from shared.ratings.anchors import Anchors
from shared.ratings.store import RatingStore
from shared.services import match_service
from shared.tournaments.service import TournamentService
from shared.tournaments.store import TournamentStore
from tests.shared.test_service import Recorder

ROOT = Path(__file__).resolve().parents[2]
FIXED = Anchors({"savanna": {"bot:random": {"mu": 30.0, "sigma": 1.0}}})


def test_an_anchor_keeps_its_fixed_rating_and_the_other_seat_is_rated_against_it(
        store_client: RedisClient) -> None:
    store = RatingStore(store_client, FIXED)
    players = [("account:a", "Ada"), ("bot:random", "random")]
    for n, places in enumerate(([1, 2], [2, 1], [1, 2]), 1):
        store.rate_once("savanna", f"m{n}", players,
                        lambda current, p=places: ratings.rate(current, p))  # type: ignore[misc]
    found = store.ratings("savanna", ["account:a", "bot:random"])
    assert found["bot:random"] | {"name": "random"} == {
        "name": "random", "mu": 30.0, "sigma": 1.0, "matches": 3, "anchor": True}
    # The account, replayed with OpenSkill against a player held at (30, 1) every time.
    model = ratings.MODEL
    mine, anchor = model.rating(), model.rating(mu=30.0, sigma=1.0)
    for places in ([1, 2], [2, 1], [1, 2]):
        [[mine], _] = model.rate([[mine], [anchor]], ranks=places)
    assert found["account:a"]["mu"] == pytest.approx(mine.mu)
    assert found["account:a"]["sigma"] == pytest.approx(mine.sigma)
    # The same matches without anchors move the bot: the anchor is what held it.
    free = RatingStore(store_client, anchor_file.NONE)
    free.rate_once("evolution", "m1", players, lambda current: ratings.rate(current, [1, 2]))
    assert free.ratings("evolution", ["bot:random"])["bot:random"]["mu"] != 25.0


def test_the_leaderboard_marks_anchors_and_shows_the_file_s_current_value(
        store_client: RedisClient) -> None:
    store = RatingStore(store_client, FIXED)
    store.rate_once("savanna", "m1", [("account:a", "Ada"), ("bot:random", "random")],
                    lambda current: ratings.rate(current, [2, 1]))
    rows = dict(store.leaderboard("savanna", 10))
    assert rows["bot:random"]["anchor"] is True and rows["account:a"]["anchor"] is False
    # Recalibrated (a new file), before the anchor's next match: the board shows the file.
    moved = Anchors({"savanna": {"bot:random": {"mu": -20.0, "sigma": 1.0}}})
    board = RatingStore(store_client, moved).leaderboard("savanna", 10)
    assert [key for key, _ in board] == ["account:a", "bot:random"]
    assert board[1][1]["mu"] == -20.0
    # Placed by the file's value even where the board's stale score would cut it off.
    assert [key for key, _ in RatingStore(store_client, moved).leaderboard("savanna", 1)] \
        == ["account:a"]
    RatingStore(store_client, moved).rate_once(  # the board now scores the anchor -23
        "savanna", "m2", [("account:b", "Bo"), ("bot:random", "random")],
        lambda current: ratings.rate(current, [1, 2]))
    up = Anchors({"savanna": {"bot:random": {"mu": 90.0, "sigma": 1.0}}})
    assert [key for key, _ in RatingStore(store_client, up).leaderboard("savanna", 1)] \
        == ["bot:random"]


def _play_out(matches: MatchService, match_id: str, account_seat: int) -> MatchRecord:
    """Random moves for the account's seat; the bot's turns played from the queue."""
    rng, queue = random.Random(3), matches.enqueue
    assert isinstance(queue, Recorder)
    for _ in range(2000):
        while queue.calls:
            turns.play_bot_turn(matches, *queue.calls.pop(0), lease_seconds=5)
        record = matches.load(match_id)
        if record.status != "running":
            return record
        assert account_seat in record.to_move, "the bot's turn was not queued"
        move = rng.choice(matches.legal_moves(record, account_seat))["id"]
        matches.submit_move(match_id, account_seat, record.version, move)
    raise AssertionError("the match did not end")


def test_a_rated_match_moves_the_account_not_the_built_in_bot_and_is_in_the_history_once(
        store_client: RedisClient) -> None:
    """Through the services with the repository's anchors.json: an account against
    ``greedy`` (an anchor of every game), rated by the finish handling, twice over."""
    matches = match_service(MatchStore(store_client), Recorder())
    tournaments = TournamentService(matches, TournamentStore(store_client),
                                    RatingStore(store_client))
    fixed = anchor_file.read().fixed("savanna", ["bot:greedy"])["bot:greedy"]
    account = AccountService(matches.accounts, matches).create("Ada", None)[0]
    seats = [{"kind": "account", "account": account["id"]},
             {"kind": "bot", "bot": {"kind": "greedy"}}]
    me, played = f"account:{account['id']}", []
    for seed in (11, 12):
        record, _ = matches.create_match("savanna", {}, seed, seats, rated=True,
                                         accepted=[account["id"]])
        ended = _play_out(matches, record.id, 0)
        tournaments.match_finished(record.id)
        tournaments.match_finished(record.id)  # the fast path and the sweep both ran
        played.append(ended)
    found = tournaments.ratings.ratings("savanna", [me, "bot:greedy"])
    assert {k: found["bot:greedy"][k] for k in ("mu", "sigma", "matches", "anchor")} == {
        **fixed, "matches": 2, "anchor": True}
    expected = None
    for ended in played:
        places = ratings.placings(ended.result["ranking"], ended.forfeited)
        expected = ratings.rate([expected, fixed], places)[0]
        expected = {"mu": expected[0], "sigma": expected[1]}
    assert expected is not None
    assert (found[me]["mu"], found[me]["sigma"]) == pytest.approx(
        (expected["mu"], expected["sigma"]))
    board = {row["player"]: row for row in tournaments.leaderboard("savanna", 10)}
    assert board["bot:greedy"]["anchor"] is True and board[me]["anchor"] is False

    history = tournaments.rating_history("savanna", me, 100)
    assert [entry["match"] for entry in history["history"]] == [m.id for m in played]
    last = history["history"][-1]
    assert (last["mu"], last["sigma"]) == pytest.approx((found[me]["mu"], found[me]["sigma"]))
    assert last["conservative"] == pytest.approx(found[me]["mu"] - 3 * found[me]["sigma"])
    assert history["anchor"] is False and history["rating"]["matches"] == 2
    bot = tournaments.rating_history("savanna", "bot:greedy", 100)
    assert bot["anchor"] is True and len(bot["history"]) == 2
    assert {(e["mu"], e["sigma"]) for e in bot["history"]} == {(fixed["mu"], fixed["sigma"])}
    assert len(tournaments.rating_history("savanna", me, 1)["history"]) == 1


def test_the_history_keeps_the_last_500_and_an_unrated_player_is_a_404(
        store_client: RedisClient) -> None:
    store = RatingStore(store_client, anchor_file.NONE)
    players = [("account:a", "Ada"), ("account:b", "Bo")]
    for n in range(ratings.HISTORY_LENGTH + 3):
        store.rate_once("savanna", f"m{n}", players,
                        lambda current: ratings.rate(current, [1, 2]))
    kept = store.history("savanna", "account:a")
    assert len(kept) == ratings.HISTORY_LENGTH
    assert kept[0]["match"] == "m3" and kept[-1]["match"] == f"m{ratings.HISTORY_LENGTH + 2}"
    assert store.history("savanna", "account:nobody") == []


# -- the recalibration job -------------------------------------------------------------------

def test_the_fit_recovers_the_gap_a_pairing_implies() -> None:
    """Two players, 150 firsts of 200: the gap is c * logit((150.5) / 201)."""
    fitted = calibrate.fit([calibrate.Result("bot:greedy", "bot:random", 2, 200, 150)])
    c = (2 * (calibrate.SIGMA ** 2 + ratings.MODEL.beta ** 2)) ** 0.5
    p = 150.5 / 201
    assert fitted["bot:random"]["mu"] == 25.0
    assert fitted["bot:greedy"]["mu"] == pytest.approx(25.0 + c * math.log(p / (1 - p)),
                                                       abs=1e-3)
    with pytest.raises(ValueError, match="links"):
        calibrate.fit([calibrate.Result("bot:greedy", "bot:random", 2, 10, 5),
                       calibrate.Result("bot:ismcts:hard", "bot:ismcts:easy", 2, 10, 5)])


def _record(a: str, b: str, seed: int, first: bool, players: int = 2,
            rules: str | None = None) -> dict[str, object]:
    game = get_game("savanna")
    return {"game": "savanna", "rules": rules or game.version,
            "playouts": pairing_playouts(game, players, a, b), "players": players,
            "a": a, "b": b, "seed": seed, "first": first, "tie": False}


def test_the_job_rewrites_the_file_from_the_strength_records_it_counts(tmp_path: Path) -> None:
    records = ([_record("medium", "random", s, s < 180) for s in range(200)]
               + [_record("medium", "greedy", s, s < 120) for s in range(200)]
               + [_record("hard", "random", s, False, rules="savanna-0") for s in range(50)]
               + [_record("sims:300+cut", "random", s, True) for s in range(50)])
    results, out = tmp_path / "strength.jsonl", tmp_path / "anchors.json"
    results.write_text("".join(json.dumps(r) + "\n" for r in records))
    subprocess.run([sys.executable, "-m", "scripts.recalibrate_anchors", "--game", "savanna",
                    "--results", str(results), "--out", str(out)], cwd=ROOT, check=True,
                   capture_output=True, timeout=120)
    written = json.loads(out.read_text())
    entry = written
    assert set(entry["anchors"]) == {"bot:random", "bot:greedy", "bot:ismcts:medium"}
    assert entry["anchors"]["bot:random"]["mu"] == 25.0
    mus = {k: v["mu"] for k, v in entry["anchors"].items()}
    assert mus["bot:random"] < mus["bot:greedy"] < mus["bot:ismcts:medium"]
    assert entry["rules"] == get_game("savanna").version and "strength.jsonl" in written["note"]
    assert anchor_file.read_file(out)["bot:greedy"]["sigma"] == 1.0
    assert written["game"] == "savanna"


def test_every_game_has_its_anchors_in_its_own_folder() -> None:
    found = anchor_file.read()
    for game in all_games():
        data = json.loads(anchor_file.path_of(game.id).read_text())
        assert data["game"] == game.id and data["rules"] == game.version
        assert "recalibrate_anchors" in data["note"]
        assert {"bot:random", "bot:greedy", "bot:ismcts:medium"} <= set(data["anchors"])
        assert data["anchors"]["bot:random"]["mu"] == ratings.MODEL.mu
        assert found.fixed(game.id, ["bot:greedy"])["bot:greedy"]["mu"] == \
            data["anchors"]["bot:greedy"]["mu"]
