"""Every trait: docs/rules/evolution.md, rules E-5.1-E-5.20 (attacks against every
defence, and the feeding traits)."""

from __future__ import annotations

import random

import pytest

from shared.kernel.protocol import IllegalMove, NotYourTurn

from .helpers import Builder, ScriptedRng, all_cards, types

RNG = random.Random(0)


def atk(c: int, t: int) -> dict:
    return {"type": "attack", "carnivore": c, "target": t}


def attack_targets(st, seat: int, carnivore: int) -> set[int]:
    return {m["target"] for m in st.legal_moves(seat)
            if m["type"] == "attack" and m["carnivore"] == carnivore}


# -- Carnivorous ----------------------------------------------------------------------------

@pytest.mark.rule("E-5.1")
def test_e5_carnivorous_kill_gives_two_blue() -> None:
    """Carnivorous (E-5.1): the victim dies with its traits; the carnivore gets 2 blue."""
    b = Builder(2)
    c = b.animal(0, "carnivorous")
    v = b.animal(1, "running", "fat_tissue")
    v.traits = [t for t in v.traits if t[1] != "running"]  # no defence here
    b.animal(1)
    st = b.done(bank=3)
    before = sorted(all_cards(st))
    events = st.apply(0, atk(c.id, v.id), RNG)
    assert v.id not in st.animals and c.food == 2
    assert [e["via"] for e in events if e["type"] == "food"] == ["carnivorous"] * 2
    assert v.card in st.discards[1] and sorted(all_cards(st)) == before


@pytest.mark.rule("E-5.1", "E-3.5")
def test_e5_carnivorous_once_per_round_and_main_action() -> None:
    """Carnivorous (E-5.1): an attack replaces taking food this turn; once per round."""
    b = Builder(2)
    c = b.animal(0, "carnivorous", "high_body_weight")
    v1, v2 = b.animal(1), b.animal(1)
    st = b.done(bank=5)
    st.apply(0, atk(c.id, v1.id), RNG)
    assert c.attacked and st.to_move() == [1]
    st.apply(1, {"type": "take_food", "animal": v2.id}, RNG)
    assert "attack" not in types(st.legal_moves(0))
    # DECISION: "V tomto kole" is this go-round: the carnivore may take from the bank in a
    # later turn of the same round.
    assert {"type": "take_food", "animal": c.id} in st.legal_moves(0)


@pytest.mark.rule("E-5.1")
def test_e5_carnivorous_one_carnivore_per_phase_seed() -> None:
    """Carnivorous (E-5.1) (seed): in a feeding phase only one of your carnivores may attack."""
    b = Builder(2)
    c1 = b.animal(0, "carnivorous")
    c2 = b.animal(0, "carnivorous")
    v1, v2 = b.animal(1, "high_body_weight"), b.animal(1, "high_body_weight")
    b.animal(1)
    st = b.done(bank=5)
    st.apply(0, atk(c1.id, 5), RNG)
    st.apply(1, {"type": "take_food", "animal": v1.id}, RNG)
    assert not attack_targets(st, 0, c2.id)
    with pytest.raises(IllegalMove, match="one of your carnivores"):
        st.apply(0, atk(c2.id, v2.id), RNG)


@pytest.mark.rule("E-5.1")
def test_e5_carnivorous_not_when_fed_and_fat_full() -> None:
    """Carnivorous (E-5.1): not usable when fed with full fat; usable fed with fat space."""
    b = Builder(2)
    c = b.animal(0, "carnivorous", food=2)
    v = b.animal(1)
    st = b.done(bank=5)
    assert not attack_targets(st, 0, c.id)
    c.traits = [*c.traits, (b.st.deck[0], "fat_tissue")]  # just a capacity for this check
    st._legal_key = None
    assert attack_targets(st, 0, c.id) == {v.id}


