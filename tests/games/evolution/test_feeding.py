"""Feeding, extinction, drawing, end and scoring: docs/rules/evolution.md, rules E-3.3-E-3.9
and E-4.1-E-4.3."""

from __future__ import annotations

import random

import pytest

from shared.kernel.protocol import IllegalMove

from .helpers import Builder, ScriptedRng, all_cards, types

RNG = random.Random(0)


@pytest.mark.rule("E-3.3", "E-3.5")
def test_e3_3_take_food_one_main_action() -> None:
    """E-3.3: one red token per turn onto one of your animals, then the turn passes on."""
    b = Builder(2)
    a1, a2 = b.animal(0), b.animal(0)
    b.animal(1)
    st = b.done(bank=5)
    st.apply(0, {"type": "take_food", "animal": a1.id}, RNG)
    assert a1.food == 1 and st.bank == 4 and st.to_move() == [1]
    st.apply(1, {"type": "pass"}, RNG)
    assert st.to_move() == [0]
    with pytest.raises(IllegalMove):
        st.apply(0, {"type": "take_food", "animal": a1.id}, RNG)  # fed, no fat
    events = st.apply(0, {"type": "take_food", "animal": a2.id}, RNG)
    assert {"type": "food", "seat": 0, "animal": a2.id, "token": "red", "into": "food"} in events
    assert st.round == 2 and a2.id in st.animals  # fed, survived; seat 1's animal starved


@pytest.mark.rule("E-3.3")
def test_e3_3_requirement_counts_traits() -> None:
    """E-3.3: 1 + Carnivorous +1 + High Body Weight +1 + Parasite +2."""
    b = Builder(2)
    a = b.animal(0, "high_body_weight", "parasite")
    c = b.animal(0, "carnivorous")
    st = b.done()
    assert a.requirement() == 4 and c.requirement() == 2
    a.food = 3
    assert not a.is_fed() and st.can_take(a)
    a.food = 4
    assert a.is_fed() and not st.can_take(a)


@pytest.mark.rule("E-3.3", "E-5.2")
def test_e3_3_fed_animal_takes_food_only_into_fat() -> None:
    """E-3.3 / E-5.2 Fat Tissue: a fed animal takes food only into an empty Fat Tissue."""
    b = Builder(2)
    a = b.animal(0, "fat_tissue", "fat_tissue", food=1)
    b.animal(1)
    st = b.done(bank=5)
    st.apply(0, {"type": "take_food", "animal": a.id}, RNG)
    assert a.food == 1 and a.fat == 1
    a.fat = 2
    assert not st.can_take(a)


@pytest.mark.rule("E-3.7")
def test_e3_7_pass_ends_feeding_for_the_phase() -> None:
    """E-3.7 DECISION: pass ends your feeding for this phase."""
    b = Builder(2)
    a = b.animal(0)
    d = b.animal(1, "high_body_weight")
    st = b.done(bank=5)
    st.apply(0, {"type": "pass"}, RNG)
    st.apply(1, {"type": "take_food", "animal": d.id}, RNG)
    assert st.to_move() == [1]  # seat 0 is out for the phase
    assert a.food == 0


@pytest.mark.rule("E-3.6")
def test_e3_6_seat_with_no_action_is_skipped() -> None:
    """E-3.6: a player with no action at all (fed, no Fat Tissue, no trait) is skipped."""
    b = Builder(3)
    b.animal(0)
    b.animal(1, food=1)  # fed, no fat: skipped
    c = b.animal(2, "high_body_weight")
    st = b.done(bank=5)
    events = st.apply(0, {"type": "take_food", "animal": 1}, RNG)
    assert {"type": "skipped", "seat": 1} in events
    assert st.to_move() == [2]
    st.apply(2, {"type": "take_food", "animal": c.id}, RNG)
    assert st.to_move() == [2]  # seat 0 is now fed too: skipped


@pytest.mark.rule("E-3.9")
def test_e3_9_phase_ends_when_bank_empty_and_nothing_to_do() -> None:
    """E-3.9: the phase ends when the bank is empty and nobody can use a trait."""
    b = Builder(2)
    a = b.animal(0)
    b.animal(1)
    st = b.done(bank=1)
    events = st.apply(0, {"type": "take_food", "animal": a.id}, RNG)
    assert st.phase == "development" and st.round == 2  # seat 1's animal starved
    assert any(e["type"] == "animal_died" and e["cause"] == "starved" for e in events)


@pytest.mark.rule("E-3.9")
def test_e3_9_unused_tokens_returned() -> None:
    """E-3.9: unused red tokens go back when every animal is fed."""
    b = Builder(2)
    a = b.animal(0)
    b.animal(1, food=1)
    st = b.done(bank=5)
    events = st.apply(0, {"type": "take_food", "animal": a.id}, RNG)
    assert {"type": "bank_returned", "tokens": 4} in events and st.bank == 0


@pytest.mark.rule("E-3.5")
def test_e3_5_end_turn_only_after_acting() -> None:
    """E-3.5 DECISION: end_turn needs an action first; the turn ends by itself when nothing
    is left."""
    b = Builder(2)
    a = b.animal(0, "grazing")
    b.animal(1)
    st = b.done(bank=5)
    assert "end_turn" not in types(st.legal_moves(0))
    st.apply(0, {"type": "take_food", "animal": a.id}, RNG)
    assert st.to_move() == [0] and "end_turn" in types(st.legal_moves(0))
    st.apply(0, {"type": "end_turn"}, RNG)
    assert st.to_move() == [1]


