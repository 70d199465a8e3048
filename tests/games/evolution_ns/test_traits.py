"""The seventeen traits (docs/rules/evolution-ns.md, N-5.1 to N-5.17), every attack checked
against every defence, and the carnivore's boosts."""

from __future__ import annotations

import random

import pytest

from shared.games.evolution_ns import feeding
from shared.games.evolution_ns.state import NSState

from .helpers import Builder

RNG = random.Random(0)


def attack(st: NSState, seat: int, species: int, tseat: int, target: int) -> None:
    st.apply(seat, {"type": "attack", "species": species, "target_seat": tseat,
                    "target": target}, RNG)


def attack_moves(st: NSState, seat: int) -> set[tuple[int, int, int]]:
    return {(m["species"], m["target_seat"], m["target"]) for m in st.legal_moves(seat)
            if m["type"] == "attack"}


@pytest.mark.rule("N-5.1")
def test_carnivore_never_eats_plant_food_and_must_attack() -> None:
    b = Builder(4)
    b.species(0, "carnivore", "long_neck", body=3, pop=2)
    b.species(1, body=2, pop=2)
    st = b.done(sentinel=True, hole=5)
    moves = st.legal_moves(0)
    assert {m["type"] for m in moves} == {"attack"}, "no plant food, no pass while it can"
    attack(st, 0, 0, 1, 0)
    assert st.species[0][0].food == 2, "meat = the victim's body size, up to hunger"
    assert st.hole == 5 and st.species[1][0].pop == 1
    # N-5.13 with N-5.1: Long Neck gives a carnivore nothing at the start of feeding
    assert not feeding._effect_applies(st, st.species[0][0], "long_neck")


def test_n5_1_carnivore_cannot_attack_itself_or_a_larger_species() -> None:
    b = Builder(4)
    b.species(0, "carnivore", body=2, pop=1)
    b.species(0, body=1, pop=1)
    b.species(1, body=2, pop=1)
    st = b.done(sentinel=True, hole=0)
    assert attack_moves(st, 0) == {(0, 0, 1)}, "own smaller species only: never itself, " \
        "never an equal body size"


# -- defences and their counters (N-3.6) -------------------------------------------------------

DEFENCES = [
    # (trait on the target or its neighbour, attacker traits that overcome it, extra setup)
    ("burrowing", "hungry target"),
    ("climbing", "climbing"),
    ("defensive_herding", "larger population"),
    ("hard_shell", "body size beyond +4"),
    ("symbiosis", "right neighbour not larger"),
    ("warning_call", "ambush"),
]


def defence_position(defence: str, counter: bool) -> tuple[NSState, int]:
    """Seat 0's carnivore (species 0) against seat 1's species; returns (state, target)."""
    b = Builder(4)
    attacker_traits = ["carnivore"]
    body, pop = 3, 2
    if defence == "climbing" and counter:
        attacker_traits.append("climbing")
    if defence == "warning_call" and counter:
        attacker_traits.append("ambush")
    if defence == "hard_shell" and counter:
        body = 6
    if defence == "defensive_herding" and counter:
        pop = 3
    b.species(0, *attacker_traits, body=body, pop=pop)
    target = 0
    if defence == "burrowing":
        b.species(1, "burrowing", body=1, pop=2, food=1 if counter else 2)
    elif defence == "symbiosis":
        b.species(1, "symbiosis", body=1, pop=2)
        b.species(1, body=1 if counter else 2, pop=1)
    elif defence == "warning_call":
        b.species(1, body=1, pop=2)
        b.species(1, "warning_call", body=1, pop=1)
    else:
        b.species(1, defence, body=1, pop=2)
    return b.done(sentinel=True, hole=0), target


@pytest.mark.rule("N-3.6", "N-5.2", "N-5.3", "N-5.4", "N-5.6", "N-5.10", "N-5.16", "N-5.17")
@pytest.mark.parametrize(("defence", "counter"), DEFENCES)
def test_each_defence_blocks_until_its_counter(defence: str, counter: str) -> None:
    blocked, target = defence_position(defence, counter=False)
    assert (0, 1, target) not in attack_moves(blocked, 0), f"{defence} must block"
    open_, target = defence_position(defence, counter=True)
    assert (0, 1, target) in attack_moves(open_, 0), f"{counter} must overcome {defence}"