@pytest.mark.rule("E-5.1")
def test_e5_carnivorous_with_empty_bank_and_own_animal() -> None:
    """Carnivorous (E-5.1): usable when the bank is empty; it may attack your own animal."""
    b = Builder(2)
    c = b.animal(0, "carnivorous", food=1)
    own = b.animal(0)
    b.animal(1)
    st = b.done(bank=0)
    assert attack_targets(st, 0, c.id) == {own.id, 3}
    st.apply(0, atk(c.id, own.id), RNG)
    assert own.id not in st.animals


# -- protections ----------------------------------------------------------------------------

@pytest.mark.rule("E-5.6", "E-5.7")
def test_e5_camouflage_and_sharp_vision() -> None:
    """Camouflage (E-5.6): only a carnivore with Sharp Vision may attack it."""
    b = Builder(2)
    blind = b.animal(0, "carnivorous")
    sharp = b.animal(0, "carnivorous", "sharp_vision")
    cam = b.animal(1, "camouflage")
    st = b.done(bank=1)
    assert cam.id not in attack_targets(st, 0, blind.id)
    assert cam.id in attack_targets(st, 0, sharp.id)


@pytest.mark.rule("E-5.8")
def test_e5_burrowing_only_when_fed() -> None:
    """Burrowing (E-5.8): cannot be attacked while fed."""
    b = Builder(2)
    c = b.animal(0, "carnivorous")
    burrow = b.animal(1, "burrowing")
    st = b.done(bank=1)
    assert burrow.id in attack_targets(st, 0, c.id)
    burrow.food = 1
    st._legal_key = None
    assert burrow.id not in attack_targets(st, 0, c.id)


@pytest.mark.rule("E-5.9")
def test_e5_swimming_both_ways() -> None:
    """Swimming (E-5.9): only a swimming carnivore attacks it, and it attacks only swimmers."""
    b = Builder(2)
    land = b.animal(0, "carnivorous")
    sea = b.animal(0, "carnivorous", "swimming")
    fish = b.animal(1, "swimming")
    cow = b.animal(1)
    st = b.done(bank=1)
    assert attack_targets(st, 0, land.id) == {cow.id}
    assert attack_targets(st, 0, sea.id) == {fish.id}


@pytest.mark.rule("E-5.10")
def test_e5_high_body_weight() -> None:
    """High Body Weight (E-5.10): only a carnivore with HBW attacks it."""
    b = Builder(2)
    small = b.animal(0, "carnivorous")
    big = b.animal(0, "carnivorous", "high_body_weight")
    heavy = b.animal(1, "high_body_weight")
    st = b.done(bank=1)
    assert heavy.id not in attack_targets(st, 0, small.id)
    assert heavy.id in attack_targets(st, 0, big.id)


@pytest.mark.rule("E-5.5")
def test_e5_symbiosis_protects_host_and_limits_its_food() -> None:
    """Symbiosis (E-5.5): the host cannot be attacked while the symbiont lives, and gets food
    only once the symbiont is fed."""
    b = Builder(2)
    c = b.animal(0, "carnivorous")
    symbiont = b.animal(1, "carnivorous")
    host = b.animal(1)
    b.pair("symbiosis", symbiont, host)
    st = b.done(bank=5, turn=1)
    assert not st.can_take(host)
    assert {"type": "take_food", "animal": host.id} not in st.legal_moves(1)
    symbiont.food = 2
    st.turn = 0
    st._legal_key = None
    assert st.can_take(host)
    assert attack_targets(st, 0, c.id) == {symbiont.id}


@pytest.mark.rule("E-5.5")
def test_e5_symbiosis_host_attacks_only_once_its_symbiont_is_fed() -> None:
    """DECISION: an attack feeds the attacker, and the host may get food only once its
    symbiont is fed: a carnivorous host attacks only then."""
    b = Builder(2)
    symbiont = b.animal(0)
    host = b.animal(0, "carnivorous")
    b.pair("symbiosis", symbiont, host)
    prey = b.animal(1)
    st = b.done(bank=5)
    assert not attack_targets(st, 0, host.id)
    st.apply(0, {"type": "take_food", "animal": symbiont.id}, RNG)
    st.apply(1, {"type": "take_food", "animal": prey.id}, RNG)
    assert symbiont.is_fed() and prey.id in attack_targets(st, 0, host.id)


