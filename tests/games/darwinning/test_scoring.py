"""Scoring and the end of the game (docs/rules/darwinning.md D-9), with the rulebook examples."""

from __future__ import annotations

import pytest

from shared.games.darwinning.cards import ENV_ICON, ENVIRONMENTS
from shared.games.darwinning.model import Board
from shared.games.darwinning.state import DarwinningState

from .helpers import bare, card


def adapt(st: DarwinningState, seat: int, name: str) -> None:
    cid = next(c for c in st.deck if c < 90 and ENV_ICON[c] == ENVIRONMENTS.index(name))
    st.deck.remove(cid)
    st.boards[seat].adapted.append(cid)


def put(st: DarwinningState, seat: int, slot: int, name: str) -> None:
    st.deck.remove(card(name))
    st.boards[seat].slots[slot] = card(name)


def rulebook_position() -> DarwinningState:
    """The four species of the rulebook's scoring picture (v2.2), built on our boards."""
    st = bare(4, ["dinosaur", "fish", "bird", "frog"])
    dino, fish, bird, frog = st.boards
    dino.position, dino.population = 12, 4  # start 1: 1 + 3x2 = 7 points
    adapt(st, 0, "ocean")  # 3 printed + 1 adapted = 5
    put(st, 0, 0, "acorn-11a")  # 3 (replacing printed Teeth)
    put(st, 0, 2, "acorn-1a")
    put(st, 0, 3, "acorn-2a")  # 1 + 1
    fish.position, fish.population = 9, 7  # start 5: 5 + 2x2 = 9
    adapt(st, 1, "jungle")  # 2 printed + 1 adapted = 4
    put(st, 1, 2, "blueberry-1a")
    put(st, 1, 3, "blueberry-2a")
    bird.position, bird.population = 14, 5  # start 3: 3 + 2x2 = 7
    adapt(st, 2, "ocean")  # 3 + 2 = 5
    put(st, 2, 2, "flower-12a")  # 3
    frog.position, frog.population = 8, 9  # start 6: 6 + 3x2 = 12
    adapt(st, 3, "ocean")  # 2 + 2 = 4
    put(st, 3, 1, "acorn-10a")
    put(st, 3, 2, "blueberry-13a")
    put(st, 3, 3, "flower-2a")  # 3 + 3 + 1 = 7
    put(st, 3, 4, "flower-1a")  # Pheromones in the zero-point box: nothing
    st.phase = "over"
    return st


@pytest.mark.rule("D-9.4", "D-13.10")
def test_d9_4_every_rulebook_scoring_example_with_its_printed_total() -> None:
    st = rulebook_position()
    parts = [b.score() for b in st.boards]
    printed = [(12, 7, 5, 5, 29), (9, 9, 4, 2, 24), (14, 7, 5, 3, 29), (8, 12, 4, 7, 31)]
    for got, want in zip(parts, printed, strict=True):
        assert (got["food_chain"], got["population"], got["environments"], got["abilities"],
                got["total"]) == want
    result = st.result()
    assert result.winners == [3] and result.scores == [29.0, 24.0, 29.0, 31.0]
    # The frog's Pheromones in the zero-point box scores nothing (D-9.2).
    assert st.boards[3].slots[4] == card("flower-1a")


@pytest.mark.rule("D-9.2", "D-1.1")
def test_d9_2_points_printed_abilities_zero_box_and_stolen_card_score_nothing() -> None:
    st = bare(2, ["snake", "ape"])
    board = st.boards[0]
    assert board.score() == {"food_chain": 6, "population": 3, "environments": 3,
                             "abilities": 0, "total": 12}  # printed abilities score 0
    board.population = 5  # 3 + 2x2
    put(st, 0, 2, "acorn-8a")  # Mutation: 1
    put(st, 0, 3, "acorn-14a")  # Metamorphosis: 3
    put(st, 0, 4, "acorn-15a")  # zero-point box: 0
    st.deck.remove(card("flower-10a"))
    board.stolen = card("flower-10a")  # on the Mutation card: 0
    cid = card("acorn-6a")
    st.deck.remove(cid)
    board.chain.append(cid)  # used for food chain: no points of its own
    assert board.score()["abilities"] == 4 and board.score()["population"] == 7
    assert len(board.slots) == 5 and Board.slot_ability(board.slots[0]) == 9


@pytest.mark.rule("D-9.3")
def test_d9_3_ties_broken_by_population_then_food_chain() -> None:
    st = rulebook_position()
    result = st.result()
    # Dinosaur and bird both score 29: population 4 vs 5, the bird ranks higher.
    assert result.ranking[2] < result.ranking[0]
    tie = bare(2, ["ape", "wolf"])
    tie.boards[0].position, tie.boards[1].position = 11, 10  # 11+2+2 vs 10+2+3: 15 both
    tie.phase = "over"
    assert [x.score()["total"] for x in tie.boards] == [15, 15]
    assert tie.result().winners == [0]  # equal population 2: higher on the food chain
    tie.boards[1].population = 3
    tie.boards[1].position = 8  # 8 + 4 + 3 = 15 with population 3
    assert tie.boards[1].score()["total"] == 15 and tie.result().winners == [1]
