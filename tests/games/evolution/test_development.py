"""Components, setup, development and the food bank: docs/rules/evolution.md, rules
E-1.1-E-1.3, E-2.1, E-3.1 and E-3.2."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from shared.games import get_game
from shared.games.evolution.cards import DECK_FACES, card_count, faces
from shared.kernel.protocol import IllegalMove

from .helpers import Builder, ScriptedRng, all_cards

GAME = get_game("evolution")


@pytest.mark.rule("E-1.1")
def test_e1_1_deck_composition() -> None:
    """E-1.1: 84 cards with the reference's copies per card (a RECONSTRUCTION)."""
    counts = Counter(DECK_FACES)
    assert len(DECK_FACES) == 84
    assert counts[("swimming",)] == 8
    assert all(v == 4 for k, v in counts.items() if k != ("swimming",))
    assert len(counts) == 20
    assert counts[("communication", "carnivorous")] == 4
    assert counts[("cooperation", "fat_tissue")] == 4


@pytest.mark.rule("E-1.3")
def test_e1_3_two_decks_for_five_to_eight() -> None:
    """E-1.3: one deck for 2-4 players, two mixed decks (168 cards) for 5-8."""
    assert [card_count(p) for p in range(2, 9)] == [84, 84, 84, 168, 168, 168, 168]
    assert faces(84) == faces(0)


@pytest.mark.rule("E-2.1")
@pytest.mark.parametrize("players", range(2, 9))
def test_e2_1_setup_deals_six(players: int) -> None:
    """E-2.1: six cards each, the rest is the deck, a random first player."""
    st = GAME.new_state(players, {}, random.Random(players))
    assert all(len(h) == 6 for h in st.hands)
    assert len(st.deck) == card_count(players) - 6 * players
    assert sorted(all_cards(st)) == list(range(card_count(players)))
    assert st.phase == "development" and st.to_move() == [st.first]
    firsts = {GAME.new_state(players, {}, random.Random(s)).first for s in range(300)}
    assert firsts == set(range(players))


def _dev() -> tuple:
    b = Builder(2)
    mine = b.animal(0)
    other = b.animal(1)
    carn = b.animal(0, "carnivorous")
    scav = b.animal(0, "scavenger")
    hand = b.hand(0, "parasite", "fat_tissue", "scavenger", "carnivorous", "symbiosis",
                  "communication", "swimming")
    b.hand(1, "running")
    st = b.done(phase="development", turn=0)
    return st, mine, other, carn, scav, hand


@pytest.mark.rule("E-3.1")
def test_e3_1_play_animal_and_trait_choice() -> None:
    """E-3.1: a card becomes an animal, or one of its two traits, chosen for good."""
    st, mine, *_ , hand = _dev()
    card = hand[3]  # a two-trait X / Carnivorous card
    assert len(faces(card)) == 2
    moves = st.legal_moves(0)
    assert {"type": "play_animal", "card": card} in moves
    for trait in faces(card):
        if trait not in ("communication", "cooperation"):
            assert {"type": "play_trait", "card": card, "trait": trait,
                    "animal": mine.id} in moves
    events = st.apply(0, {"type": "play_trait", "card": card, "trait": "carnivorous",
                          "animal": mine.id}, random.Random(0))
    assert mine.traits == ((card, "carnivorous"),)
    assert events[0]["type"] == "trait_played"
    assert st.to_move() == [1]


@pytest.mark.rule("E-3.1")
def test_e3_1_new_animal_gets_stable_id() -> None:
    """E-3.1: a played animal gets the next animal id; ids never change."""
    st, *_, hand = _dev()
    st.apply(0, {"type": "play_animal", "card": hand[6]}, random.Random(0))
    assert st.table[0][-1].id == 5 and st.animals[5].card == hand[6]


@pytest.mark.rule("E-3.1", "E-5.19")
def test_e3_1_parasite_only_on_others() -> None:
    """E-3.1: Parasite goes only on another player's animal."""
    st, mine, other, *_, hand = _dev()
    moves = st.legal_moves(0)
    assert {"type": "play_trait", "card": hand[0], "trait": "parasite",
            "animal": other.id} in moves
    assert {"type": "play_trait", "card": hand[0], "trait": "parasite",
            "animal": mine.id} not in moves
    with pytest.raises(IllegalMove, match="another player"):
        st.apply(0, {"type": "play_trait", "card": hand[0], "trait": "parasite",
                     "animal": mine.id}, random.Random(0))


@pytest.mark.rule("E-3.1")
def test_e3_1_traits_only_on_own_animals() -> None:
    """E-3.1: ordinary traits only on your own animals."""
    st, _mine, other, *_, hand = _dev()
    with pytest.raises(IllegalMove, match="own animals"):
        st.apply(0, {"type": "play_trait", "card": hand[6], "trait": "swimming",
                     "animal": other.id}, random.Random(0))


@pytest.mark.rule("E-3.1")
def test_e3_1_no_duplicate_trait_but_fat_tissue() -> None:
    """E-3.1: no two copies of a trait on one animal, except Fat Tissue."""
    st, _mine, _other, carn, _scav, hand = _dev()
    moves = st.legal_moves(0)
    assert {"type": "play_trait", "card": hand[3], "trait": "carnivorous",
            "animal": carn.id} not in moves
    with pytest.raises(IllegalMove, match="already has"):
        st.apply(0, {"type": "play_trait", "card": hand[3], "trait": "carnivorous",
                     "animal": carn.id}, random.Random(0))


