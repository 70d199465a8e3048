"""The feeding phase and the feeding traits (docs/rules/evolution.md, E-3.3, E-3.5-E-3.9, E-5).

A turn (rule E-3.5) holds at most one *food action* — take one red token from the bank, or
instead attack with one carnivore or turn the fat of one animal into food — and at most one
*feeding-trait use* (Grazing, Piracy or Hibernation), with the food action or instead of it.
The turn ends by ``end_turn`` or by itself once nothing is left; ``pass`` ends the seat's
feeding for the phase (rule E-3.7). A seat whose animals are all fed may still graze (rule
E-3.6). Food handed on by paired traits, a kill, Tail Loss or a Scavenger runs through a
*chain* (``st.chain``, ``chain.py``) that stops for the owner's choices (rule E-3.8).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import TYPE_CHECKING

from shared.kernel.protocol import Event, Move

from . import attack, chain
from .model import Animal

if TYPE_CHECKING:
    from .state import EvolutionState


# -- legal moves ------------------------------------------------------------------------------

def _actions(st: EvolutionState, seat: int) -> Iterator[Move]:
    """Every feeding action of ``seat`` now, without ``end_turn`` / ``pass``, lazily: the
    turn-flow checks below stop at the first one."""
    own = st.own(seat)
    if not st.main_done:
        yield from _food_actions(st, seat, own)
    if st.trait_used:  # rule E-3.5: one feeding-trait use per turn
        return
    yield from _trait_uses(st, own)


def _food_actions(st: EvolutionState, seat: int, own: list[Animal]) -> Iterator[Move]:
    """The turn's food actions (rule E-3.5): take food, attack, burn fat."""
    if st.bank > 0:
        for a in own:
            if st.can_take(a):
                yield {"type": "take_food", "animal": a.id}
    yield from attack.iter_attacks(st, seat)
    for a in own:
        need = a.needs()
        if a.fat and need:  # rule E-5.2: any number of one animal's fat
            for amount in range(1, min(a.fat, need) + 1):
                yield {"type": "burn_fat", "animal": a.id, "amount": amount}


def _trait_uses(st: EvolutionState, own: list[Animal]) -> Iterator[Move]:
    """The feeding-trait uses of the seat's animals ``own``: Grazing, Piracy, Hibernation."""
    for a in own:
        for _, trait in a.traits:
            if trait == "grazing":
                # Rule E-5.18 / E-3.6: usable while the bank has a token, fed or not.
                if st.bank > 0:
                    yield {"type": "use_trait", "trait": "grazing", "animal": a.id}
            elif trait == "piracy":
                if not a.pirated and st.can_take(a):
                    yield from _piracies(st, a)
            elif (trait == "hibernation" and not a.hibernating and not st.last_round
                  and a.hib_round != st.round - 1 and a.needs() > 0):
                # Rule E-5.15: not two rounds in a row, not in the last round.
                yield {"type": "use_trait", "trait": "hibernation", "animal": a.id}


def _piracies(st: EvolutionState, a: Animal) -> Iterator[Move]:
    """The Piracy uses of the pirate ``a``, one per animal it may steal from."""
    for s in range(st.num_players):
        for t in st.own(s):
            # Rule E-5.17: another animal that gained food this round (burnt fat is no
            # gain) and is not fed yet.
            if t is not a and t.gained and t.food > 0 and t.needs() > 0:
                yield {"type": "use_trait", "trait": "piracy", "animal": a.id,
                       "target": t.id}


def action_moves(st: EvolutionState, seat: int) -> list[Move]:
    """Every feeding action of ``seat`` now, without ``end_turn`` / ``pass``."""
    return list(_actions(st, seat))


def moves(st: EvolutionState, seat: int) -> list[Move]:
    """The seat's feeding moves on its turn (a pending chain's choices are ``chain.moves``)."""
    result = action_moves(st, seat)
    if st.acted:
        result.append({"type": "end_turn"})
    result.append({"type": "pass"})
    return result


