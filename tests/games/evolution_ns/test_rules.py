"""The round, setup, scoring and views of Evolution (North Star): docs/rules/evolution-ns.md,
sections N-1 to N-4 and N-6 (the traits are in test_traits.py)."""

from __future__ import annotations

import random

import pytest

from shared.games import get_game
from shared.games.evolution_ns import feeding, play
from shared.games.evolution_ns.cards import DECK_SIZE, FOOD_OF, TRAIT_OF, TRAITS
from shared.games.evolution_ns.model import Species
from shared.games.evolution_ns.state import NSState

from .helpers import Builder, all_cards

GAME = get_game("evolution-ns")
RNG = random.Random(0)


def new(players: int, seed: int = 1, quick: bool = False) -> NSState:
    st = GAME.new_state(players, {"quick": quick}, random.Random(seed))
    assert isinstance(st, NSState)
    return st


def choose_food(st: NSState) -> None:
    """Every seat puts its first card down as food."""
    for seat in list(st.to_move()):
        st.apply(seat, {"type": "food", "card": st.hands[seat][0]}, RNG)


# -- N-1 components, N-2 setup -----------------------------------------------------------------

@pytest.mark.rule("N-1.1")
def test_the_deck_has_129_cards_17_carnivores_and_7_of_each_other() -> None:
    assert DECK_SIZE == 129 and len(TRAITS) == 17
    counts = {t: TRAIT_OF.count(t) for t in TRAITS}
    assert counts.pop("carnivore") == 17 and set(counts.values()) == {7}
    assert sum(FOOD_OF) == 422 and min(FOOD_OF) == -3 and max(FOOD_OF) == 9


@pytest.mark.rule("N-1.2")
def test_body_size_and_population_stop_at_six() -> None:
    b = Builder(3)
    b.species(0, body=6, pop=5)
    card = b.hand(0, "horns")[0]
    st = b.done(phase="play")
    grows = [m for m in st.legal_moves(0) if m["type"] == "grow"]
    assert grows == [{"type": "grow", "card": card, "seat": 0, "species": 0, "what": "pop"}]


@pytest.mark.rule("N-1.3")
@pytest.mark.parametrize("players", [1, 7])
def test_two_to_six_players(players: int) -> None:
    with pytest.raises(ValueError):
        GAME.new_state(players, {"quick": False}, random.Random(0))


@pytest.mark.rule("N-1.4")
def test_the_revised_printing_values() -> None:
    from shared.games.evolution_ns.cards import HARD_SHELL_BONUS

    assert HARD_SHELL_BONUS == 4  # first printing: +3
    pack = Species(1, 4)
    pack.traits = [TRAIT_OF.index("pack_hunting")]
    assert feeding.attack_size(pack) == 5  # body + population, not +3


@pytest.mark.rule("N-2.1")
def test_two_players_remove_40_cards_and_hold_two_traits() -> None:
    st = new(2)
    assert len(st.removed) == 40 and st.max_traits == 2
    assert not set(st.removed) & set(st.deck)
    b = Builder(2)
    sp = b.species(0, "horns", "climbing")
    card = b.hand(0, "burrowing")[0]
    st = b.done(phase="play")
    traits = [m for m in st.legal_moves(0) if m["type"] == "trait"]
    assert traits == [{"type": "trait", "card": card, "species": 0, "replace": c}
                      for c in sp.traits], "a full species must discard one first"


@pytest.mark.rule("N-2.2")
def test_each_player_starts_with_one_small_species_and_a_random_first_player() -> None:
    firsts = set()
    for seed in range(12):
        st = new(4, seed)
        assert all(len(row) == 1 and row[0].body == row[0].pop == 1 for row in st.species)
        firsts.add(st.first)
    assert len(firsts) > 1


# -- N-3 the round -----------------------------------------------------------------------------

@pytest.mark.rule("N-3.1")
def test_deal_three_plus_one_per_species() -> None:
    st = new(3)
    assert [len(h) for h in st.hands] == [4, 4, 4]
    b = Builder(3)
    b.species(0)
    b.species(0)
    b.species(1)
    b.species(2)
    st = b.done()
    st.start_round([], RNG)
    assert [len(h) for h in st.hands] == [5, 4, 4] and not st.last_round


def test_n3_1_a_reshuffle_in_the_deal_makes_the_last_round() -> None:
    b = Builder(3)
    for seat in range(3):
        b.species(seat)
    st = b.done(deck=5)
    assert len(st.discard) > 100
    st.start_round([], RNG)
    assert st.last_round and [len(h) for h in st.hands] == [4, 4, 4]
    assert sorted(all_cards(st)) == list(range(DECK_SIZE))


