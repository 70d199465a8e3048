"""Upgrades and the food chain (docs/rules/darwinning.md D-6, D-8)."""

from __future__ import annotations

import random

import pytest

from shared.games.darwinning.cards import (
    CHAIN,
    EGGS,
    ENV_ICON,
    ENVIRONMENTS,
    JOKERS,
    PRINTED_SLOTS,
    VALUE,
)
from shared.games.darwinning.model import move_on_chain

from .helpers import bare, card, upgrade_position

RNG = random.Random(0)


def uses(st, seat: int, name: str) -> set[str]:
    return {m["use"] for m in st.legal_moves(seat) if m.get("card") == card(name)}


@pytest.mark.rule("D-6.1", "D-13.2")
def test_d6_1_food_chain_card_moves_up_v1_7_also_down() -> None:
    st = upgrade_position(bare(3, ["wolf", "ape", "shark"]), 0, [card("acorn-7a")])
    assert CHAIN[card("acorn-7a")] == 2
    assert "chain" in uses(st, 0, "acorn-7a") and "chain_down" not in uses(st, 0, "acorn-7a")
    st.apply(0, {"type": "upgrade", "card": card("acorn-7a"), "use": "chain"}, RNG)
    assert st.boards[0].position == 12  # 10 -> 11 -> 12 (13 is the shark)
    old = upgrade_position(bare(3, ["wolf", "ape", "shark"], edition="1.7"), 0,
                           [card("acorn-7a")])
    assert {"chain", "chain_down"} <= uses(old, 0, "acorn-7a")
    old.apply(0, {"type": "upgrade", "card": card("acorn-7a"), "use": "chain_down"}, RNG)
    assert old.boards[0].position == 7  # 10 -> jumps the ape on 9 -> 8 -> 7


@pytest.mark.rule("D-6.2", "D-1.4")
def test_d6_2_eggs_add_population_without_limit() -> None:
    st = bare(3, ["amoeba", "snake", "shark"])
    st.boards[0].population = 60  # beyond the 42 tokens of the box: no limit (D-1.4)
    upgrade_position(st, 0, [card("blueberry-3a")])
    assert EGGS[card("blueberry-3a")] == 2
    st.apply(0, {"type": "upgrade", "card": card("blueberry-3a"), "use": "eggs"}, RNG)
    assert st.boards[0].population == 62 and st.boards[0].eggs == [card("blueberry-3a")]


@pytest.mark.rule("D-6.3")
def test_d6_3_no_environment_twice() -> None:
    st = bare(3, ["amoeba", "snake", "shark"])
    ocean = [c for c in range(90) if ENV_ICON[c] == ENVIRONMENTS.index("ocean")]
    plains = [c for c in range(90) if ENV_ICON[c] == ENVIRONMENTS.index("plains")]
    upgrade_position(st, 0, [ocean[0], plains[0]])  # the amoeba lives in the ocean
    assert "environment" not in {m["use"] for m in st.legal_moves(0)
                                 if m.get("card") == ocean[0]}
    st.apply(0, {"type": "upgrade", "card": plains[0], "use": "environment"}, RNG)
    assert ENVIRONMENTS.index("plains") in st.boards[0].environments()
    upgrade_position(st, 0, [plains[1]])
    assert "environment" not in {m.get("use") for m in st.legal_moves(0)}


@pytest.mark.rule("D-6.4")
def test_d6_4_ability_in_a_place_replacing_printed_or_card_no_copies() -> None:
    st = bare(3, ["snake", "amoeba", "shark"])  # snake: Poison (9), Teeth (6) printed
    upgrade_position(st, 0, [card("acorn-6a"), card("flower-13a")])
    slots = {m["slot"] for m in st.legal_moves(0) if m.get("card") == card("acorn-6a")
             and m["use"] == "ability"}
    assert slots == {1}  # Teeth only replacing Teeth: never two copies
    st.apply(0, {"type": "upgrade", "card": card("flower-13a"), "use": "ability", "slot": 0},
             RNG)
    assert st.boards[0].slots[0] == card("flower-13a")  # the printed Poison is gone
    upgrade_position(st, 0, [card("acorn-2a")])
    st.apply(0, {"type": "upgrade", "card": card("acorn-2a"), "use": "ability", "slot": 0},
             RNG)
    assert card("flower-13a") in st.discard  # a replaced card is discarded


@pytest.mark.rule("D-6.5", "D-1.2")
def test_d6_5_upgrade_optional_one_card_with_its_icon_jokers_never() -> None:
    st = bare(3, ["amoeba", "snake", "shark"])
    joker = min(JOKERS)
    upgrade_position(st, 0, [joker, card("flower-5a")])
    moves = st.legal_moves(0)
    assert {"type": "no_upgrade"} in moves
    assert not [m for m in moves if m.get("card") == joker]  # no icon, never an ability
    flower = {m["use"] for m in moves if m.get("card") == card("flower-5a")}
    assert flower == {"environment", "ability"}  # no chain or egg icon on it
    st.apply(0, {"type": "no_upgrade"}, RNG)
    assert st.boards[0].cards() == []