def can_act(st: EvolutionState, seat: int) -> bool:
    """Rule E-3.6: a seat has a turn while it has any action (Grazing counts)."""
    return next(_actions(st, seat), None) is not None


# -- applying -----------------------------------------------------------------------------------

def apply(st: EvolutionState, seat: int, move: Move, rng: random.Random,
          events: list[Event] | None) -> None:
    """Play a validated feeding move of the seat on turn (not a chain choice)."""
    kind = move["type"]
    if kind == "pass":
        st.passed[seat] = True
        if events is not None:
            events.append({"type": "passed", "seat": seat, "phase": "feeding"})
        next_player(st, seat, rng, events)
        return
    if kind == "end_turn":
        if events is not None:
            events.append({"type": "turn_ended", "seat": seat})
        next_player(st, seat, rng, events)
        return
    st.acted = True
    if kind == "attack":
        attack.start_attack(st, seat, move["carnivore"], move["target"], rng, events)
        return
    animal = st.animals[move["animal"]]
    if kind == "take_food":
        st.main_done = True
        chain.take(st, animal, rng, events)
        return
    if kind == "burn_fat":
        # Rule E-5.2: not "getting food": no paired trait fires, no Piracy target is made.
        st.main_done = True
        animal.fat -= move["amount"]
        animal.food += move["amount"]
        if events is not None:
            events.append({"type": "fat_burned", "seat": seat, "animal": animal.id,
                           "amount": move["amount"]})
        after_action(st, seat, rng, events)
        return
    st.trait_used = True
    if move["trait"] == "grazing":
        st.bank -= 1
        if events is not None:
            events.append({"type": "grazing", "seat": seat, "animal": animal.id, "bank": st.bank})
    elif move["trait"] == "piracy":
        animal.pirated = True
        victim = st.animals[move["target"]]
        victim.food -= 1
        if events is not None:
            events.append({"type": "piracy", "seat": seat, "animal": animal.id,
                           "target": victim.id, "victim_seat": victim.owner})
        chain.piracy(st, animal, rng, events)
        return
    else:  # hibernation
        animal.hibernating = True
        animal.hib_round = st.round
        if events is not None:
            events.append({"type": "hibernation", "seat": seat, "animal": animal.id})
    after_action(st, seat, rng, events)


def after_action(st: EvolutionState, seat: int, rng: random.Random,
                 events: list[Event] | None) -> None:
    """End the turn by itself once the seat has nothing left to do (or the phase, E-3.9)."""
    if st.pending is not None or st.chain is not None:
        return
    left = next(_actions(st, seat), None)
    if left is None:
        next_player(st, seat, rng, events)
    elif left["type"] == "use_trait" and all_full(st):  # only a trait use is left
        st.end_feeding(rng, events)


def all_full(st: EvolutionState) -> bool:
    """Rule E-3.9: every animal on the table is fed with full fat: the phase is over (only
    Grazing could be left, and nobody could use the bank)."""
    for a in st.animals.values():  # noqa: SIM110 - a plain loop is faster in playouts
        if a.hungry_or_fat_space():
            return False
    return True


def next_player(st: EvolutionState, start: int, rng: random.Random, events: list[Event] | None,
                include_start: bool = False) -> None:
    """Next seat clockwise that has not passed and can act; skipped seats pass (rules E-3.6,
    E-3.7); the phase ends when none is left or every animal is full (rule E-3.9)."""
    n = st.num_players
    if all_full(st):
        st.end_feeding(rng, events)
        return
    for k in range(0 if include_start else 1, n + 1):
        seat = (start + k) % n
        if st.passed[seat]:
            continue
        st.turn = seat
        st.main_done = st.acted = st.trait_used = False
        if can_act(st, seat):
            return
        st.passed[seat] = True
        if events is not None:
            events.append({"type": "skipped", "seat": seat})
    st.end_feeding(rng, events)
