"""The protocol's shared helpers: ranking with ties, move ids, options, move resolution."""

from __future__ import annotations

import random

import pytest

from shared.games import get_game
from shared.kernel.protocol import IllegalMove, NotYourTurn, Option, Result, canonical_id


def test_ranking_shares_places_and_skips_the_next() -> None:
    result = Result.from_keys([10, 30, 30, 5], [10, 30, 30, 5])
    assert result.ranking == [3, 1, 1, 4]
    assert result.winners == [1, 2]


def test_ranking_uses_tie_break_keys() -> None:
    result = Result.from_keys([(7, 2), (7, 5), (3, 9)], [7, 7, 3])
    assert result.ranking == [2, 1, 3] and result.winners == [1]


def test_canonical_id_is_order_independent() -> None:
    a = canonical_id({"type": "play", "b": 2, "a": [1, 3]})
    b = canonical_id({"a": [1, 3], "b": 2, "type": "play"})
    assert a == b == "play:a=1,3:b=2"


def test_resolve_options_validates_and_fills_defaults() -> None:
    game = get_game("savanna")
    assert game.resolve_options(None) == {}
    with pytest.raises(ValueError, match="unknown option"):
        game.resolve_options({"eras": 3})


def test_option_bounds_and_types() -> None:
    class WithOptions(type(get_game("savanna"))):
        options = (Option("eras", "int", 4, "eras to play", minimum=1, maximum=6),)

    game = WithOptions()
    assert game.resolve_options({}) == {"eras": 4}
    for bad, fragment in ((0, "at least"), (7, "at most"), ("4", "type int"), (True, "type")):
        with pytest.raises(ValueError, match=fragment):
            game.resolve_options({"eras": bad})


def test_find_move_by_object_or_id() -> None:
    state = get_game("savanna").new_state(2, {}, random.Random(1))
    move = state.legal_moves(0)[0]
    assert state.find_move(0, state.move_id(move)) == move
    assert state.find_move(0, dict(move)) == move
    with pytest.raises(IllegalMove, match="no legal move has id"):
        state.find_move(0, "pick:nothing")
    state.apply(0, move, random.Random(2))
    with pytest.raises(NotYourTurn):
        state.find_move(0, move)