# -- reactions: decisions of the defending seat ---------------------------------------------

def _running_position(*traits: str) -> tuple:
    b = Builder(2)
    c = b.animal(0, "carnivorous")
    t = b.animal(1, *traits)
    other = b.animal(1)
    st = b.done(bank=5)
    return st, c, t, other


@pytest.mark.rule("E-5.11")
def test_e5_running_escape_on_four_to_six() -> None:
    """Running (E-5.11): the DEFENDER decides; die 4-6 escapes; the attacker cannot attack again."""
    st, c, t, _ = _running_position("running")
    st.apply(0, atk(c.id, t.id), RNG)
    assert st.to_move() == [1]
    assert st.legal_moves(1) == [{"type": "defend", "trait": "running"}, {"type": "decline"}]
    with pytest.raises(NotYourTurn):
        st.apply(0, {"type": "pass"}, RNG)
    events = st.apply(1, {"type": "defend", "trait": "running"}, ScriptedRng([4]))
    assert {"type": "running", "seat": 1, "animal": t.id, "die": 4, "escaped": True} in events
    assert t.id in st.animals and c.food == 0 and st.last_die == 4
    assert st.view(None)["last_die"] == 4


@pytest.mark.rule("E-5.11")
def test_e5_running_fails_on_one_to_three() -> None:
    """Running (E-5.11): die 1-3 does not escape; with no other defence the animal is eaten."""
    st, c, t, _ = _running_position("running")
    st.apply(0, atk(c.id, t.id), RNG)
    st.apply(1, {"type": "defend", "trait": "running"}, ScriptedRng([3]))
    assert t.id not in st.animals and c.food == 2


@pytest.mark.rule("E-5.20", "E-5.11", "E-5.13")
def test_e5_running_then_tail_loss_in_chosen_order() -> None:
    """Rule E-5.20: the owner orders the reactions: Running first, then Tail Loss."""
    st, c, t, _ = _running_position("running", "tail_loss", "swimming")
    c.traits = [*c.traits, (st.deck.pop(), "swimming")]
    st.apply(0, atk(c.id, t.id), RNG)
    moves = st.legal_moves(1)
    assert {"type": "defend", "trait": "running"} in moves
    assert sum(m.get("trait") == "tail_loss" for m in moves) == 3
    st.apply(1, {"type": "defend", "trait": "running"}, ScriptedRng([2]))
    assert st.to_move() == [1]  # failed: still the defender's decision
    assert {"type": "defend", "trait": "running"} not in st.legal_moves(1)
    swim_card = next(card for card, tr in t.traits if tr == "swimming")
    st.apply(1, {"type": "defend", "trait": "tail_loss", "card": swim_card}, RNG)
    assert t.id in st.animals and not t.has("swimming") and c.food == 1
    assert swim_card in st.discards[1]


@pytest.mark.rule("E-5.13")
def test_e5_tail_loss_first_then_nothing_else() -> None:
    """Tail Loss (E-5.13): dropping a trait ends the attack; the carnivore gets 1 blue token."""
    st, c, t, _ = _running_position("tail_loss", "running")
    st.apply(0, atk(c.id, t.id), RNG)
    tail = next(card for card, tr in t.traits if tr == "tail_loss")
    events = st.apply(1, {"type": "defend", "trait": "tail_loss", "card": tail}, RNG)
    assert t.id in st.animals and t.traits == ((t.traits[0][0], "running"),)
    assert c.food == 1 and any(e["type"] == "tail_loss" for e in events)
    assert st.pending is None


