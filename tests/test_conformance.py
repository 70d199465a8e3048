"""Conformance of every registered game to the protocol, by seeded random play.

Each check here holds for any game: codec round-trips, views are JSON and stable under
``sample_from_view`` (and ``sampler`` draws the same states), a sampled state offers the seat
the same legal moves, the bulk ``observed_moves`` agrees with ``observe_move``, ``apply_legal``
and ``advance`` do what ``apply`` does, illegal moves leave the state untouched, clones are
independent, and matches end with a sane result.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from shared.games import all_games
from shared.kernel.protocol import Game, IllegalMove, NotYourTurn

GAMES = all_games()
MAX_STEPS = 5000


def _cases() -> list[Any]:
    """Every game at every player count, three seeds. ``make test-fast`` plays seed 0 at the
    fewest and the most players; the rest are ``slow`` (``make test`` plays them)."""
    cases = []
    for game in GAMES:
        for players in range(game.min_players, game.max_players + 1):
            for seed in range(3):
                quick = seed == 0 and players in (game.min_players, game.max_players)
                cases.append(pytest.param((game, players, seed),
                                          id=f"{game.id}-{players}p-seed{seed}",
                                          marks=[] if quick else [pytest.mark.slow]))
    return cases


def test_catalogue_is_not_empty() -> None:
    assert {game.id for game in GAMES} >= {"savanna"}


@pytest.mark.parametrize("case", _cases())
def test_random_play_conforms(case: tuple[Game, int, int]) -> None:
    game, players, seed = case
    rng = random.Random(seed)
    state = game.new_state(players, game.resolve_options({}), rng)
    for step in range(MAX_STEPS):
        if state.is_over():
            break
        seats = state.to_move()
        assert seats, "a running match must owe a decision"
        assert seats == sorted(set(seats)) and all(0 <= s < players for s in seats)
        snapshot = state.to_json()
        # Codec round-trip, through real JSON text.
        assert game.state_from_json(json.loads(json.dumps(snapshot))).to_json() == snapshot
        for seat in [*range(players), None]:
            view = state.view(seat)
            assert json.loads(json.dumps(view)) == view
        seat = rng.choice(seats)
        view = state.view(seat)
        sampled = game.sample_from_view(view, seat, random.Random(step))
        assert sampled.view(seat) == view, "sample_from_view must agree with the view"
        draw = game.sampler(view, seat)  # an engine's faster sampler draws the same states
        assert draw(random.Random(step)).to_json() == sampled.to_json()
        legal = state.legal_moves(seat)
        assert legal
        ids = [state.move_id(m) for m in legal]
        assert len(set(ids)) == len(ids), "move ids must be unique"
        assert sorted(ids) == sorted(sampled.move_id(m) for m in sampled.legal_moves(seat))
        assert state.clone().random_move(seat, random.Random(step)) in legal
        for observer in range(players):  # an engine's fast observed_moves must agree
            assert state.observed_moves(seat, observer) == [
                (state.observe_move(seat, m, observer), m) for m in legal]
        for move in legal[:3]:
            assert isinstance(state.move_label(move), str) and state.move_label(move)
            assert state.find_move(seat, state.move_id(move)) == move
        # A seat that owes nothing is refused without change.
        idle = [s for s in range(players) if s not in seats]
        if idle:
            with pytest.raises(NotYourTurn):
                state.find_move(idle[0], legal[0])
        with pytest.raises(IllegalMove):
            state.apply(seat, {"type": "no-such-move"}, random.Random(0))
        assert state.to_json() == snapshot, "an illegal move must not change the state"
        twin = state.clone()
        move = rng.choice(legal)
        # apply_legal (the search's unchecked path) does exactly what apply does.
        checked, unchecked = state.clone(), state.clone()
        events = checked.apply(seat, move, random.Random(step))
        assert unchecked.apply_legal(seat, move, random.Random(step)) == events
        assert unchecked.to_json() == checked.to_json()
        quiet = state.clone()  # advance (the search's step, no events) leaves the same state
        quiet.advance(seat, move, random.Random(step))
        assert quiet.to_json() == checked.to_json()
        assert quiet.legal_moves(seat) == checked.legal_moves(seat)
        events = state.apply(seat, move, rng)
        assert isinstance(events, list) and all("type" in e for e in events)
        json.dumps(events)
        assert twin.to_json() == snapshot, "a clone must not share mutable parts"
    else:
        pytest.fail(f"match did not end within {MAX_STEPS} steps")
    assert state.to_move() == []
    result = state.result()
    assert len(result.scores) == len(result.ranking) == players
    assert_sane_result(result.scores, result.ranking, result.winners)
    json.dumps(result.to_json())


def assert_sane_result(scores: list[float], ranking: list[int], winners: list[int]) -> None:
    """The ranking is the scores' order: every game ranks by points first and breaks ties
    with other keys, so more points is never a worse place, and fewer never a better one.
    Places are competition places (tied seats share one, the next is skipped) and the
    winners are exactly the seats placed first."""
    seats = range(len(scores))
    for seat in seats:
        assert ranking[seat] == 1 + sum(ranking[o] < ranking[seat] for o in seats), ranking
        for other in seats:
            if scores[seat] > scores[other]:
                assert ranking[seat] < ranking[other], (scores, ranking)
    assert winners == [seat for seat in seats if ranking[seat] == 1], (ranking, winners)


@pytest.mark.parametrize(("scores", "ranking", "winners"), [
    ([3, 5], [1, 2], [0]),  # more points placed behind fewer
    ([5, 5, 2], [1, 1, 2], [0, 1]),  # the place after a tie for first is 3, not 2
    ([5, 3], [2, 2], [0]),  # a place 2 with nobody ahead
    ([5, 3], [1, 2], [0, 1]),  # a winner not placed first
    ([5, 3], [1, 2], []),  # a seat placed first left out of the winners
])
def test_an_insane_result_is_caught(scores: list[float], ranking: list[int],
                                    winners: list[int]) -> None:
    """The check above can fail: each of these results breaks one of its rules."""
    with pytest.raises(AssertionError):
        assert_sane_result(scores, ranking, winners)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_same_seed_same_match(game: Game) -> None:
    def play(seed: int) -> dict:
        rng = random.Random(seed)
        state = game.new_state(game.min_players + 1, game.resolve_options({}), rng)
        while not state.is_over():
            seat = state.to_move()[0]
            state.apply(seat, state.random_move(seat, rng), rng)
        return state.to_json()

    assert play(7) == play(7)
