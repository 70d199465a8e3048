"""The feeding phase (E-3.3) and the feeding traits of E-5.

DECISION (digest E-3.3): on your turn you may make at most one *main action* — take one red
token from the bank onto one of your animals, attack with one carnivore, or turn fat of one
animal into food — plus trait uses (Grazing once per turn per animal; Piracy and Hibernation
once per round per animal). The turn ends by ``end_turn`` or by itself once nothing is left
to do; ``pass`` ends your feeding for the phase. A seat whose animals can take no food is
skipped from then on. Communication and Cooperation chains resolve automatically; each paired
card fires at most once per action (seed, "Párové rysy").
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import TYPE_CHECKING

from shared.protocol import Event, Move

from . import attack
from .model import Animal

if TYPE_CHECKING:
    from .state import EvolutionState


# -- food chains --------------------------------------------------------------------------------

def feed(st: EvolutionState, animal: Animal, from_bank: bool, used: set[int],
         events: list[Event], via: str | None = None) -> None:
    """Give ``animal`` one token (red from the bank, or blue) and fire its paired traits.

    Communication: a partner takes a red token from the bank when this one took a red token
    from the bank. Cooperation: a partner gets a blue token whenever this one got food. The
    chain goes on from each partner that got a token (E-5). Chains resolve in the order the
    cards were played (DECISION: the seed lets the owner order them; we fix the order).
    """
    if from_bank:
        st.bank -= 1
    into = "food" if animal.needs() > 0 else "fat"
    animal.give()
    event: Event = {"type": "food", "seat": animal.owner, "animal": animal.id,
                    "token": "red" if from_bank else "blue", "into": into}
    if via:
        event["via"] = via
    events.append(event)
    for card in animal.pairs:
        if card in used:
            continue
        trait = st.pairs[card][0]
        if trait == "communication":
            if not from_bank or st.bank <= 0:
                continue
            partner = st.partner(card, animal.id)
            if st.can_take(partner):
                used.add(card)
                feed(st, partner, True, used, events, "communication")
        elif trait == "cooperation":
            partner = st.partner(card, animal.id)
            if st.can_take(partner):
                used.add(card)
                feed(st, partner, False, used, events, "cooperation")


# -- legal moves ------------------------------------------------------------------------------

def _actions(st: EvolutionState, seat: int) -> Iterator[Move]:
    """Every feeding action of ``seat`` now, without ``end_turn`` / ``pass``, lazily: the
    turn-flow checks below stop at the first one."""
    own = st.own(seat)
    if not st.main_done:
        if st.bank > 0:
            for a in own:
                if st.can_take(a):
                    yield {"type": "take_food", "animal": a.id}
        yield from attack.iter_attacks(st, seat)
        for a in own:
            need = a.needs()
            if a.fat and need:  # E-5 Fat Tissue: any number of one animal's fat
                for amount in range(1, min(a.fat, need) + 1):
                    yield {"type": "burn_fat", "animal": a.id, "amount": amount}
    for a in own:
        for _, trait in a.traits:
            if trait == "grazing":
                if not a.grazed and st.bank > 0:
                    yield {"type": "use_trait", "trait": "grazing", "animal": a.id}
            elif trait == "piracy":
                if not a.pirated and st.can_take(a):
                    for s in range(st.num_players):
                        for t in st.own(s):
                            # E-5 Piracy: another animal that got food but is not fed.
                            if t is not a and t.food > 0 and t.needs() > 0:
                                yield {"type": "use_trait", "trait": "piracy",
                                       "animal": a.id, "target": t.id}
            elif (trait == "hibernation" and not a.hibernating and not st.last_round
                  and a.hib_round != st.round - 1 and a.needs() > 0):
                # E-5 Hibernation: not two rounds in a row, not in the last round.
                yield {"type": "use_trait", "trait": "hibernation", "animal": a.id}


def action_moves(st: EvolutionState, seat: int) -> list[Move]:
    """Every feeding action of ``seat`` now, without ``end_turn`` / ``pass``."""
    return list(_actions(st, seat))


def moves(st: EvolutionState, seat: int) -> list[Move]:
    result = action_moves(st, seat)
    if st.acted:
        result.append({"type": "end_turn"})
    result.append({"type": "pass"})
    return result


def can_act(st: EvolutionState, seat: int) -> bool:
    """E-3.3: a seat with no action but Grazing (none of its animals can take food) is skipped."""
    return any(m["type"] != "use_trait" or m["trait"] != "grazing"
               for m in _actions(st, seat))


# -- applying -----------------------------------------------------------------------------------

def apply(st: EvolutionState, seat: int, move: Move, rng: random.Random,
          events: list[Event]) -> None:
    """Play a validated feeding move."""
    kind = move["type"]
    if kind == "pass":
        st.passed[seat] = True
        events.append({"type": "passed", "seat": seat, "phase": "feeding"})
        next_player(st, seat, rng, events)
        return
    if kind == "end_turn":
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
        feed(st, animal, True, set(), events)
    elif kind == "burn_fat":
        # E-5 Fat Tissue: not "getting food", so no paired trait fires.
        st.main_done = True
        animal.fat -= move["amount"]
        animal.food += move["amount"]
        events.append({"type": "fat_burned", "seat": seat, "animal": animal.id,
                       "amount": move["amount"]})
    elif move["trait"] == "grazing":
        animal.grazed = True
        st.bank -= 1
        events.append({"type": "grazing", "seat": seat, "animal": animal.id, "bank": st.bank})
    elif move["trait"] == "piracy":
        animal.pirated = True
        victim = st.animals[move["target"]]
        victim.food -= 1
        events.append({"type": "piracy", "seat": seat, "animal": animal.id,
                       "target": victim.id, "victim_seat": victim.owner})
        feed(st, animal, False, set(), events, "piracy")
    else:  # hibernation
        animal.hibernating = True
        animal.hib_round = st.round
        events.append({"type": "hibernation", "seat": seat, "animal": animal.id})
    after_action(st, seat, rng, events)


def after_action(st: EvolutionState, seat: int, rng: random.Random,
                 events: list[Event]) -> None:
    """End the turn by itself once the seat has nothing left to do."""
    if st.pending is None and next(_actions(st, seat), None) is None:
        next_player(st, seat, rng, events)


def next_player(st: EvolutionState, start: int, rng: random.Random, events: list[Event],
                include_start: bool = False) -> None:
    """Next seat clockwise that has not passed and can act; skipped seats pass (E-3.3)."""
    n = st.num_players
    for k in range(0 if include_start else 1, n + 1):
        seat = (start + k) % n
        if st.passed[seat]:
            continue
        st.turn = seat
        st.main_done = st.acted = False
        for a in st.own(seat):
            a.grazed = False  # Grazing: once per turn
        if can_act(st, seat):
            return
        st.passed[seat] = True
        events.append({"type": "skipped", "seat": seat})
    st.end_feeding(rng, events)