@pytest.mark.rule("N-5.12", "N-3.6")
@pytest.mark.parametrize("defence", [d for d, _ in DEFENCES])
def test_intelligence_negates_each_defence_with_a_card(defence: str) -> None:
    b = Builder(4)
    b.species(0, "carnivore", "intelligence", body=3, pop=2)
    if defence == "burrowing":
        b.species(1, "burrowing", body=1, pop=2, food=2)
    elif defence == "symbiosis":
        b.species(1, "symbiosis", body=1, pop=2)
        b.species(1, body=2, pop=1)
    elif defence == "warning_call":
        b.species(1, body=1, pop=2)
        b.species(1, "warning_call", body=1, pop=1)
    else:
        b.species(1, defence, body=1, pop=2)
    st = b.done(sentinel=True, hole=0)
    assert (0, 1, 0) not in attack_moves(st, 0), "no card, no negation"
    b2 = NSState.from_json(st.to_json())
    card = st.deck[0]
    b2.deck.remove(card)
    b2.hands[0].append(card)
    assert (0, 1, 0) in attack_moves(b2, 0)
    attack(b2, 0, 0, 1, 0)
    assert b2.pending is not None and b2.to_move() == [0]
    name = "warning_call_right" if defence == "warning_call" else defence
    assert {m["type"] for m in b2.legal_moves(0)} == {"negate"}, "strike needs the negation"
    b2.apply(0, {"type": "negate", "trait": name, "card": card}, RNG)
    assert b2.pending is None and card in b2.discard
    assert b2.species[1][0].pop == 1 and b2.species[0][0].food == 1


@pytest.mark.rule("N-5.11")
def test_horns_cost_the_attacker_a_population_first() -> None:
    b = Builder(4)
    b.species(0, "carnivore", body=3, pop=3, food=1)
    b.species(1, "horns", body=2, pop=2)
    st = b.done(sentinel=True, hole=0)
    attack(st, 0, 0, 1, 0)
    att = st.species[0][0]
    assert att.pop == 2 and att.food == 2, "lost 1 population, then ate 1 (hunger left)"
    assert st.species[1][0].pop == 1


def test_n5_11_horns_can_kill_the_attacker_which_then_eats_nothing() -> None:
    b = Builder(4)
    b.species(0, "carnivore", body=3, pop=1)
    b.species(0, "scavenger", body=1, pop=2)
    b.species(1, "horns", body=2, pop=2)
    st = b.done(sentinel=True, hole=0)
    attack(st, 0, 0, 1, 0)
    assert len(st.species[0]) == 1 and st.species[0][0].has("scavenger")
    assert st.species[1][0].pop == 1, "the target still loses 1 population"
    assert st.species[0][0].food == 1, "the attack still happened: the Scavenger eats"


def test_n5_12_intelligence_may_negate_horns_and_then_strike() -> None:
    b = Builder(4)
    b.species(0, "carnivore", "intelligence", body=3, pop=2)
    b.species(1, "horns", body=2, pop=2)
    card = b.hand(0, "fertile")[0]
    st = b.done(sentinel=True, hole=0)
    attack(st, 0, 0, 1, 0)
    moves = st.legal_moves(0)
    assert {"type": "strike"} in moves
    assert {"type": "negate", "trait": "horns", "card": card} in moves
    st.apply(0, {"type": "negate", "trait": "horns", "card": card}, RNG)
    assert st.species[0][0].pop == 2 and st.species[0][0].food == 2


def test_n5_12_intelligence_non_carnivore_takes_plant_food_from_the_bank() -> None:
    b = Builder(4)
    b.species(0, "intelligence", "cooperation", body=1, pop=3)
    b.species(0, body=1, pop=2)
    card = b.hand(0, "horns")[0]
    st = b.done(sentinel=True, hole=0)
    moves = st.legal_moves(0)
    assert moves == [{"type": "intelligence", "species": 0, "card": card},
                     {"type": "pass"}], "the only feeding with an empty hole, not forced"
    st.apply(0, moves[0], RNG)
    assert st.species[0][0].food == 2 and st.species[0][1].food == 1, "2 food, Cooperation"
    assert st.hole == 0 and card in st.discard and st.bank_out == 3


@pytest.mark.rule("N-5.14")
def test_pack_hunting_adds_population_to_body_size() -> None:
    b = Builder(4)
    b.species(0, "carnivore", "pack_hunting", body=1, pop=3)
    b.species(1, body=3, pop=1)
    b.species(1, body=4, pop=1)
    st = b.done(sentinel=True, hole=0)
    assert attack_moves(st, 0) == {(0, 1, 0)}, "1 + 3 beats body 3, not body 4"
    attack(st, 0, 0, 1, 0)
    assert st.species[0][0].food == 3, "meat is the victim's body size"