@pytest.mark.rule("D-8.1", "D-8.2", "D-13.9")
def test_d8_2_the_rulebook_food_chain_example() -> None:
    # Species on 1, 4 and 9; the one on 1 gets 2 points (+1 small-animal bonus): 2, 3, then
    # it jumps the species on 4 to 5 (the v1.7 positions; v2.2 prints 1, 5, 9 by mistake).
    st = bare(3, ["amoeba", "fish", "ape"])
    assert [b.position for b in st.boards] == [1, 4, 9]
    two = card("acorn-7a")
    upgrade_position(st, 0, [two])
    events = st.apply(0, {"type": "upgrade", "card": two, "use": "chain"}, RNG)
    assert st.boards[0].position == 5
    assert any(e["type"] == "upgraded" and e["from"] == 1 and e["to"] == 5 for e in events)
    # No bonus from 6 up; several occupied positions in a row are jumped at once.
    assert move_on_chain(6, 1, {7, 8, 9}) == 10
    assert move_on_chain(5, 1, {7}) == 8


@pytest.mark.rule("D-8.3")
def test_d8_3_downward_moves_mirror_without_bonus() -> None:
    assert move_on_chain(5, 1, set(), up=False) == 4
    assert move_on_chain(5, 2, {4, 3}, up=False) == 1
    assert move_on_chain(2, 3, set(), up=False) == 1  # nothing below 1: points lost
    assert move_on_chain(2, 1, {1}, up=False) == 2


@pytest.mark.rule("D-14.8", "D-9.2")
def test_mutation_steals_a_played_ability_card() -> None:
    st = bare(3, ["amoeba", "snake", "shark"])
    st.boards[1].slots[2] = take_from_deck(st, "acorn-10a")  # Tools, a played card
    mutation = card("flower-8a")
    upgrade_position(st, 0, [mutation])
    st.apply(0, {"type": "upgrade", "card": mutation, "use": "ability", "slot": 2}, RNG)
    assert st.to_move() == [0]
    steals = st.legal_moves(0)
    assert {"type": "no_steal"} in steals and {"type": "steal", "card": card("acorn-10a")} \
        in steals
    assert all(m.get("card") != -6 for m in steals)  # printed abilities cannot be taken
    st.apply(0, {"type": "steal", "card": card("acorn-10a")}, RNG)
    assert st.boards[1].slots[2] is None and st.boards[0].stolen == card("acorn-10a")
    assert 10 in st.boards[0].abilities()
    assert st.boards[0].score()["abilities"] == 1  # Mutation scores, the stolen card not
    # Replacing the Mutation card discards the stolen card with it.
    upgrade_position(st, 0, [card("acorn-1a")])
    st.apply(0, {"type": "upgrade", "card": card("acorn-1a"), "use": "ability", "slot": 2},
             RNG)
    assert st.boards[0].stolen is None and card("acorn-10a") in st.discard
    assert 10 not in st.boards[0].abilities()


@pytest.mark.rule("D-6.6", "D-14.8")
def test_d6_6_a_card_stolen_from_a_printed_place_leaves_it_empty() -> None:
    """The snake's Tools card replaced its printed Poison (D-6.4); Mutation takes the card and
    the place stays empty: Poison does not come back."""
    st = bare(3, ["amoeba", "snake", "shark"])
    printed = st.boards[1].slots[PRINTED_SLOTS[0]]
    assert printed == -9  # the snake's printed Poison
    tools = take_from_deck(st, "acorn-10a")
    st.boards[1].slots[PRINTED_SLOTS[0]] = tools  # replaced, so Poison is gone (D-6.4)
    assert 9 not in st.boards[1].abilities() and 10 in st.boards[1].abilities()
    mutation = card("flower-8a")
    upgrade_position(st, 0, [mutation])
    st.apply(0, {"type": "upgrade", "card": mutation, "use": "ability", "slot": 2}, RNG)
    st.apply(0, {"type": "steal", "card": tools}, RNG)
    assert st.boards[0].stolen == tools and 10 in st.boards[0].abilities()
    assert st.boards[1].slots[PRINTED_SLOTS[0]] is None
    assert st.boards[1].abilities() == {6}  # Teeth, its other printed ability, alone


def take_from_deck(st, name: str) -> int:
    st.deck.remove(card(name))
    return card(name)


def test_values_and_icons_match_the_reconstruction() -> None:
    assert VALUE[card("acorn-7a")] == 7 and CHAIN[card("acorn-3b")] == 3