@pytest.mark.rule("E-5.12")
def test_e5_mimicry_redirects_to_attackable_animal() -> None:
    """Mimicry (E-5.12): redirect to another of your animals this carnivore could attack."""
    b = Builder(2)
    c = b.animal(0, "carnivorous")
    mimic = b.animal(1, "mimicry")
    decoy = b.animal(1)
    b.animal(1, "camouflage")  # not attackable: not offered
    st = b.done(bank=5)
    st.apply(0, atk(c.id, mimic.id), RNG)
    assert st.legal_moves(1) == [{"type": "defend", "trait": "mimicry", "animal": decoy.id},
                                 {"type": "decline"}]
    st.apply(1, {"type": "defend", "trait": "mimicry", "animal": decoy.id}, RNG)
    assert decoy.id not in st.animals and mimic.id in st.animals


@pytest.mark.rule("E-5.12")
def test_e5_mimicry_unusable_without_candidate_and_once_per_attack() -> None:
    """Mimicry (E-5.12): not usable with no other attackable animal; once per attack (DECISION)."""
    b = Builder(2)
    c = b.animal(0, "carnivorous")
    m1 = b.animal(1, "mimicry")
    m2 = b.animal(1, "mimicry")
    st = b.done(bank=5)
    st.apply(0, atk(c.id, m1.id), RNG)
    st.apply(1, {"type": "defend", "trait": "mimicry", "animal": m2.id}, RNG)
    assert m2.id not in st.animals  # no second redirect: eaten at once
    b = Builder(2)
    c = b.animal(0, "carnivorous")
    lone = b.animal(1, "mimicry")
    st = b.done(bank=5)
    st.apply(0, atk(c.id, lone.id), RNG)
    assert lone.id not in st.animals


@pytest.mark.rule("E-5.14")
def test_e5_poisonous_kills_carnivore_at_extinction() -> None:
    """Poisonous (E-5.14): the carnivore that eats it dies in this round's extinction, fed
    or not."""
    b = Builder(2)
    c = b.animal(0, "carnivorous")
    p = b.animal(1, "poisonous")
    st = b.done(bank=0)
    events = st.apply(0, atk(c.id, p.id), RNG)
    assert c.poisoned and c.is_fed()
    assert c.id not in st.animals  # bank empty: phase over, extinction ran
    assert any(e["type"] == "animal_died" and e["cause"] == "poisoned" for e in events)


@pytest.mark.rule("E-5.14", "E-5.13")
def test_e5_tail_loss_against_poisonous_does_not_poison() -> None:
    """Poisonous (E-5.14) applies only when the animal is eaten."""
    b = Builder(2)
    c = b.animal(0, "carnivorous")
    p = b.animal(1, "poisonous", "tail_loss")
    b.animal(1)
    st = b.done(bank=3)
    st.apply(0, atk(c.id, p.id), RNG)
    st.apply(1, {"type": "defend", "trait": "tail_loss", "card": p.traits[0][0]}, RNG)
    assert not c.poisoned and not p.has("poisonous")


@pytest.mark.rule("E-5.16")
def test_e5_scavenger_order() -> None:
    """Scavenger (E-5.16): one scavenger gets 1 blue: the attacker's owner's first, then
    clockwise; one that cannot take food is passed over (DECISION)."""
    b = Builder(3)
    c = b.animal(1, "carnivorous")
    full = b.animal(1, "scavenger", food=1)
    v = b.animal(0)
    s2 = b.animal(2, "scavenger")
    s0 = b.animal(0, "scavenger")
    st = b.done(bank=3, turn=1)
    st.apply(1, atk(c.id, v.id), RNG)
    assert s2.food == 1 and s0.food == 0 and full.food == 1


@pytest.mark.rule("E-5.16")
def test_e5_scavenger_own_first() -> None:
    """Scavenger (E-5.16): the attacker's owner's scavenger comes first."""
    b = Builder(2)
    c = b.animal(0, "carnivorous")
    mine = b.animal(0, "scavenger")
    theirs = b.animal(1, "scavenger")
    v = b.animal(1)
    st = b.done(bank=3)
    st.apply(0, atk(c.id, v.id), RNG)
    assert mine.food == 1 and theirs.food == 0


# -- feeding traits -------------------------------------------------------------------------

