"""The feeding turn and the owner's choices: docs/rules/evolution.md, rules E-3.5-E-3.8,
E-5.16 and E-5.17 (each test failed on the engine before rules version evolution-2)."""

from __future__ import annotations

import random

import pytest

from shared.kernel.protocol import IllegalMove

from .helpers import Builder, types

RNG = random.Random(0)


def _trait_moves(st, seat: int) -> list[dict]:
    return [m for m in st.legal_moves(seat) if m["type"] == "use_trait"]


# -- E-3.5: one action per turn -------------------------------------------------------------

@pytest.mark.rule("E-3.5")
def test_one_take_and_one_trait_use_per_turn() -> None:
    """A take and one feeding-trait use together, never a second trait use."""
    b = Builder(2)
    grazer = b.animal(0, "grazing", "high_body_weight")
    other_grazer = b.animal(0, "grazing", "high_body_weight")
    pirate = b.animal(0, "piracy", "high_body_weight")
    victim = b.animal(1, "high_body_weight", food=1)
    st = b.done(bank=8)
    st.apply(0, {"type": "take_food", "animal": grazer.id}, RNG)
    assert len(_trait_moves(st, 0)) == 4  # two Grazings, Piracy: one of them
    st.apply(0, {"type": "use_trait", "trait": "grazing", "animal": grazer.id}, RNG)
    # Nothing is left for this turn: no second Grazing, no Piracy; the turn passed on.
    assert st.to_move() == [1]
    assert st.bank == 6 and victim.food == 1 and pirate.food == 0
    assert other_grazer.food == 0


@pytest.mark.rule("E-3.5")
def test_a_trait_use_instead_of_the_take_then_the_take() -> None:
    """A trait use first; the take may follow in the same turn; then the turn is over."""
    b = Builder(2)
    pirate = b.animal(0, "piracy", "grazing", "high_body_weight")
    victim = b.animal(1, "high_body_weight", food=1)
    st = b.done(bank=5)
    st.apply(0, {"type": "use_trait", "trait": "piracy", "animal": pirate.id,
                 "target": victim.id}, RNG)
    assert st.to_move() == [0] and types(st.legal_moves(0)) == {"take_food", "end_turn",
                                                                 "pass"}
    with pytest.raises(IllegalMove, match="one per turn"):
        st.apply(0, {"type": "use_trait", "trait": "grazing", "animal": pirate.id}, RNG)
    st.apply(0, {"type": "take_food", "animal": pirate.id}, RNG)
    assert st.to_move() == [1] and pirate.food == 2 and st.bank == 4


@pytest.mark.rule("E-3.5")
def test_an_attack_takes_the_place_of_the_take() -> None:
    """An attack (or a fat burn) is the turn's food action: no take after it."""
    b = Builder(2)
    c = b.animal(0, "carnivorous", "grazing", "high_body_weight")
    v = b.animal(1)
    b.animal(1)
    st = b.done(bank=5)
    st.apply(0, {"type": "attack", "carnivore": c.id, "target": v.id}, RNG)
    assert st.to_move() == [0]  # Grazing may still go with the attack
    assert types(st.legal_moves(0)) == {"use_trait", "end_turn", "pass"}


# -- E-3.6: a seat whose animals are all fed may still graze ----------------------------------

@pytest.mark.rule("E-3.6")
def test_fully_fed_seat_may_still_graze() -> None:
    """Only taking is barred: a fed seat with Grazing keeps its turns and may graze."""
    b = Builder(2)
    grazer = b.animal(0, "grazing", food=1)  # fed, no Fat Tissue
    hungry = b.animal(1, "high_body_weight", "parasite")
    st = b.done(bank=5, turn=1)
    events = st.apply(1, {"type": "take_food", "animal": hungry.id}, RNG)
    assert {"type": "skipped", "seat": 0} not in events
    assert st.to_move() == [0]
    assert st.legal_moves(0) == [{"type": "use_trait", "trait": "grazing",
                                  "animal": grazer.id}, {"type": "pass"}]
    st.apply(0, {"type": "use_trait", "trait": "grazing", "animal": grazer.id}, RNG)
    assert st.bank == 3 and st.to_move() == [1]  # the turn ended by itself


@pytest.mark.rule("E-3.6", "E-3.9")
def test_fed_seat_without_grazing_is_skipped_and_phase_ends_when_all_are_full() -> None:
    """A seat with no action at all is skipped; once every animal is fed with full fat
    the phase ends (only Grazing could be left)."""
    b = Builder(3)
    b.animal(0)
    b.animal(1, food=1)
    c = b.animal(2, "high_body_weight")
    b.animal(2, "grazing", food=1)
    st = b.done(bank=5)
    events = st.apply(0, {"type": "take_food", "animal": 1}, RNG)
    assert {"type": "skipped", "seat": 1} in events and st.to_move() == [2]
    st.apply(2, {"type": "take_food", "animal": c.id}, RNG)
    assert st.to_move() == [2]  # Grazing may still go with the take
    events = st.apply(2, {"type": "end_turn"}, RNG)
    assert {"type": "skipped", "seat": 0} in events and st.to_move() == [2]
    events = st.apply(2, {"type": "take_food", "animal": c.id}, RNG)
    # Every animal is fed, no Fat Tissue anywhere: the phase is over although seat 2 could
    # still graze.
    assert {"type": "bank_returned", "tokens": 2} in events and st.round == 2


# -- E-3.8: the owner decides ----------------------------------------------------------------