def test_n3_1_a_deck_left_exactly_empty_makes_the_last_round() -> None:
    b = Builder(3)
    for seat in range(3):
        b.species(seat)
    st = b.done(deck=12)
    st.start_round([], RNG)
    assert st.last_round and not st.deck and len(st.discard) > 100


@pytest.mark.rule("N-3.2")
def test_the_food_card_is_a_simultaneous_secret_step() -> None:
    st = new(3)
    assert st.phase == "food" and st.to_move() == [0, 1, 2]
    card = st.hands[1][0]
    assert st.observe_move(1, {"type": "food", "card": card}, 0) == "food:hidden"
    st.apply(1, {"type": "food", "card": card}, RNG)
    assert st.to_move() == [0, 2]
    assert st.view(1)["food_card"] == card and st.view(0)["food_card"] is None
    assert st.view(0)["food_cards_down"] == [False, True, False]
    assert card not in st.view(0)["hand"] and card not in st.view(0)["discard"]


@pytest.mark.rule("N-3.3")
def test_traits_go_face_down_and_are_revealed_when_all_are_done() -> None:
    st = new(3, seed=4)
    choose_food(st)
    assert st.phase == "play" and st.to_move() == [st.first]
    seat = st.first
    move = next(m for m in st.legal_moves(seat) if m["type"] == "trait")
    assert st.observe_move(seat, move, (seat + 1) % 3) == "trait:species=0"
    st.apply(seat, move, RNG)
    other = (seat + 1) % 3
    assert st.view(other)["species"][seat][0]["traits"] == [] and \
        st.view(other)["species"][seat][0]["down"] == 1
    assert st.view(seat)["species"][seat][0]["down_cards"] == [move["card"]]
    st.apply(seat, {"type": "done"}, RNG)
    assert st.to_move() == [other], "one turn each, clockwise"
    st.apply(other, {"type": "done"}, RNG)
    st.apply((seat + 2) % 3, {"type": "done"}, RNG)
    assert st.phase in ("effects", "feed", "food")
    assert move["card"] in st.species[seat][0].traits and st.species[seat][0].down == 0


def test_n3_3_no_duplicate_traits_and_new_species_at_either_end() -> None:
    b = Builder(3)
    b.species(0, "horns", body=2)
    horns = b.hand(0, "horns")[0]
    st = b.done(phase="play")
    moves = st.legal_moves(0)
    assert not [m for m in moves if m["type"] == "trait" and m["card"] == horns]
    st.apply(0, {"type": "new_species", "card": horns, "side": "left"}, RNG)
    assert [sp.body for sp in st.species[0]] == [1, 2] and horns in st.discard
    assert st.phase != "play" or st.turn != 0, "an empty hand ends the turn"


def test_n3_3_grow_and_replace_send_cards_face_up_to_the_pile() -> None:
    b = Builder(3)
    sp = b.species(0, "horns", "climbing", "burrowing")
    cards = b.hand(0, "fertile", "scavenger")
    st = b.done(phase="play")
    st.apply(0, {"type": "grow", "card": cards[0], "seat": 0, "species": 0, "what": "body"},
             RNG)
    old = sp.traits[1]
    st.apply(0, {"type": "trait", "card": cards[1], "species": 0, "replace": old}, RNG)
    assert sp.body == 2 and cards[0] in st.discard and old in st.discard
    assert len(sp.traits) == 3


@pytest.mark.rule("N-3.4")
def test_food_cards_fill_the_hole_and_a_negative_sum_empties_it() -> None:
    for cards, before, after in ([(5, 4), 2, 11], [(-3, -2), 3, 0], [(-3, 1), 5, 3]):
        b = Builder(3)
        for seat in range(3):
            b.species(seat, "carnivore")
        chosen = [b.card(food=f) for f in cards]
        st = b.done(phase="play", hole=before)
        st.food_cards = [*chosen, None]
        feeding.start_feeding(st, RNG, [])
        assert st.hole == after and set(chosen) <= set(st.discard)
        assert st.bank_out == after