@pytest.mark.rule("E-3.1", "E-5.2")
def test_e3_1_fat_tissue_twice_allowed() -> None:
    """E-3.1: an animal may carry several Fat Tissue cards."""
    b = Builder(2)
    a = b.animal(0, "fat_tissue")
    card = b.hand(0, "fat_tissue")[0]
    st = b.done(phase="development")
    assert {"type": "play_trait", "card": card, "trait": "fat_tissue",
            "animal": a.id} in st.legal_moves(0)


@pytest.mark.rule("E-3.1", "E-5.16")
def test_e3_1_scavenger_never_with_carnivorous() -> None:
    """E-3.1 / E-5.16 Scavenger: never on a Carnivorous animal and vice versa."""
    st, mine, _other, carn, scav, hand = _dev()
    moves = st.legal_moves(0)
    assert {"type": "play_trait", "card": hand[2], "trait": "scavenger",
            "animal": carn.id} not in moves
    assert {"type": "play_trait", "card": hand[3], "trait": "carnivorous",
            "animal": scav.id} not in moves
    assert {"type": "play_trait", "card": hand[2], "trait": "scavenger",
            "animal": mine.id} in moves


@pytest.mark.rule("E-3.1")
def test_e3_1_paired_traits() -> None:
    """E-3.1: a paired trait links two of your animals; the same pair never twice with one
    paired trait, but an animal may be in several pairs."""
    st, mine, other, carn, scav, hand = _dev()
    rng = random.Random(0)
    move = {"type": "play_pair", "card": hand[5], "trait": "communication",
            "animals": sorted([mine.id, carn.id])}
    assert move in st.legal_moves(0)
    assert not any(m.get("animals") and other.id in m["animals"] for m in st.legal_moves(0))
    st.apply(0, move, rng)
    st.apply(1, {"type": "pass"}, rng)
    b2 = [c for c in st.hands[0] if "communication" in faces(c)]
    assert not b2  # only one Communication in hand; check the rule with a fresh card
    card = next(c for c in st.deck if "communication" in faces(c))
    st.deck.remove(card)
    st.hands[0].append(card)
    st._legal_key = None
    moves = st.legal_moves(0)
    assert {"type": "play_pair", "card": card, "trait": "communication",
            "animals": sorted([mine.id, carn.id])} not in moves
    assert {"type": "play_pair", "card": card, "trait": "communication",
            "animals": sorted([mine.id, scav.id])} in moves
    # Symbiosis: both orientations (the first animal is the symbiont).
    assert {"type": "play_pair", "card": hand[4], "trait": "symbiosis",
            "animals": [mine.id, carn.id]} in moves
    assert {"type": "play_pair", "card": hand[4], "trait": "symbiosis",
            "animals": [carn.id, mine.id]} in moves


@pytest.mark.rule("E-3.1")
def test_e3_1_pass_is_final_and_no_cards_is_pass() -> None:
    """E-3.1: a passed seat plays no more cards this phase; no cards = pass."""
    st, *_, _hand = _dev()
    rng = random.Random(0)
    st.apply(0, {"type": "pass"}, rng)
    assert st.to_move() == [1]
    st.apply(1, {"type": "play_animal", "card": st.hands[1][0]}, rng)
    # Seat 1 had one card: it is out of cards, so it passed too; development is over.
    assert st.phase == "feeding"


@pytest.mark.rule("E-3.1")
def test_e3_1_turns_alternate_clockwise() -> None:
    """E-3: players act one action at a time, clockwise from the first player."""
    st = GAME.new_state(3, {}, random.Random(1))
    rng = random.Random(0)
    order = []
    for _ in range(6):
        seat = st.to_move()[0]
        order.append(seat)
        st.apply(seat, {"type": "play_animal", "card": st.hands[seat][0]}, rng)
    f = order[0]
    assert order == [(f + k) % 3 for k in range(6)]


@pytest.mark.parametrize(("players", "dice", "plus"),
                         [(2, 1, 2), (3, 2, 0), (4, 2, 2), (5, 3, 2), (6, 3, 4), (7, 4, 2),
                          (8, 4, 4)])
@pytest.mark.rule("E-3.2")
def test_e3_2_food_bank_dice(players: int, dice: int, plus: int) -> None:
    """E-3.2: the food bank per player count (the rulebook's table), rolled after development."""
    b = Builder(players)
    for seat in range(players):
        b.animal(seat)
    st = b.done(phase="development")
    rolls = [6, 5, 4, 3][:dice]
    rng = ScriptedRng(rolls)
    events = []
    for seat in range(players):
        events += st.apply(seat, {"type": "pass"}, rng)
    bank = [e for e in events if e["type"] == "food_bank"]
    assert bank == [{"type": "food_bank", "dice": rolls, "plus": plus,
                     "bank": sum(rolls) + plus}]
    assert "audience" not in bank[0]
    assert st.view(None)["dice"] == rolls and st.view(None)["bank"] == sum(rolls) + plus
