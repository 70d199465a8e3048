"""Carnivore attacks and the defences (docs/rules/evolution.md, rules E-5.1 and E-5.5-E-5.16).

Protections decide which targets an attack may pick: Camouflage (needs Sharp Vision),
Burrowing (while fed), Swimming (both or neither), High Body Weight (needs HBW), Symbiosis
(the host is safe while its symbiont lives). Reactions are decisions of the DEFENDING seat,
taken one at a time in the order it chooses (rule E-5.20): Running (die 4-6 escapes),
Mimicry (redirect once per attack, DECISION), Tail Loss (drop a trait, carnivore gets 1), or
decline (the animal is eaten: carnivore gets 2 blue, Poisonous poisons it, one Scavenger
gets 1 blue; the food is handed out by ``chain``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

from shared.kernel.protocol import Event, Move

from . import chain, feeding
from .model import Animal

if TYPE_CHECKING:
    from .state import EvolutionState

#: Rule E-5.1 (the rulebook's "Rys Masožravec"): in each feeding phase only one of a player's
#: carnivores may use Carnivorous.
ONE_ATTACK_PER_PHASE: Final = True


def can_attack(st: EvolutionState, carnivore: Animal, target: Animal) -> bool:
    """Is ``target`` not protected against ``carnivore`` by its traits (rules E-5.5-E-5.10)?"""
    if target is carnivore:
        return False
    swims = False
    for _, trait in target.traits:
        if trait == "camouflage":
            if not carnivore.has("sharp_vision"):
                return False
        elif trait == "burrowing":
            if target.is_fed():
                return False
        elif trait == "high_body_weight":
            if not carnivore.has("high_body_weight"):
                return False
        elif trait == "swimming":
            swims = True
    if swims != carnivore.has("swimming"):
        return False
    for card in target.pairs:
        trait, _, host = st.pairs[card]
        if trait == "symbiosis" and host == target.id:
            return False  # the symbiont is alive while the pair card lies on the table
    return True


def carnivores(st: EvolutionState, seat: int) -> list[Animal]:
    """Carnivores of ``seat`` that may attack now (once per round, not fed and full)."""
    if ONE_ATTACK_PER_PHASE and st.attacked_phase[seat]:
        return []
    return [a for a in st.own(seat)
            if a.has("carnivorous") and not a.attacked and st.can_take(a)]


def iter_attacks(st: EvolutionState, seat: int) -> Iterator[Move]:
    """The attacks ``seat`` may make now, lazily (the turn flow only asks whether any)."""
    for c in carnivores(st, seat):
        for s in range(st.num_players):
            for t in st.own(s):
                if can_attack(st, c, t):
                    yield {"type": "attack", "carnivore": c.id, "target": t.id}


def start_attack(st: EvolutionState, seat: int, carnivore: int, target: int,
                 rng: random.Random, events: list[Event] | None) -> None:
    """The attack takes the place of the turn's take (rule E-3.5); the defender may react."""
    c = st.animals[carnivore]
    c.attacked = True
    st.attacked_phase[seat] = True
    st.main_done = True
    st.pending = {"carnivore": carnivore, "target": target, "mimicry_used": False, "ran": []}
    t = st.animals[target]
    if events is not None:
        events.append({"type": "attack", "seat": seat, "carnivore": carnivore, "target": target,
                       "target_seat": t.owner})
    _continue(st, rng, events)


def defence_moves(st: EvolutionState) -> list[Move]:
    """The defending seat's choices against the pending attack (decline always last)."""
    assert st.pending is not None
    p = st.pending
    t = st.animals[p["target"]]
    c = st.animals[p["carnivore"]]
    result: list[Move] = []
    if t.has("running") and t.id not in p["ran"]:
        result.append({"type": "defend", "trait": "running"})
    if t.has("mimicry") and not p["mimicry_used"]:
        for x in st.own(t.owner):
            if x is not t and x is not c and can_attack(st, c, x):
                result.append({"type": "defend", "trait": "mimicry", "animal": x.id})
    if t.has("tail_loss"):
        for card, _ in t.traits:
            result.append({"type": "defend", "trait": "tail_loss", "card": card})
        for card in t.pairs:
            result.append({"type": "defend", "trait": "tail_loss", "card": card})
    result.append({"type": "decline"})
    return result


def _continue(st: EvolutionState, rng: random.Random, events: list[Event] | None) -> None:
    """Ask the defender if it has a choice; otherwise the target is eaten now."""
    if len(defence_moves(st)) == 1:
        _eat(st, rng, events)


def apply_defence(st: EvolutionState, move: Move, rng: random.Random,
                  events: list[Event] | None) -> None:
    assert st.pending is not None
    p = st.pending
    t = st.animals[p["target"]]
    if move["type"] == "decline":
        if events is not None:
            events.append({"type": "defence_declined", "seat": t.owner, "animal": t.id})
        _eat(st, rng, events)
        return
    trait = move["trait"]
    if trait == "running":
        die = rng.randint(1, 6)
        st.last_die = die
        escaped = die >= 4
        if events is not None:
            events.append({"type": "running", "seat": t.owner, "animal": t.id, "die": die,
                           "escaped": escaped})
        if escaped:
            _finish(st, rng, events)
        else:
            p["ran"].append(t.id)
            _continue(st, rng, events)
    elif trait == "mimicry":
        p["mimicry_used"] = True
        p["target"] = move["animal"]
        if events is not None:
            events.append({"type": "mimicry", "seat": t.owner, "animal": t.id,
                           "redirected_to": move["animal"]})
        _continue(st, rng, events)
    else:  # tail loss: the animal survives, the carnivore gets one blue token
        lost = st.discard_trait(t, move["card"])
        if events is not None:
            events.append({"type": "tail_loss", "seat": t.owner, "animal": t.id,
                           "card": move["card"], "trait": lost})
        st.pending = None
        chain.tail_loss(st, st.animals[p["carnivore"]], rng, events)


def _eat(st: EvolutionState, rng: random.Random, events: list[Event] | None) -> None:
    """The target is eaten (rule E-5.1): Poisonous (E-5.14), then the food (``chain.kill``)."""
    assert st.pending is not None
    c = st.animals[st.pending["carnivore"]]
    t = st.animals[st.pending["target"]]
    if t.has("poisonous"):
        c.poisoned = True  # dies in this round's extinction phase
        if events is not None:
            events.append({"type": "poisoned", "seat": c.owner, "animal": c.id})
    st.remove_animal(t, events, "eaten")
    st.pending = None
    chain.kill(st, c, rng, events)


def _finish(st: EvolutionState, rng: random.Random, events: list[Event] | None) -> None:
    st.pending = None
    feeding.after_action(st, st.turn, rng, events)