def test_n3_4_feeding_goes_clockwise_one_species_a_turn() -> None:
    b = Builder(3)
    b.species(0, body=1, pop=2)
    b.species(0, body=1, pop=2)
    b.species(1, body=1, pop=2)
    st = b.done(hole=10, turn=1, first=1)
    st.turn = 1
    st.apply(1, {"type": "eat", "species": 0}, RNG)
    assert st.to_move() == [0], "seat 2 has nothing to feed: skipped"
    assert {m["species"] for m in st.legal_moves(0)} == {0, 1}
    st.apply(0, {"type": "eat", "species": 1}, RNG)
    assert [sp.food for sp in st.species[0]] == [0, 1] and st.to_move() == [1]


@pytest.mark.rule("N-3.5")
def test_end_of_feeding_population_loss_bags_and_first_player() -> None:
    b = Builder(3)
    b.species(0, body=1, pop=3, food=2)
    b.species(0, "horns", body=1, pop=2)
    b.species(1, body=1, pop=1, food=1)
    st = b.done(hole=0, first=2)
    feeding.end_feeding(st, RNG, [])
    assert [sp.pop for sp in st.species[0]] == [2]
    assert st.bags == [2, 1, 0] and st.first == 0
    assert len(st.species[2]) == 1, "a seat with no species gets a new one"
    assert st.phase == "food" and st.round == 2
    horns = next(c for c in st.discard if TRAIT_OF[c] == "horns")
    assert horns in st.discard


@pytest.mark.rule("N-3.6")
def test_attack_takes_meat_up_to_hunger_and_returns_the_rest() -> None:
    b = Builder(4)
    b.species(0, "carnivore", body=5, pop=2)
    b.species(1, body=4, pop=1, food=1)
    st = b.done(sentinel=True)
    st.apply(0, {"type": "attack", "species": 0, "target_seat": 1, "target": 0}, RNG)
    assert st.species[0][0].food == 2 and not st.species[1]
    assert st.bags[1] == 1 and st.bank_out == 3 + 0


@pytest.mark.rule("N-3.7")
def test_extinction_bags_food_returns_fat_and_draws_per_trait() -> None:
    b = Builder(4)
    b.species(0, "carnivore", body=5, pop=2)
    b.species(1, body=1, pop=3)
    b.species(1, "fat_tissue", "horns", body=3, pop=1, food=1, fat=2)
    b.species(1, body=1, pop=3)
    st = b.done(sentinel=True)
    hand = len(st.hands[1])
    st.apply(0, {"type": "attack", "species": 0, "target_seat": 1, "target": 1}, RNG)
    assert len(st.species[1]) == 2 and st.bags[1] == 1
    assert len(st.hands[1]) == hand + 2
    assert st.species[0][0].food == 1
    assert st.bank_out == st.bags[1] + st.species[0][0].food, "fat back to the bank"
    assert st.species[0][0].pop == 1, "Horns"


def test_n3_7_a_reshuffle_in_feeding_makes_this_the_last_round() -> None:
    b = Builder(4)
    b.species(0, "carnivore", "climbing", body=5, pop=2)
    b.species(1, "horns", "climbing", body=1, pop=1)
    b.species(1, body=1, pop=1)
    st = b.done(sentinel=True, deck=0)
    assert not st.deck and not st.last_round
    st.apply(0, {"type": "attack", "species": 0, "target_seat": 1, "target": 0}, RNG)
    assert st.last_round and len(st.hands[1]) == 2


@pytest.mark.rule("N-3.8")
def test_the_owner_orders_start_of_feeding_effects() -> None:
    b = Builder(4)
    b.species(0, "fertile", "fat_tissue", body=3, pop=1, fat=3)
    st = b.done(sentinel=True, phase="play", hole=1)
    st.food_cards = [None] * 4
    feeding.start_feeding(st, RNG, [])
    assert st.phase == "effects" and st.to_move() == [0]
    assert st.legal_moves(0) == [{"type": "effect", "species": 0, "trait": "fertile"},
                                 {"type": "effect", "species": 0, "trait": "fat_tissue"}]
    twin = st.clone()
    st.apply(0, {"type": "effect", "species": 0, "trait": "fertile"}, RNG)
    assert st.species[0][0].food == 2 and st.species[0][0].fat == 1
    twin.apply(0, {"type": "effect", "species": 0, "trait": "fat_tissue"}, RNG)
    assert twin.species[0][0].pop == 2 and twin.species[0][0].food == 1