@pytest.mark.rule("E-5.17")
def test_e5_piracy() -> None:
    """Piracy (E-5.17): take a token from an animal that got food but is not fed; once a round."""
    b = Builder(2)
    pirate = b.animal(0, "piracy")
    b.animal(0)
    victim = b.animal(1, "high_body_weight", food=1)
    fed = b.animal(1, food=1)
    st = b.done(bank=5)
    moves = st.legal_moves(0)
    assert {"type": "use_trait", "trait": "piracy", "animal": pirate.id,
            "target": victim.id} in moves
    assert not any(m.get("target") == fed.id for m in moves)
    st.apply(0, {"type": "use_trait", "trait": "piracy", "animal": pirate.id,
                 "target": victim.id}, RNG)
    assert victim.food == 0 and pirate.food == 1 and pirate.pirated
    assert st.to_move() == [0]  # Piracy is the trait use: the take may follow (E-3.5)
    assert "piracy" not in {m.get("trait") for m in st.legal_moves(0)}


@pytest.mark.rule("E-5.18")
def test_e5_grazing_once_per_turn() -> None:
    """Grazing (E-5.18): destroy one red token in the bank, once per turn (again next turn)."""
    b = Builder(2)
    g = b.animal(0, "grazing", "high_body_weight", "parasite")
    b.animal(1, "high_body_weight", "parasite")
    st = b.done(bank=8)
    st.apply(0, {"type": "use_trait", "trait": "grazing", "animal": g.id}, RNG)
    assert st.bank == 7
    st.apply(0, {"type": "take_food", "animal": g.id}, RNG)
    assert st.to_move() == [1]  # nothing left: the turn ended by itself
    st.apply(1, {"type": "take_food", "animal": 2}, RNG)
    assert {"type": "use_trait", "trait": "grazing", "animal": g.id} in st.legal_moves(0)


@pytest.mark.rule("E-5.15")
def test_e5_hibernation_rules() -> None:
    """Hibernation (E-5.15): counts as fed; not two rounds in a row; not in the last round."""
    b = Builder(2)
    h = b.animal(0, "hibernation", "high_body_weight")
    b.animal(1, food=1)
    st = b.done(bank=0)
    move = {"type": "use_trait", "trait": "hibernation", "animal": h.id}
    assert move in st.legal_moves(0)
    st.apply(0, move, RNG)
    assert st.round == 2 and h.id in st.animals and h.hib_round == 1
    st.phase, st.bank, st.turn, st.passed = "feeding", 0, 0, [False, False]
    st._legal_key = None
    assert move not in st.legal_moves(0)  # not two rounds in a row
    st.round = 3
    st.last_round = True
    st._legal_key = None
    assert move not in st.legal_moves(0)  # not in the last round
    st.last_round = False
    st._legal_key = None
    assert move in st.legal_moves(0)


@pytest.mark.rule("E-5.3")
def test_e5_communication_chain() -> None:
    """Communication (E-5.3): a partner takes a red token from the bank too, down the chain;
    each paired card once per action."""
    b = Builder(2)
    x, y, z = b.animal(0), b.animal(0), b.animal(0)
    b.pair("communication", x, y)
    b.pair("communication", y, z)
    b.animal(1)
    st = b.done(bank=2)
    events = st.apply(0, {"type": "take_food", "animal": x.id}, RNG)
    fed = [(e["animal"], e["token"], e.get("via")) for e in events if e["type"] == "food"]
    assert fed == [(x.id, "red", None), (y.id, "red", "communication")]  # the bank ran dry
    b = Builder(2)
    x, y, z = b.animal(0), b.animal(0), b.animal(0)
    b.pair("communication", x, y)
    b.pair("communication", y, z)
    b.animal(1)
    st = b.done(bank=5)
    st.apply(0, {"type": "take_food", "animal": y.id}, RNG)
    # Two cards may hand a token on: the owner orders them (rule E-3.8); both fire.
    assert types(st.legal_moves(0)) == {"pair_food"} and len(st.legal_moves(0)) == 2
    st.apply(0, st.legal_moves(0)[1], RNG)
    assert (x.food, y.food, z.food) == (1, 1, 1) and st.bank == 2