def test_n5_10_hard_shell_meat_is_the_real_body_size() -> None:
    b = Builder(4)
    b.species(0, "carnivore", body=6, pop=6)
    b.species(1, "hard_shell", body=1, pop=1)
    st = b.done(sentinel=True, hole=0)
    attack(st, 0, 0, 1, 0)
    assert st.species[0][0].food == 1 and not st.species[1]


@pytest.mark.rule("N-5.15")
def test_scavengers_take_meat_after_every_attack_clockwise() -> None:
    b = Builder(4)
    b.species(0, "carnivore", body=3, pop=2)
    b.species(0, "scavenger", body=1, pop=2)
    b.species(1, body=1, pop=2)
    b.species(2, "scavenger", "carnivore", body=2, pop=1)
    st = b.done(sentinel=True, hole=0)
    attack(st, 0, 0, 1, 0)
    assert st.species[0][1].food == 1 and st.species[2][0].food == 1
    assert st.bank_out == 1 + 1 + 1


@pytest.mark.rule("N-5.5")
def test_cooperation_chains_to_the_right_from_the_same_source() -> None:
    b = Builder(4)
    b.species(0, "cooperation", body=1, pop=2)
    b.species(0, "cooperation", body=1, pop=2)
    b.species(0, body=1, pop=2)
    st = b.done(sentinel=True, hole=2)
    st.apply(0, {"type": "eat", "species": 0}, RNG)
    foods = [sp.food for sp in st.species[0]]
    assert foods == [1, 1, 0] and st.hole == 0, "the chain stops when the hole is empty"


def test_n5_5_cooperation_from_an_attack_takes_from_the_bank() -> None:
    b = Builder(4)
    b.species(0, "carnivore", "cooperation", body=3, pop=2)
    b.species(0, body=1, pop=2)
    b.species(1, body=2, pop=2)
    st = b.done(sentinel=True, hole=0)
    attack(st, 0, 0, 1, 0)
    assert st.species[0][1].food == 1 and st.species[0][0].food == 2


@pytest.mark.rule("N-5.7")
def test_fat_tissue_stores_food_up_to_body_size_and_returns_it() -> None:
    b = Builder(4)
    b.species(0, "fat_tissue", body=2, pop=1, food=1)
    st = b.done(sentinel=True, hole=5)
    assert st.legal_moves(0) == [{"type": "eat", "species": 0}, {"type": "pass"}], \
        "storing is optional (N-3.9)"
    st.apply(0, {"type": "eat", "species": 0}, RNG)
    assert st.species[0][0].fat == 1
    sp = st.species[0][0]
    sp.food, sp.fat = 0, 2
    feeding._resolve_effect(st, 0, 0, "fat_tissue", [])
    assert sp.food == 1 and sp.fat == 1, "onto the species up to its population"


@pytest.mark.rule("N-5.8")
@pytest.mark.parametrize(("hole", "grows"), [(1, True), (0, False)])
def test_fertile_grows_when_the_watering_hole_has_food(hole: int, grows: bool) -> None:
    b = Builder(4)
    b.species(0, "fertile", body=1, pop=2)
    st = b.done(sentinel=True, phase="play", hole=hole)
    st.food_cards = [None, None, None]
    feeding.start_feeding(st, RNG, [])
    assert st.species[0][0].pop == (3 if grows else 2)


@pytest.mark.rule("N-5.9")
def test_foraging_takes_two_plant_food_when_it_has_room() -> None:
    b = Builder(4)
    b.species(0, "foraging", body=1, pop=3)
    b.species(1, "foraging", body=1, pop=1)
    st = b.done(sentinel=True, hole=5)
    st.apply(0, {"type": "eat", "species": 0}, RNG)
    assert st.species[0][0].food == 2 and st.hole == 3
    st.apply(1, {"type": "eat", "species": 0}, RNG)
    assert st.species[1][0].food == 1 and st.hole == 2, "no room for the second"


@pytest.mark.rule("N-5.13")
def test_long_neck_takes_plant_food_from_the_bank_at_the_start() -> None:
    b = Builder(4)
    b.species(0, "long_neck", "cooperation", body=1, pop=2)
    b.species(0, body=1, pop=1)
    st = b.done(sentinel=True, phase="play", hole=0)
    st.food_cards = [None, None, None]
    feeding.start_feeding(st, RNG, [])
    assert st.species[0][0].food == 1 and st.species[0][1].food == 1 and st.hole == 0
    assert st.bank_out == 2