@pytest.mark.rule("N-3.9")
def test_feeding_is_compulsory_and_passing_only_with_fat_left() -> None:
    b = Builder(4)
    b.species(0, "carnivore", body=2, pop=2)
    b.species(0, body=1, pop=1)
    b.species(0, "fat_tissue", body=3, pop=1, food=1)
    st = b.done(sentinel=True, hole=0)
    assert st.legal_moves(0) == [{"type": "attack", "species": 0, "target_seat": 0,
                                  "target": 1}], "it must attack its own species"
    b = Builder(4)
    b.species(0, "fat_tissue", body=3, pop=1, food=1)
    st = b.done(sentinel=True, hole=3)
    assert {"type": "pass"} in st.legal_moves(0)
    st.apply(0, {"type": "pass"}, RNG)
    assert st.passed[0] and st.to_move() == [3]


@pytest.mark.rule("N-3.10")
def test_quick_variant_plays_cards_at_once_in_secret() -> None:
    st = new(4, seed=3, quick=True)
    choose_food(st)
    assert st.phase == "play" and st.to_move() == [0, 1, 2, 3]
    before = st.view(1)
    card = st.hands[0][0]
    move = {"type": "new_species", "card": card, "side": "right"}
    assert st.observe_move(0, move, 1) == "play:hidden"
    st.apply(0, move, RNG)
    after = st.view(1)
    assert after["species"] == before["species"] and after["hand_sizes"] == before["hand_sizes"]
    assert after["discard"] == before["discard"]
    assert len(st.view(0)["species"][0]) == 2
    for seat in (0, 1, 2, 3):
        if seat in st.to_move():
            st.apply(seat, {"type": "done"}, RNG)
    assert st.phase != "play" and len(st.species[0]) == 2 and card in st.discard
    assert new(6).quick, "always with six players"


# -- N-4 scoring -------------------------------------------------------------------------------

@pytest.mark.rule("N-4.1")
def test_score_bag_population_traits_but_not_fat() -> None:
    b = Builder(3)
    b.species(0, "fat_tissue", "horns", body=4, pop=3, fat=4)
    b.species(1, body=1, pop=1)
    b.species(2, body=1, pop=1)
    st = b.done(bags=[5, 0, 0])
    assert st.scores()[0] == [5 + 3 + 2, 1, 1]


@pytest.mark.rule("N-4.2")
def test_ties_go_to_trait_points_then_population() -> None:
    b = Builder(4)
    b.species(0, "horns", body=1, pop=2)  # 1 + 2 + 3 = 6, 1 trait
    b.species(1, body=1, pop=3)  # 3 + 3 = 6, 0 traits, 3 population
    b.species(2, body=1, pop=2)  # 4 + 2 = 6, 0 traits, 2 population
    b.species(3, "horns", body=1, pop=2)  # tie with seat 0 everywhere: shared
    st = b.done(bags=[3, 3, 4, 3])
    result = st.result()
    assert result.scores == [6, 6, 6, 6]
    assert result.ranking == [1, 3, 4, 1] and result.winners == [0, 3]


def test_n4_1_the_last_round_ends_the_game_after_feeding() -> None:
    b = Builder(3)
    for seat in range(3):
        b.species(seat, body=1, pop=1, food=1)
    st = b.done()
    st.last_round = True
    feeding.end_feeding(st, RNG, [])
    assert st.is_over() and st.to_move() == [] and st.result().scores == [2, 2, 2]


# -- N-6 views ---------------------------------------------------------------------------------

@pytest.mark.rule("N-6.1")
def test_public_parts_are_in_every_view() -> None:
    st = new(3, seed=2)
    choose_food(st)
    view = st.view(None)
    for key in ("species", "hole", "deck_size", "discard", "hand_sizes", "first", "to_move",
                "bags", "food_cards_down"):
        assert key in view
    assert "hand" not in view


@pytest.mark.rule("N-6.2")
def test_private_parts_only_for_their_seat() -> None:
    st = new(3, seed=2)
    choose_food(st)
    for seat in range(3):
        view = st.view(seat)
        assert view["hand"] == st.hands[seat]
        assert view["food_card"] == st.food_cards[seat] is not None
        others = set().union(*(st.hands[k] for k in range(3) if k != seat))
        others |= {st.food_cards[k] for k in range(3) if k != seat}
        assert not others & (set(view["hand"]) | set(view["discard"]))
        assert view["food_cards_down"] == [True, True, True]


@pytest.mark.rule("N-6.3")
def test_deck_and_removed_cards_are_never_shown() -> None:
    st = new(2, seed=2)
    for seat in (0, 1, None):
        view = st.view(seat)
        assert "deck" not in view and "removed" not in view
        assert view["deck_size"] == len(st.deck) and view["removed_size"] == 40
    sample = GAME.sample_from_view(st.view(0), 0, random.Random(1))
    assert isinstance(sample, NSState)
    assert sample.hands[0] == st.hands[0] and sample.deck != st.deck


