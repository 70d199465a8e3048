"""Survival and the abilities (docs/rules/darwinning.md D-7, D-10, D-14)."""

from __future__ import annotations

import random

import pytest

from shared.games.darwinning import survival
from shared.games.darwinning.cards import ENV_ICON, ENVIRONMENTS, JOKERS, METAMORPHOSIS
from shared.games.darwinning.model import Board
from shared.games.darwinning.state import DarwinningState
from shared.games.darwinning.survival import can_eat

from .helpers import bare, card, survival_position

RNG = random.Random(0)


def env(name: str) -> int:
    return ENVIRONMENTS.index(name)


def env_card(st: DarwinningState, name: str) -> int:
    cid = next(c for c in st.deck if c < 90 and ENV_ICON[c] == env(name))
    st.deck.remove(cid)
    return cid


def give(st: DarwinningState, seat: int, slot: int, name: str) -> int:
    cid = card(name)
    st.deck.remove(cid)
    st.boards[seat].slots[slot] = cid
    return cid


def stop_all(st: DarwinningState) -> None:
    """Every species declines to eat (the decisions still come one by one)."""
    while st.phase == "survival" and not st.queue:
        st.apply(st.to_move()[0], {"type": "stop_eating"}, RNG)


@pytest.mark.rule("D-7.2", "D-14.3", "D-14.7")
def test_d7_2_food_from_environments_abilities_and_eating() -> None:
    st = bare(3, ["amoeba", "mouse", "shark"], envs=("ocean", "wetlands", "plains", "desert"))
    st.boards[0].adapted.append(env_card(st, "plains"))
    st.boards[0].slots[0] = None  # no Metamorphosis; Herd Animal (-1) stays
    # printed ocean 3 + wetlands 3, adapted plains 2, Herd Animal -1
    assert survival.food(st, 0)["total"] == 7
    # mouse: plains 2 printed, Food Storage +3 (D-14.7)
    assert survival.food(st, 1) == {"environments": 2, "symbiosis": 0, "eating": 0,
                                    "abilities": 3, "total": 5}
    st.eats = [(2, 0), (2, 1)]
    assert survival.food(st, 2)["eating"] == 4  # +2 per species eaten


@pytest.mark.rule("D-7.1", "D-7.3")
def test_d7_1_d7_3_lowest_first_and_eating_is_a_choice() -> None:
    st = bare(3, ["shark", "frog", "wolf"], envs=("ocean",))
    survival_position(st)
    # Order by food chain: frog (3), wolf (10), shark (13); the frog can eat nobody.
    assert [st.boards[s].position for s in st.order] == [10, 13]
    assert st.to_move() == [2]
    moves = st.legal_moves(2)
    assert {"type": "stop_eating"} in moves and {"type": "eat", "target": 1} in moves
    st.apply(2, {"type": "eat", "target": 1}, RNG)  # the wolf eats the frog ...
    assert st.boards[1].bites == 1 and st.boards[2].bites == 2  # frog is Poison
    assert st.to_move() == [0]  # ... and has nobody else in reach
    st.apply(0, {"type": "stop_eating"}, RNG)  # the shark chooses not to eat
    assert st.is_over()


def decide(st: DarwinningState, eaters: set[int], prey: int) -> None:
    """Every species in turn eats ``prey`` if it is one of ``eaters``, else nothing more."""
    while st.phase == "survival" and not st.queue:
        seat = st.to_move()[0]
        eat = {"type": "eat", "target": prey}
        if seat in eaters and eat in st.legal_moves(seat):
            st.apply(seat, eat, RNG)
        else:
            st.apply(seat, {"type": "stop_eating"}, RNG)