@pytest.mark.rule("N-5.16")
def test_symbiosis_counts_printed_body_sizes() -> None:
    b = Builder(4)
    b.species(0, "carnivore", body=6, pop=2)
    b.species(1, "symbiosis", body=1, pop=1)
    b.species(1, "hard_shell", body=1, pop=1)
    st = b.done(sentinel=True, hole=0)
    # the neighbour's Hard Shell makes it no larger for Symbiosis
    assert (0, 1, 0) in attack_moves(st, 0)


@pytest.mark.rule("N-5.17")
def test_warning_call_protects_neighbours_not_itself() -> None:
    b = Builder(4)
    b.species(0, "carnivore", body=3, pop=2)
    b.species(1, body=1, pop=1)
    b.species(1, "warning_call", body=1, pop=1)
    b.species(1, body=1, pop=1)
    b.species(1, body=1, pop=1)
    st = b.done(sentinel=True, hole=0)
    assert {t for _, s, t in attack_moves(st, 0) if s == 1} == {1, 3}


@pytest.mark.rule("N-5.5", "N-5.1")
def test_n5_5_cooperation_never_passes_plant_food_from_the_bank_to_a_carnivore() -> None:
    # Long Neck's plant food comes from the bank; Cooperation passes plant food on, and a
    # carnivore to the right may not take it (the seed: "mięsożercy nigdy nie mogą spożywać
    # pokarmu roślinnego")
    b = Builder(4)
    b.species(0, "long_neck", "cooperation", body=1, pop=2)
    b.species(0, "carnivore", body=2, pop=2)
    b.species(1, body=5, pop=1)
    st = b.done(sentinel=True, phase="play", hole=0)
    st.food_cards = [None] * 4
    feeding.start_feeding(st, RNG, [])
    assert st.species[0][0].food == 1 and st.species[0][1].food == 0
    assert st.bank_out == 1
    # a non-carnivore's Intelligence takes plant food from the bank: the same
    b = Builder(4)
    b.species(0, "intelligence", "cooperation", body=1, pop=3)
    b.species(0, "carnivore", body=2, pop=2)
    b.species(1, body=5, pop=1)
    card = b.hand(0, "horns")[0]
    st = b.done(sentinel=True, hole=0)
    events = st.apply(0, {"type": "intelligence", "species": 0, "card": card}, RNG)
    assert st.species[0][0].food == 2 and st.species[0][1].food == 0
    assert not [e for e in events if e["type"] == "cooperation"] and st.bank_out == 2
    # meat from the bank (a Scavenger's) is food a carnivore to the right may take
    b = Builder(4)
    b.species(0, "carnivore", body=3, pop=2)
    b.species(0, "scavenger", "cooperation", body=1, pop=2)
    b.species(0, "carnivore", body=1, pop=2)
    b.species(1, body=1, pop=2)
    st = b.done(sentinel=True, hole=0)
    attack(st, 0, 0, 1, 0)
    assert [sp.food for sp in st.species[0]] == [1, 1, 1]


@pytest.mark.rule("N-5.12", "N-3.9")
def test_n5_12_discarding_a_card_for_intelligence_is_never_forced() -> None:
    # a hungry non-carnivore with an empty watering hole may pass instead of discarding
    b = Builder(4)
    b.species(0, "intelligence", body=1, pop=2)
    cards = b.hand(0, "carnivore", "long_neck")
    st = b.done(sentinel=True, hole=0)
    assert st.legal_moves(0) == [
        *({"type": "intelligence", "species": 0, "card": c} for c in cards), {"type": "pass"}]
    # a carnivore whose only target needs a defence negated may pass instead of attacking
    b = Builder(4)
    b.species(0, "carnivore", "intelligence", body=3, pop=1)
    b.species(1, "climbing", body=1, pop=1)
    b.hand(0, "long_neck")
    st = b.done(sentinel=True, hole=0)
    assert st.legal_moves(0) == [
        {"type": "attack", "species": 0, "target_seat": 1, "target": 0}, {"type": "pass"}]
    st.apply(0, {"type": "pass"}, RNG)
    assert st.passed[0] and st.to_move() == [3] and len(st.hands[0]) == 1
    # a feeding that needs no card stays compulsory: no pass
    b = Builder(4)
    b.species(0, "intelligence", body=1, pop=2)
    card = b.hand(0, "long_neck")[0]
    st = b.done(sentinel=True, hole=2)
    assert st.legal_moves(0) == [{"type": "eat", "species": 0},
                                 {"type": "intelligence", "species": 0, "card": card}]
