"""Each engine's component catalogue covers its data file whole, with the data's numbers.

``tests/shared/test_components.py`` checks the catalogue against what views name, for every
game without naming one; here each engine's own data is walked: every card, trait, ability,
species board, environment and card type of ``components.json`` is in the catalogue once,
with the numbers, colour and parts the engine plays by, and nothing else is.
"""

from __future__ import annotations

from typing import Any

import pytest

from shared.games import get_game
from shared.games.darwinning import cards as darwinning
from shared.games.evolution import cards as evolution
from shared.games.evolution_ns import cards as north_star
from shared.games.savanna import scoring as savanna


def by_category(game_id: str) -> dict[str, dict[Any, dict[str, Any]]]:
    out: dict[str, dict[Any, dict[str, Any]]] = {}
    for c in get_game(game_id).components()["components"]:
        assert c["key"] not in out.setdefault(c["category"], {}), c["id"]
        out[c["category"]][c["key"]] = c
    return out


@pytest.mark.rule("D-1.1", "D-1.2", "D-1.3", "D-14.1")
def test_darwinning_catalogue_is_its_data() -> None:
    got = by_category("darwinning")
    assert set(got) == {"environment", "ability", "species", "card", "table"}
    assert set(got["table"]) == set(darwinning.DATA["table"])
    assert {k: c["icons"][0] for k, c in got["environment"].items()} == dict(
        enumerate(darwinning.ENVIRONMENTS))
    assert {k: c["name"] for k, c in got["ability"].items()} == darwinning.ABILITY_NAMES
    assert {k: c["numbers"]["food"] for k, c in got["ability"].items()
            if c["numbers"]["food"]} == darwinning.ABILITY_FOOD
    assert [got["species"][s["id"]]["numbers"]["population"] for s in darwinning.SPECIES] == [
        s["population"] for s in darwinning.SPECIES]
    assert len(got["species"]) == len(darwinning.SPECIES)
    for s in darwinning.SPECIES:
        parts = got["species"][s["id"]]["parts"]
        assert parts[:len(s["abilities"])] == [f"ability:{a}" for a in s["abilities"]]
    assert sorted(got["card"]) == list(range(darwinning.CARD_COUNT))
    for card, c in got["card"].items():
        assert c["numbers"]["value"] == darwinning.VALUE[card]
        if card in darwinning.JOKERS:
            assert c["colour"] is None and c["parts"] == []
        else:
            assert c["colour"] == darwinning.COLOURS[darwinning.COLOUR[card]]
            assert c["parts"][0] == f"ability:{darwinning.VALUE[card]}"
            assert c["numbers"].get("chain", 0) == darwinning.CHAIN[card]
            assert c["numbers"].get("eggs", 0) == darwinning.EGGS[card]


@pytest.mark.rule("E-1.1", "E-1.3")
def test_evolution_catalogue_is_its_data() -> None:
    got = by_category("evolution")
    assert set(got) == {"trait", "card", "table"}
    assert set(got["table"]) == set(evolution.DATA["table"])
    assert {k: c["name"] for k, c in got["trait"].items()} == evolution.TRAIT_NAMES
    decks = max(evolution.DECKS_BY_PLAYERS.values())
    assert sorted(got["card"]) == list(range(evolution.DECK_SIZE * decks))
    for card, c in got["card"].items():
        assert c["parts"] == [f"trait:{t}" for t in evolution.faces(card)]
        assert c["name"] == evolution.card_label(card)
    assert all(("paired" in c["icons"]) == (k in evolution.PAIRED)
               for k, c in got["trait"].items())


@pytest.mark.rule("N-1.1")
def test_north_star_catalogue_is_its_data() -> None:
    got = by_category("evolution-ns")
    assert set(got) == {"trait", "card", "table"}
    assert set(got["table"]) == set(north_star.DATA["table"])
    assert got["table"]["species_board"]["numbers"]["body_max"] == north_star.MAX_VALUE
    assert {k: c["name"] for k, c in got["trait"].items()} == north_star.TRAIT_NAMES
    assert sorted(got["card"]) == list(range(north_star.DECK_SIZE))
    for card, c in got["card"].items():
        assert c["parts"] == [f"trait:{north_star.TRAIT_OF[card]}"]
        assert c["numbers"]["food"] == north_star.FOOD_OF[card]
        assert c["reconstruction"]  # the card list is reconstructed (N-1.1)


@pytest.mark.rule("S-1.1")
def test_savanna_catalogue_is_its_data() -> None:
    got = by_category("savanna")
    assert set(got) == {"card", "table"}
    assert got["table"]["savanna"]["numbers"] == {"columns": savanna.GRID_COLUMNS,
                                                  "rows": savanna.DATA["grid"]["rows"]}
    assert {k: c["numbers"]["copies"] for k, c in got["card"].items()} == savanna.DECK_COUNTS
    assert sum(c["numbers"]["copies"] for c in got["card"].values()) == 132
    assert all(c["reconstruction"] for c in got["card"].values())  # counts: S-1.1