@pytest.mark.rule("D-7.4", "D-7.7")
def test_d7_4_d7_7_growth_needs_surplus_and_at_most_one_eater_decided_later() -> None:
    # The mouse (population 4) has food 2+2+2+1 (plains, forest, underground, highland) + 3
    # (Food Storage) = 10. The ape and the wolf (Society: they may eat the Communication
    # mouse) decide after the mouse: eaten twice it may not grow (and 2 bites cost 1).
    for eaters, expected in (({1, 2}, 3), ({1}, 5), (set(), 5)):
        st = bare(3, ["mouse", "ape", "wolf"],
                  envs=("plains", "forest", "underground", "highland"))
        survival_position(st)
        assert st.to_move() == [1]
        decide(st, eaters, 0)
        assert st.is_over()
        assert st.boards[0].population == expected, eaters


@pytest.mark.rule("D-7.5", "D-7.6", "D-14.3")
def test_d7_5_bites_cost_one_population_herd_needs_three() -> None:
    # The insect (Herd Animal, population 6) has exactly 6 food: 2+2+2+1-1.
    for eaters, expected in (({1, 2}, 6), ({1, 2, 3}, 5)):
        st = bare(4, ["insect", "mouse", "wolf", "shark"],
                  envs=("forest", "jungle", "plains", "desert"))
        survival_position(st)
        decide(st, eaters, 0)
        assert st.is_over()
        assert st.boards[0].population == expected
        assert all(b.bites == 0 for b in st.boards)  # D-7.6: cleared after survival


@pytest.mark.rule("D-7.6")
def test_d7_6_population_never_below_zero_and_zero_still_eats() -> None:
    st = bare(3, ["dinosaur", "shark", "frog"], envs=("desert",))
    st.boards[0].population = 0
    st.boards[0].slots[0:2] = [-3, None]  # Herd Animal only: food -1
    survival_position(st)
    assert {"type": "eat", "target": 2} in st.legal_moves(0)  # at 0 it still eats
    stop_all(st)
    assert st.is_over() and st.boards[0].population == 0


@pytest.mark.rule("D-10.1", "D-14.1", "D-14.4", "D-14.5", "D-14.6", "D-14.10", "D-14.11",
                  "D-14.13", "D-14.15")
def test_d10_1_who_may_eat_whom() -> None:
    assert can_eat(5, set(), 3, set()) and not can_eat(5, set(), 6, set())
    assert can_eat(5, {1}, 6, set()) and not can_eat(5, {1}, 7, set())  # Pheromones: 1 up
    assert can_eat(5, {6}, 7, set()) and not can_eat(5, {6}, 8, set())  # Teeth: 2 up
    assert not can_eat(5, {1, 6}, 8, set())  # reaches do not add up
    assert not can_eat(9, set(), 3, {4}) and can_eat(9, {10}, 3, {4})  # Hard Shell / Tools
    assert not can_eat(9, set(), 3, {5}) and can_eat(9, {15}, 3, {5})  # Communication
    assert can_eat(5, {1}, 6, {5})  # Communication: a lower eater may
    assert not can_eat(5, set(), 4, {11}) and can_eat(5, {13}, 4, {11})  # Camouflage
    assert can_eat(5, set(), 3, {11})  # Camouflage: only directly next to it


@pytest.mark.rule("D-7.8", "D-14.2")
def test_d7_8_a_borrowed_environment_gives_2_food_whatever_the_lender_has() -> None:
    """The elephant has plains at 3 food, the mouse highland at 1 (and plains at 2): the fish
    borrowing either gets 2, as for an environment it adapted to."""
    st = bare(3, ["fish", "elephant", "mouse"], envs=("plains", "highland", "ocean"))
    give(st, 0, 2, "acorn-2a")  # Symbiosis
    assert st.boards[1].printed_envs[env("plains")] == 3
    assert st.boards[2].printed_envs[env("highland")] == 1
    survival_position(st)
    assert st.to_move() == [0]
    for borrowed in ("plains", "highland"):
        fish = st.clone()
        fish.apply(0, {"type": "symbiosis", "environment": borrowed}, RNG)
        assert fish.symbiosis == {0: env(borrowed)}
        food = survival.food(fish, 0)
        assert food["symbiosis"] == 2, borrowed
        # Its own ocean at 3, the borrowed one at 2, its printed Herd Animal -1.
        assert food["environments"] == 3 and food["total"] == 3 + 2 - 1


