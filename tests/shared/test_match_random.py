"""A match's random source is stored as its draw count (issue 18): a few bytes instead of the
Mersenne Twister's 7 KiB, with exactly the draws of ``random.Random(seed)``, so every seeded
deal and replay is unchanged."""

from __future__ import annotations

import json
import random

import pytest

from shared.games import all_games
from shared.kernel.rng import randbelow, shuffle
from shared.matches.randomness import MatchRandom, dump, restore


def draw_everything(rng: random.Random, step: int) -> list[object]:
    """One of each kind of draw an engine makes, varied by ``step``."""
    items = list(range(step % 40))
    shuffle(rng, items)
    mixed = list(range(step % 7 + 1))
    rng.shuffle(mixed)
    return [rng.random(), rng.getrandbits(step % 70), rng.getrandbits(0), randbelow(
        rng, step + 1), rng.randrange(3 * step + 1), rng.choice("abcdefg"), rng.randint(1, 6),
        rng.uniform(0, 9), rng.sample(range(50), step % 5), rng.choices("xyz", k=2), items,
        mixed]


def test_the_counted_source_draws_what_random_random_draws() -> None:
    for seed in (0, 1, 7, 2**62 + 12345):
        counted, plain = MatchRandom(seed), random.Random(seed)
        for step in range(300):
            assert draw_everything(counted, step) == draw_everything(plain, step)
            assert counted.getstate() == plain.getstate()


def test_restoring_from_the_count_continues_the_same_stream() -> None:
    live = MatchRandom(2**40 + 3)
    for step in range(200):
        draw_everything(live, step)
        stored = dump(live)
        assert len(stored) < 32, stored  # not the 7 KiB of random.getstate()
        again = restore(stored, 2**40 + 3)
        assert again.getstate() == live.getstate()
        assert isinstance(again, MatchRandom) and again.drawn == live.drawn


def test_a_long_skip_is_exact() -> None:
    plain = random.Random(11)
    for _ in range(200_001):
        plain.getrandbits(32)
    assert MatchRandom(11, 200_001).getstate() == plain.getstate()


def test_a_match_stored_with_the_full_state_still_restores() -> None:
    old = random.Random(5)
    old.random()
    legacy = restore(json.dumps(old.getstate()), 5)
    assert legacy.getstate() == old.getstate()
    assert json.loads(dump(legacy))[1] == list(old.getstate()[1])  # and is kept as it was
    with pytest.raises(ValueError):
        restore(dump(MatchRandom(1)), None)


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
def test_every_game_deals_and_plays_as_before_and_restores_after_every_move(game) -> None:
    """Seeded matches of every game: the counted source deals and plays exactly what
    ``random.Random(seed)`` does, and each move's stored count restores the live stream."""
    for seed in range(12):
        players = game.min_players + seed % (game.max_players - game.min_players + 1)
        counted, plain = MatchRandom(seed), random.Random(seed)
        ours = game.new_state(players, game.resolve_options({}), counted)
        theirs = game.new_state(players, game.resolve_options({}), plain)
        chooser = random.Random(seed)
        while not ours.is_over():
            assert ours.to_json() == theirs.to_json()
            seat = ours.to_move()[0]
            move = chooser.choice(ours.legal_moves(seat))
            ours.apply(seat, move, counted)
            theirs.apply(seat, move, plain)
            restored = restore(dump(counted), seed)
            assert restored.getstate() == plain.getstate()
            counted = restored  # go on from the stored form, as the service does
        assert theirs.is_over() and ours.result().to_json() == theirs.result().to_json()