@pytest.mark.rule("E-3.8", "E-5.3")
def test_owner_orders_paired_traits_when_tokens_run_short() -> None:
    """Two Communication cards, one red token left: the owner picks who gets it."""
    b = Builder(2)
    x, y, z = b.animal(0), b.animal(0), b.animal(0)
    to_y = b.pair("communication", x, y)
    to_z = b.pair("communication", x, z)
    b.animal(1)
    st = b.done(bank=2)
    st.apply(0, {"type": "take_food", "animal": x.id}, RNG)
    assert st.to_move() == [0]
    assert st.legal_moves(0) == [{"type": "pair_food", "card": to_y, "animal": y.id},
                                 {"type": "pair_food", "card": to_z, "animal": z.id}]
    events = st.apply(0, {"type": "pair_food", "card": to_z, "animal": z.id}, RNG)
    assert [(e["animal"], e.get("via")) for e in events if e["type"] == "food"] == [
        (z.id, "communication")]
    # The bank is empty: the round ended, and the animal left out starved.
    assert st.round == 2 and sorted(st.animals) == sorted([x.id, z.id])


@pytest.mark.rule("E-3.8", "E-5.2", "E-5.3")
def test_owner_may_keep_a_communication_token_out_of_fat() -> None:
    """Storing in Fat Tissue is optional ("můžete"): a fed partner need not take a bank
    token through Communication."""
    b = Builder(2)
    x = b.animal(0)
    y = b.animal(0, "fat_tissue", food=1)
    card = b.pair("communication", x, y)
    b.animal(1, "high_body_weight")
    st = b.done(bank=5)
    st.apply(0, {"type": "take_food", "animal": x.id}, RNG)
    assert st.legal_moves(0) == [{"type": "pair_food", "card": card, "animal": y.id},
                                 {"type": "pair_skip", "card": card, "animal": y.id}]
    assert [st.move_label(m) for m in st.legal_moves(0)] == [
        f"Communication from your animal #{x.id} hands a food token to your animal #{y.id}",
        f"Let Communication from your animal #{x.id} give your fed animal #{y.id} nothing "
        "(no fat stored)"]
    st.apply(0, {"type": "pair_skip", "card": card, "animal": y.id}, RNG)
    assert y.fat == 0 and st.bank == 4 and st.chain is None and st.to_move() == [1]


@pytest.mark.rule("E-3.8", "E-5.1", "E-5.2")
def test_owner_decides_whether_a_kill_token_goes_into_fat() -> None:
    """The carnivore's second blue token would only fill its Fat Tissue: store or not."""
    b = Builder(2)
    c = b.animal(0, "carnivorous", "fat_tissue", food=1)
    v = b.animal(1)
    b.animal(1)
    st = b.done(bank=3)
    st.apply(0, {"type": "attack", "carnivore": c.id, "target": v.id}, RNG)
    assert c.food == 2 and st.to_move() == [0]
    assert st.legal_moves(0) == [{"type": "store_fat", "animal": c.id},
                                 {"type": "skip_fat", "animal": c.id}]
    twin = st.clone()
    st.apply(0, {"type": "store_fat", "animal": c.id}, RNG)
    assert c.fat == 1 and st.chain is None
    twin.apply(0, {"type": "skip_fat", "animal": c.id}, RNG)
    assert twin.animals[c.id].fat == 0 and twin.chain is None


@pytest.mark.rule("E-3.8", "E-5.4", "E-5.5")
def test_cooperation_feeds_the_symbiont_first_then_the_host() -> None:
    """Order matters: the host may eat only once its symbiont is fed, so the symbiont's
    token goes first and the host's follows in the same action."""
    b = Builder(2)
    x = b.animal(0)
    host = b.animal(0)
    symbiont = b.animal(0)
    b.pair("cooperation", x, host)  # played first: the old fixed order tried it first
    b.pair("cooperation", x, symbiont)
    b.pair("symbiosis", symbiont, host)
    b.animal(1)
    st = b.done(bank=3)
    st.apply(0, {"type": "take_food", "animal": x.id}, RNG)
    assert (x.food, symbiont.food, host.food) == (1, 1, 1) and st.bank == 2


# -- E-5.16 Scavenger, E-5.17 Piracy -----------------------------------------------------------

@pytest.mark.rule("E-5.16")
def test_attackers_owner_chooses_which_scavenger_eats() -> None:
    b = Builder(2)
    c = b.animal(0, "carnivorous")
    first = b.animal(0, "scavenger")
    second = b.animal(0, "scavenger")
    v = b.animal(1)
    b.animal(1)
    st = b.done(bank=3)
    st.apply(0, {"type": "attack", "carnivore": c.id, "target": v.id}, RNG)
    assert st.to_move() == [0]
    assert st.legal_moves(0) == [{"type": "scavenger", "animal": first.id},
                                 {"type": "scavenger", "animal": second.id}]
    st.apply(0, {"type": "scavenger", "animal": second.id}, RNG)
    assert (first.food, second.food) == (0, 1) and st.chain is None


@pytest.mark.rule("E-5.17")
def test_piracy_needs_a_gain_this_round_and_burnt_fat_is_none() -> None:
    """An animal fed from its own fat has gained nothing: no Piracy target."""
    b = Builder(2)
    pirate = b.animal(0, "piracy")
    b.animal(0, "high_body_weight")
    burner = b.animal(1, "high_body_weight", "fat_tissue", "fat_tissue", fat=1)
    st = b.done(bank=5, turn=1)
    st.apply(1, {"type": "burn_fat", "animal": burner.id, "amount": 1}, RNG)
    assert burner.food == 1 and burner.needs() == 1 and st.to_move() == [0]
    assert not any(m.get("trait") == "piracy" for m in st.legal_moves(0))
    st.apply(0, {"type": "take_food", "animal": pirate.id}, RNG)
    st.apply(1, {"type": "take_food", "animal": burner.id}, RNG)  # fed now: still no target
    assert burner.is_fed() and not any(m.get("trait") == "piracy"
                                       for m in st.legal_moves(0))