@pytest.mark.rule("D-14.2")
def test_symbiosis_borrows_one_environment_the_player_chooses() -> None:
    st = bare(3, ["fish", "mouse", "ape"], envs=("plains", "forest", "ocean"))
    give(st, 0, 2, "acorn-2a")  # fish with Symbiosis; the mouse has plains and forest
    survival_position(st)
    assert st.to_move() == [0]
    choices = st.legal_moves(0)
    assert choices == [{"type": "symbiosis", "environment": "forest"},
                       {"type": "symbiosis", "environment": "plains"}]
    st.apply(0, choices[1], RNG)
    assert st.symbiosis == {0: env("plains")}
    assert survival.food(st, 0)["symbiosis"] == 2


@pytest.mark.rule("D-14.9", "D-14.12")
def test_poison_gives_the_eater_two_bites_unless_iron_stomach() -> None:
    st = bare(3, ["frog", "wolf", "shark"], envs=("polar",))
    survival_position(st)
    st.apply(1, {"type": "eat", "target": 0}, RNG)
    assert st.boards[1].bites == 2 and st.boards[0].bites == 1
    st.apply(2, {"type": "eat", "target": 0}, RNG)  # the shark has Iron Stomach
    assert st.boards[2].bites == 0 and st.boards[0].bites == 2


@pytest.mark.rule("D-14.14", "D-9.1")
def test_metamorphosis_draws_and_plays_a_card_even_after_the_last_era() -> None:
    st = bare(3, ["amoeba", "snake", "shark"], envs=("ocean",))
    st.deck.remove(card("acorn-5a"))
    st.deck.append(card("acorn-5a"))  # the top card: Communication
    st.boards[0].slots[2] = st.deck.pop(0)
    st.boards[0].slots[3] = st.deck.pop(0)
    survival_position(st)
    stop_all(st)
    # The amoeba's one empty place is the zero-point box, but the card is played "as an
    # ability" (D-6.4), so it may also replace one: the owner chooses the place.
    assert st.queue and st.queue[0]["kind"] == "meta" and st.to_move() == [0]
    assert {m["slot"] for m in st.legal_moves(0)} == {0, 1, 2, 3, 4}
    st.apply(0, {"type": "metamorphosis", "slot": 4}, RNG)
    assert st.is_over()
    assert st.boards[0].slots[4] == card("acorn-5a")
    st2 = bare(3, ["amoeba", "snake", "shark"], envs=("ocean",))
    st2.deck.remove(card("acorn-5a"))
    st2.deck.append(card("acorn-5a"))
    survival_position(st2)
    stop_all(st2)
    assert st2.queue and st2.queue[0]["kind"] == "meta" and st2.to_move() == [0]
    assert {m["slot"] for m in st2.legal_moves(0)} == {0, 1, 2, 3, 4}
    st2.apply(0, {"type": "metamorphosis", "slot": 3}, RNG)
    assert st2.boards[0].slots[3] == card("acorn-5a") and st2.is_over()
    # A joker drawn is discarded with no replacement.
    st3 = bare(3, ["amoeba", "snake", "shark"], envs=("ocean",))
    joker = min(JOKERS)
    st3.deck.remove(joker)
    st3.deck.append(joker)
    survival_position(st3)
    stop_all(st3)
    assert st3.is_over() and joker in st3.discard


@pytest.mark.rule("D-14.1", "D-14.3", "D-14.6", "D-14.7", "D-14.10")
@pytest.mark.parametrize("name, food", [("acorn-1a", 1), ("acorn-3a", -1), ("acorn-6a", 1),
                                        ("acorn-7a", 3), ("acorn-10a", 1), ("acorn-4a", 0)])
def test_ability_food(name: str, food: int) -> None:
    st = bare(3, ["ape", "mouse", "shark"], envs=("jungle",))
    st.boards[0].slots[0:2] = [None, None]  # no printed abilities
    assert survival.food(st, 0)["abilities"] == 0
    give(st, 0, 2, name)
    assert survival.food(st, 0)["abilities"] == food
    assert survival.food(st, 0)["total"] == 3 + food