@pytest.mark.rule("E-5.4", "E-5.2")
def test_e5_cooperation_chain_and_fat_burn_not_food() -> None:
    """Cooperation (E-5.4): a partner gets a blue token whenever one gets food (chain); turning
    fat into food is not "getting food" (Fat Tissue (E-5.2))."""
    b = Builder(2)
    x = b.animal(0, "fat_tissue", fat=1)
    y, z = b.animal(0), b.animal(0)
    b.pair("cooperation", x, y)
    b.pair("cooperation", y, z)
    b.animal(1)
    st = b.done(bank=0)
    events = st.apply(0, {"type": "burn_fat", "animal": x.id, "amount": 1}, RNG)
    assert next(e["type"] for e in events) == "fat_burned"
    assert not any(e["type"] == "food" for e in events)
    assert x.id in st.animals and y.id not in st.animals  # x fed by its fat, y starved
    st2 = Builder(2)
    x2 = st2.animal(0)
    y2, z2 = st2.animal(0), st2.animal(0)
    st2.pair("cooperation", x2, y2)
    st2.pair("cooperation", y2, z2)
    st2.animal(1)
    s = st2.done(bank=3)
    s.apply(0, {"type": "take_food", "animal": x2.id}, RNG)
    assert (x2.food, y2.food, z2.food) == (1, 1, 1) and s.bank == 2


@pytest.mark.rule("E-5.2")
def test_e5_fat_tissue_store_and_burn_any_number() -> None:
    """Fat Tissue (E-5.2): fed animals store yellow tokens; any number of one animal's fat
    becomes food as the turn's food action, even with an empty bank."""
    b = Builder(2)
    a = b.animal(0, "fat_tissue", "fat_tissue", "high_body_weight", "carnivorous", fat=2)
    b.animal(1, "carnivorous", "high_body_weight")  # keeps the phase going
    st = b.done(bank=0)
    burns = [m for m in st.legal_moves(0) if m["type"] == "burn_fat"]
    assert [m["amount"] for m in burns] == [1, 2]
    st.apply(0, {"type": "burn_fat", "animal": a.id, "amount": 2}, RNG)
    assert a.food == 2 and a.fat == 0 and st.to_move() == [1]


@pytest.mark.rule("E-5.19", "E-5.10")
def test_e5_parasite_and_hbw_requirement() -> None:
    """Parasite (E-5.19) (+2) and High Body Weight (+1) raise the requirement."""
    b = Builder(2)
    a = b.animal(0, "parasite")
    h = b.animal(0, "high_body_weight")
    b.done()
    assert a.requirement() == 3 and h.requirement() == 2


@pytest.mark.rule("E-5.5", "E-5.3", "E-3.8")
def test_e5_symbiosis_chain_with_communication() -> None:
    """Symbiosis (E-5.5) + Communication: feeding the symbiont first lets the host take the
    partner's red token in the same action (rule E-3.8, "Párové rysy")."""
    b = Builder(2)
    symbiont, host = b.animal(0), b.animal(0)
    b.pair("symbiosis", symbiont, host)
    b.pair("communication", symbiont, host)
    b.animal(1)
    st = b.done(bank=5)
    assert {"type": "take_food", "animal": host.id} not in st.legal_moves(0)
    st.apply(0, {"type": "take_food", "animal": symbiont.id}, RNG)
    assert symbiont.food == 1 and host.food == 1 and st.bank == 3


@pytest.mark.rule("E-5.4")
def test_e5_cooperation_fires_once_per_action_on_a_kill() -> None:
    """Cooperation (E-5.4): the carnivore's two blue tokens make the partner get one (each paired
    card once per action)."""
    b = Builder(2)
    c = b.animal(0, "carnivorous")
    friend = b.animal(0, "high_body_weight")
    b.pair("cooperation", c, friend)
    v = b.animal(1)
    b.animal(1)
    st = b.done(bank=3)
    st.apply(0, atk(c.id, v.id), RNG)
    assert c.food == 2 and friend.food == 1


