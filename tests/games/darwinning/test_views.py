"""Components, setup, options and what each seat sees (docs/rules/darwinning.md D-1, D-2,
D-12, D-13)."""

from __future__ import annotations

import json
import random

import pytest

from shared.games import get_game
from shared.games.darwinning.cards import (
    CARD_COUNT,
    ENVIRONMENTS,
    JOKERS,
    PRINTED_SLOTS,
    SLOTS,
    SPECIES,
    SPECIES_ENVS,
    ZERO_SLOT,
)
from shared.games.darwinning.state import DarwinningState

from .helpers import bare, card, play_out

GAME = get_game("darwinning")


@pytest.mark.rule("D-1.1", "D-1.3")
def test_d1_1_d1_3_boards_and_environments() -> None:
    assert len(SPECIES) == 13 and len(ENVIRONMENTS) == 10
    assert SLOTS == 5 and ZERO_SLOT == 4 and PRINTED_SLOTS == (0, 1)
    assert all(1 <= food <= 3 for envs in SPECIES_ENVS for food in envs.values())
    assert len({s["food_chain"] for s in SPECIES}) == 13
    assert all(len(s["abilities"]) == 2 for s in SPECIES)


@pytest.mark.rule("D-2.1", "D-2.2", "D-13.8")
def test_d2_1_d2_2_setup_players_and_options() -> None:
    for players in range(2, 7):
        st = GAME.new_state(players, {}, random.Random(players))
        assert isinstance(st, DarwinningState)
        assert len({b.species for b in st.boards}) == players
        for b in st.boards:
            assert b.position == SPECIES[b.species]["food_chain"]
            assert b.population == SPECIES[b.species]["population"]
    for bad in (1, 7):
        with pytest.raises(ValueError):
            GAME.new_state(bad, {}, random.Random(0))
    assert GAME.resolve_options({}) == {"edition": "2.2", "eras": 3}
    assert GAME.resolve_options({"edition": "1.7"})["eras"] == 3  # three in both editions
    with pytest.raises(ValueError):
        GAME.resolve_options({"eras": 5})
    with pytest.raises(ValueError):
        GAME.resolve_options({"edition": "2.0"})
    st = GAME.new_state(3, {"eras": 4}, random.Random(1))
    assert isinstance(st, DarwinningState)
    sizes = []
    rng = random.Random(1)
    while not st.is_over():
        if not sizes or sizes[-1][0] != st.era:
            sizes.append((st.era, len(st.envs)))
        seat = st.to_move()[0]
        st.apply(seat, st.random_move(seat, rng), rng)
    assert [n for _, n in sizes] == [5, 5, 4, 3]


@pytest.mark.rule("D-12")
def test_d12_views_show_the_table_and_only_the_seats_own_secrets() -> None:
    st = GAME.new_state(3, {"edition": "1.7"}, random.Random(5))
    assert isinstance(st, DarwinningState)
    rng = random.Random(5)
    st.apply(0, {"type": "discard", "cards": sorted(st.hands[0])[:2]}, rng)
    for seat in range(3):
        view = st.view(seat)
        assert view["hand"] == sorted(st.hands[seat]) and view["hidden"] == st.hidden[seat]
        others = {c for s in range(3) if s != seat for c in st.hands[s] + st.hidden[s]}
        listed = set(view["discard"]) | set(view["hand"]) | set(view["hidden"])
        assert not others & listed
        assert "deck" not in view and "hands" not in view
        assert "hand_sizes" not in view  # D-4.4: hand sizes are private
        assert view["envs"] == st.envs and view["boards"] == [b.to_json() for b in st.boards]
    spectator = st.view(None)
    assert "hand" not in spectator and "hidden" not in spectator
    assert st.view(1)["secret_counts"] == [2, 0, 0]
    # A sample of seat 1's view agrees with it and holds every card exactly once.
    sampled = GAME.sample_from_view(st.view(1), 1, random.Random(3))
    assert sampled.view(1) == st.view(1)
    json.dumps(st.view(1))
    play_out(st, rng)
    assert "result" in st.view(0)


@pytest.mark.rule("D-13.7")
def test_d13_7_stolen_card_scores_nothing_in_both_editions() -> None:
    for edition in ("2.2", "1.7"):
        st = bare(2, ["snake", "ape"], edition=edition)
        st.boards[0].slots[2] = card("acorn-8a")
        st.boards[0].stolen = card("acorn-12a")
        assert st.boards[0].score()["abilities"] == 1


def test_jokers_and_card_count() -> None:
    assert CARD_COUNT == 92 and len(JOKERS) == 2