@pytest.mark.rule("D-14.14")
def test_metamorphosis_card_may_replace_an_ability_though_a_place_is_free() -> None:
    """CZ "zahrajte ji jako schopnost" (play it as an ability): as any ability it may replace
    one (D-6.4), here the printed Herd Animal (-1 food) rather than going to the free
    zero-point box where it would score nothing; only a held ability forces its own place."""
    st = bare(3, ["amoeba", "snake", "shark"], envs=("ocean",))
    st.deck.remove(card("acorn-5a"))
    st.deck.append(card("acorn-5a"))  # the top card: Communication
    give(st, 0, 2, "blueberry-7a")
    give(st, 0, 3, "blueberry-10a")
    survival_position(st)
    stop_all(st)
    assert st.to_move() == [0]
    slots = {m["slot"] for m in st.legal_moves(0)}
    assert 1 in slots and 4 in slots  # replace Herd Animal, or the zero-point box
    st.apply(0, {"type": "metamorphosis", "slot": 1}, RNG)
    assert st.boards[0].slots[1] == card("acorn-5a") and st.boards[0].slots[4] is None
    assert st.boards[0].score()["abilities"] == 1 + 1 + 3  # Communication now scores
    # A drawn copy of an ability the species holds can go only where that ability is.
    st2 = bare(3, ["amoeba", "snake", "shark"], envs=("ocean",))
    st2.deck.remove(card("acorn-3a"))
    st2.deck.append(card("acorn-3a"))  # Herd Animal, printed on the amoeba
    survival_position(st2)
    stop_all(st2)
    assert st2.is_over() and st2.boards[0].slots[1] == card("acorn-3a")


@pytest.mark.rule("D-14.14", "D-14.8")
def test_every_species_holding_metamorphosis_when_survival_ends_draws() -> None:
    """DECISION: "Jokaisen Selviytymiskierroksen lopussa" (at the end of each survival round)
    is one moment: each species holding Metamorphosis then draws, in food-chain order, even
    when an earlier draw (a Mutation that steals) has taken its Metamorphosis away, and the
    species that stole it does not draw again. Here the amoeba draws Mutation, lays it over
    its own printed Metamorphosis and steals the snake's Metamorphosis card: the snake, with
    no Metamorphosis left at its draw, still draws and plays the card."""
    st = bare(3, ["amoeba", "snake", "ape"], envs=("ocean",))
    assert Board.slot_ability(st.boards[0].slots[0]) == METAMORPHOSIS  # printed
    stolen = give(st, 1, 2, "acorn-14a")  # the snake's Metamorphosis card
    snake_draw, mutation = card("flower-7a"), card("acorn-8a")
    for c in (snake_draw, mutation):  # the deck's top: the amoeba draws Mutation first
        st.deck.remove(c)
        st.deck.append(c)
    survival_position(st)
    stop_all(st)
    assert [(q["kind"], q["seat"]) for q in st.queue] == [("meta", 0), ("meta", 1)]
    assert st.queue[0]["card"] == mutation and "card" not in st.queue[1]
    st.apply(0, {"type": "metamorphosis", "slot": 0}, RNG)  # over its own Metamorphosis
    assert st.queue[0] == {"kind": "steal", "seat": 0}
    events = st.apply(0, {"type": "steal", "card": stolen}, RNG)
    assert METAMORPHOSIS not in st.boards[1].abilities()  # the snake has lost it ...
    assert METAMORPHOSIS in st.boards[0].abilities()  # ... to the amoeba's Mutation
    draws = [e for e in events if e["type"] == "metamorphosis"]
    assert draws == [{"type": "metamorphosis", "seat": 1, "card": snake_draw}]  # it draws
    assert st.queue == [{"kind": "meta", "seat": 1, "card": snake_draw}]  # no 2nd amoeba draw
    assert st.to_move() == [1]
    st.apply(1, {"type": "metamorphosis", "slot": 2}, RNG)
    assert st.boards[1].slots[2] == snake_draw and st.is_over()