@pytest.mark.rule("E-3.4")
def test_e3_4_extinction_discards_traits_and_pairs() -> None:
    """E-3.4: unfed animals die with their traits and paired traits to the owner's pile."""
    b = Builder(2)
    a = b.animal(0, "swimming", "running")
    partner = b.animal(0, food=1)
    card = b.pair("cooperation", a, partner)
    b.animal(1, food=1)
    st = b.done(bank=0)
    before = sorted(all_cards(st))
    st.end_feeding(RNG, [])
    assert a.id not in st.animals and partner.pairs == [] and card not in st.pairs
    assert set(st.discards[0]) >= {a.card, card, *[c for c, _ in a.traits]}
    assert sorted(all_cards(st)) == before


@pytest.mark.rule("E-3.4")
def test_e3_4_drawing_quota_and_order() -> None:
    """E-3.4: 1 + survivors each, one at a time from the first player; 6 for a seat with
    neither animals nor cards."""
    b = Builder(3)
    b.animal(0, food=1)
    b.animal(0, food=1)
    b.animal(1)  # starves: no animals, no cards -> 6
    b.hand(2, "running")  # no animals but a card -> 1
    st = b.done(first=1)
    top = list(reversed(st.deck))
    events = []
    st.end_feeding(RNG, events)
    counts = {e["seat"]: e["count"] for e in events
              if e["type"] == "cards_drawn" and "audience" not in e}
    assert counts == {0: 3, 1: 6, 2: 1}
    # Dealt one at a time starting from the first player (seat 1): 1, 2, 0, 1, 0, 1, 0, 1...
    assert st.hands[1][0] == top[0] and st.hands[2][-1] == top[1] and st.hands[0][0] == top[2]
    private = [e for e in events if e.get("audience")]
    assert all(e["audience"] == [e["seat"]] for e in private)


@pytest.mark.rule("E-3.4")
def test_e3_4_short_deck_deals_fewer() -> None:
    """E-3.4: if the deck runs out some get fewer cards."""
    b = Builder(2)
    b.animal(0, food=1)
    b.animal(1, food=1)
    st = b.done(deck=3, first=0)
    st.end_feeding(RNG, [])
    assert len(st.hands[0]) == 2 and len(st.hands[1]) == 1 and not st.deck


@pytest.mark.rule("E-3.4")
def test_e3_4_tokens_removed_but_fat_and_first_rotates() -> None:
    """E-3.4: all food tokens but fat are removed; the first player moves clockwise."""
    b = Builder(3)
    a = b.animal(0, "fat_tissue", food=1, fat=1)
    st = b.done(first=2)
    st.end_feeding(RNG, [])
    assert a.food == 0 and a.fat == 1 and st.first == 0 and st.round == 2


@pytest.mark.rule("E-4.1", "E-4.3")
def test_e4_1_last_round_when_deck_empty_and_scoring() -> None:
    """E-4.1: an empty deck at the start of a round makes it the last; then score
    +2 per animal, +1 per trait, +1 more for Carnivorous and HBW, +2 more for Parasite."""
    b = Builder(2)
    a = b.animal(0, "carnivorous", "high_body_weight", food=3)
    s1 = b.animal(0, food=1)
    s2 = b.animal(0, food=1)
    b.pair("communication", s1, s2)  # counts once on each animal (DECISION)
    p = b.animal(1, "parasite", "swimming", food=3)
    st = b.done(phase="development", deck=0)
    events = []
    st.start_round(events, RNG)  # nobody has cards; everyone is fed: straight to the end
    assert events[0]["last_round"] and st.last_round
    assert st.is_over() and st.to_move() == []
    res = st.result()
    assert res.scores == [(2 + 2 + 2) + (2 + 1) + (2 + 1), 2 + 2 + 2]
    assert p.id in st.animals and a.id in st.animals
    assert res.winners == [0]
    assert res.details["breakdown"][0]["food_bonus"] == 2


@pytest.mark.rule("E-4.2")
def test_e4_2_tie_break_discard_then_shared() -> None:
    """E-4.2: ties go to the bigger discard pile; still tied, a shared win."""
    b = Builder(3)
    b.animal(0, food=1)
    b.animal(1, food=1)
    b.animal(2, food=1)
    st = b.done(deck=0)
    st.discards = [[], [], []]
    st.deck = list(range(84))  # keep the accounting out of this check
    st.deck = []
    st.last_round = True
    st.discards[1] = [1, 2]
    st.discards[2] = [3, 4]
    st.end_feeding(RNG, [])
    res = st.result()
    assert res.scores == [2.0, 2.0, 2.0]
    assert res.winners == [1, 2] and res.ranking == [3, 1, 1]


@pytest.mark.rule("E-4.1")
def test_e3_flow_full_game_ends() -> None:
    """E-3/E-4: a seeded random match runs through rounds to the final scoring."""
    from shared.games import get_game

    game = get_game("evolution")
    rng = ScriptedRng([], seed=3)
    st = game.new_state(3, {}, rng)
    rounds = set()
    while not st.is_over():
        rounds.add(st.round)
        seat = st.to_move()[0]
        st.apply(seat, st.random_move(seat, rng), rng)
    assert len(rounds) > 2 and not st.deck