def test_n3_3_quick_plays_wait_in_staged_until_the_reveal() -> None:
    st = new(3, seed=5, quick=True)
    choose_food(st)
    card = st.hands[1][0]
    st.apply(1, {"type": "grow", "card": card, "seat": 1, "species": 0, "what": "pop"}, RNG)
    assert st.staged[1] == [card] and card not in st.discard
    play.end_play(st, RNG, [])
    assert card in st.discard and st.qbase is None


def test_n3_3_a_card_may_grow_any_players_species() -> None:
    # Seed: "zwiększyć rozmiar ciała lub populację dowolnego gatunku o 1" (any species).
    b = Builder(3)
    b.species(0)
    target = b.species(1, body=2, pop=6)
    card = b.hand(0, "horns")[0]
    st = b.done(phase="play")
    grows = [m for m in st.legal_moves(0) if m["type"] == "grow" and m["seat"] == 1]
    assert grows == [{"type": "grow", "card": card, "seat": 1, "species": 0, "what": "body"}]
    st.apply(0, grows[0], RNG)
    assert target.body == 3 and card in st.discard


def test_n3_10_a_secret_growth_of_another_species_waits_for_the_reveal() -> None:
    st = new(3, seed=8, quick=True)
    choose_food(st)
    card, other = st.hands[0][0], st.hands[1][0]
    st.apply(1, {"type": "new_species", "card": other, "side": "left"}, RNG)
    st.apply(0, {"type": "grow", "card": card, "seat": 1, "species": 0, "what": "pop"}, RNG)
    assert [sp.pop for sp in st.species[1]] == [1, 1], "not applied before the reveal"
    assert [(s["body"], s["pop"]) for s in st.view(1)["species"][1]] == [(1, 1), (1, 1)]
    sample = GAME.sample_from_view(st.view(0), 0, random.Random(3))
    assert sample.view(0) == st.view(0)
    play.end_play(st, RNG, [])
    assert [sp.pop for sp in st.species[1]] == [1, 2], "the species as the phase began"


@pytest.mark.rule("N-3.9")
def test_n3_9_a_seat_that_passed_must_feed_when_a_hungry_species_can_eat_again() -> None:
    b = Builder(3)
    # seat 0: a hungry carnivore with nothing to attack yet, a fed Fat Tissue species
    b.species(0, "carnivore", body=3, pop=2)
    b.species(0, "fat_tissue", body=3, pop=1, food=1)
    # seat 1: T, protected by W's Warning Call; W (Climbing) is food for C1 only
    b.species(1, body=1, pop=2, food=2)
    b.species(1, "warning_call", "climbing", body=1, pop=1)
    b.species(1, "carnivore", "climbing", body=3, pop=1)
    b.species(2, body=6, pop=1, food=1)
    st = b.done(hole=3)
    assert st.legal_moves(0) == [{"type": "eat", "species": 1}, {"type": "pass"}]
    st.apply(0, {"type": "pass"}, RNG)
    st.apply(1, {"type": "attack", "species": 2, "target_seat": 1, "target": 1}, RNG)
    assert st.phase == "feed" and st.to_move() == [0], "T lost its protection"
    assert st.legal_moves(0) == [{"type": "attack", "species": 0, "target_seat": 1,
                                  "target": 0}], "a compulsory feeding: no pass, no storing"
    st.apply(0, {"type": "attack", "species": 0, "target_seat": 1, "target": 0}, RNG)
    assert st.species[0][0].food == 1 and st.species[0][1].fat == 0
    assert st.to_move() == [0] and st.legal_moves(0) == [
        {"type": "attack", "species": 0, "target_seat": 1, "target": 0}], "T again"


@pytest.mark.rule("N-3.7", "N-4.1")
def test_n3_7_a_lost_trait_draw_that_empties_the_deck_makes_this_the_last_round() -> None:
    b = Builder(4)
    b.species(0, "carnivore", body=3, pop=1)
    b.species(1, "fertile", body=1, pop=1)
    st = b.done(sentinel=True, deck=1)
    assert not st.last_round
    st.apply(0, {"type": "attack", "species": 0, "target_seat": 1, "target": 0}, RNG)
    assert not st.deck and len(st.hands[1]) == 1
    assert st.last_round, "the deck ran out in this round"
    while st.phase == "feed":
        st.apply(st.turn, st.legal_moves(st.turn)[0], RNG)
    assert st.is_over() and st.round == 1
