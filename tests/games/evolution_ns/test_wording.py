"""Move labels read well to a person, and an illegal move says why (no rule ids here)."""

from __future__ import annotations

import random

import pytest

from shared.games import get_game
from shared.kernel.protocol import IllegalMove, NotYourTurn

from .helpers import Builder

GAME = get_game("evolution-ns")


def test_every_move_kind_has_a_plain_label() -> None:
    seen: dict[str, str] = {}
    for seed in range(40):
        rng = random.Random(seed)
        st = GAME.new_state(2 + seed % 5, {"quick": seed % 2 == 1}, rng)
        while not st.is_over():
            seat = st.to_move()[0]
            for move in st.legal_moves(seat):
                label = st.move_label(move)
                assert label and "{" not in label and "_" not in label, label
                seen.setdefault(move["type"], label)
            st.apply(seat, st.random_move(seat, rng), rng)
    assert set(seen) >= {"food", "trait", "new_species", "grow", "done", "eat", "attack",
                         "effect", "pass", "intelligence"}, seen


def test_illegal_moves_say_why_and_change_nothing() -> None:
    b = Builder(3)
    b.species(0, "carnivore", body=2, pop=1)
    b.species(1, "climbing", body=1, pop=1)
    b.species(2, body=1, pop=2)
    st = b.done(hole=2, turn=2)
    before = st.to_json()
    cases = [
        ({"type": "attack", "species": 0, "target_seat": 1, "target": 0}, 0, NotYourTurn),
        ({"type": "grow", "card": 5, "seat": 2, "species": 0, "what": "pop"}, 2, IllegalMove),
        ({"type": "fly"}, 2, IllegalMove),
        ({"type": "pass"}, 2, IllegalMove),
    ]
    for move, seat, error in cases:
        with pytest.raises(error) as raised:
            st.apply(seat, move, random.Random(0))
        assert str(raised.value)
    assert st.to_json() == before
    with pytest.raises(IllegalMove, match="must feed"):
        st.apply(2, {"type": "pass"}, random.Random(0))
    with pytest.raises(IllegalMove, match="not a move of the feed phase"):
        st.apply(2, {"type": "done"}, random.Random(0))