@pytest.mark.rule("E-5.15")
def test_e5_hibernating_animal_survives_extinction() -> None:
    """Hibernation (E-5.15): a hibernating animal counts as fed at extinction."""
    b = Builder(2)
    h = b.animal(0, "hibernation")
    b.animal(1, food=1)
    st = b.done(bank=0)
    st.apply(0, {"type": "use_trait", "trait": "hibernation", "animal": h.id}, RNG)
    assert h.id in st.animals and st.round == 2


@pytest.mark.rule("E-3.1", "E-7")
def test_e5_play_animal_is_hidden_from_observers() -> None:
    """E-3.1: a card played as an animal is face down; observers learn no card id."""
    b = Builder(2)
    cards = b.hand(0, "swimming", "running")
    st = b.done(phase="development")
    seen = {st.observe_move(0, {"type": "play_animal", "card": c}, 1) for c in cards}
    assert seen == {"play_animal:hidden"}
    assert len({st.observe_move(0, {"type": "play_animal", "card": c}, 0) for c in cards}) == 2


@pytest.mark.rule("E-1.2")
def test_e1_2_token_colours_in_events() -> None:
    """E-1.2: red tokens come from the bank, blue from traits, yellow is fat."""
    b = Builder(2)
    a = b.animal(0, "fat_tissue")
    friend = b.animal(0, food=1)
    b.pair("cooperation", a, friend)
    b.animal(1)
    st = b.done(bank=5)
    events = st.apply(0, {"type": "take_food", "animal": a.id}, RNG)
    food = [(e["token"], e["into"]) for e in events if e["type"] == "food"]
    assert food == [("red", "food")]  # the fed friend has no fat tissue: nothing to give
    a.food, friend.food = 1, 0
    st.turn, st.main_done, st.acted = 0, False, False
    st._legal_key = None
    events = st.apply(0, {"type": "take_food", "animal": a.id}, RNG)
    food = [(e["token"], e["into"]) for e in events if e["type"] == "food"]
    assert food == [("red", "fat"), ("blue", "food")]


@pytest.mark.rule("E-5.20", "E-5.12")
def test_e5_defences_mimicry_then_running_on_the_new_target() -> None:
    """Rule E-5.20: reactions in the defender's order; after a Mimicry redirect the new
    target may still run."""
    b = Builder(2)
    c = b.animal(0, "carnivorous")
    t = b.animal(1, "mimicry", "running", "tail_loss")
    decoy = b.animal(1, "running")
    st = b.done(bank=3)
    st.apply(0, atk(c.id, t.id), RNG)
    kinds = [m.get("trait", m["type"]) for m in st.legal_moves(1)]
    assert kinds == ["running", "mimicry", "tail_loss", "tail_loss", "tail_loss", "decline"]
    st.apply(1, {"type": "defend", "trait": "mimicry", "animal": decoy.id}, RNG)
    assert st.pending["target"] == decoy.id and st.to_move() == [1]
    assert st.legal_moves(1) == [{"type": "defend", "trait": "running"}, {"type": "decline"}]
    st.apply(1, {"type": "defend", "trait": "running"}, ScriptedRng([6]))
    assert decoy.id in st.animals and t.id in st.animals and st.pending is None


@pytest.mark.rule("E-5.20", "E-5.11")
def test_e5_running_fail_then_mimicry() -> None:
    """Rule E-5.20: Running first; when it fails, Mimicry may still redirect."""
    b = Builder(2)
    c = b.animal(0, "carnivorous")
    t = b.animal(1, "mimicry", "running")
    decoy = b.animal(1)
    st = b.done(bank=3)
    st.apply(0, atk(c.id, t.id), RNG)
    st.apply(1, {"type": "defend", "trait": "running"}, ScriptedRng([1]))
    assert st.legal_moves(1) == [{"type": "defend", "trait": "mimicry", "animal": decoy.id},
                                 {"type": "decline"}]
    st.apply(1, {"type": "decline"}, RNG)
    assert t.id not in st.animals and decoy.id in st.animals
