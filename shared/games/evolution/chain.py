"""Food handed on in one feeding action, with the owner's choices (docs/rules/evolution.md).

When an animal gets a token, its paired traits may hand tokens on: Communication (rule
E-5.3: a red token from the bank, only after a red token from the bank) and Cooperation
(rule E-5.4: a blue token after any token). Each paired card fires at most once per action;
the owner decides the order (rule E-3.8) — asked only when two or more cards could fire —
and whether a token that would only go into Fat Tissue is stored. A kill (rule E-5.1), Tail
Loss (E-5.13) and a Scavenger (E-5.16) hand out blue tokens the same way; a seat with several
Scavengers that can eat picks one.

While a choice is due, ``st.chain`` (plain JSON) holds it: ``seat`` (who decides), ``used``
(paired cards fired), ``red`` / ``got`` (animals that took a red token from the bank / got
any token in this action), ``steps`` (blue tokens and the Scavenger still to hand out),
``offer`` (``[animal, via]``: a token awaiting ``store_fat`` / ``skip_fat``) and
``scavengers`` (the candidates awaiting ``scavenger``). Without a choice nothing is stored.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from shared.kernel.protocol import Event, Move

from . import feeding
from .model import Animal

if TYPE_CHECKING:
    from .state import EvolutionState

Option = tuple[int, int, bool]  # (paired card, receiving animal, receiver is hungry)


def _new(st: EvolutionState, steps: list[list[Any]]) -> dict[str, Any]:
    st.chain = {"seat": st.turn, "used": [], "red": [], "got": [], "steps": steps,
                "offer": None, "scavengers": None}
    return st.chain


def copy_chain(chain: dict[str, Any] | None) -> dict[str, Any] | None:
    """A deep copy (clone, codec and views must not share the lists)."""
    if chain is None:
        return None
    return {"seat": chain["seat"], "used": list(chain["used"]), "red": list(chain["red"]),
            "got": list(chain["got"]), "steps": [list(s) for s in chain["steps"]],
            "offer": None if chain["offer"] is None else list(chain["offer"]),
            "scavengers": None if chain["scavengers"] is None else list(chain["scavengers"])}


def _grant(st: EvolutionState, chain: dict[str, Any] | None, animal: Animal, red: bool,
           via: str | None, events: list[Event] | None) -> None:
    """Give ``animal`` one token it has room for (red from the bank, or blue)."""
    if red:
        st.bank -= 1
    into = animal.give()
    event: Event = {"type": "food", "seat": animal.owner, "animal": animal.id,
                    "token": "red" if red else "blue", "into": into}
    if via:
        event["via"] = via
    if events is not None:
        events.append(event)
    if chain is not None:
        if animal.id not in chain["got"]:
            chain["got"].append(animal.id)
        if red and animal.id not in chain["red"]:
            chain["red"].append(animal.id)


# -- the actions that start a chain ---------------------------------------------------------------

def take(st: EvolutionState, animal: Animal, rng: random.Random,
         events: list[Event] | None) -> None:
    """Rule E-3.3: one red token from the bank onto ``animal`` (into its fat if it is fed:
    taking it there is the owner's choice), then its paired traits."""
    if not animal.pairs:  # the common case, kept cheap for playouts
        _grant(st, None, animal, True, None, events)
        feeding.after_action(st, st.turn, rng, events)
        return
    _grant(st, _new(st, []), animal, True, None, events)
    resolve(st, rng, events)


def piracy(st: EvolutionState, pirate: Animal, rng: random.Random,
           events: list[Event] | None) -> None:
    """Rule E-5.17: the stolen token becomes the pirate's blue food (the pirate's own use)."""
    if not pirate.pairs:
        _grant(st, None, pirate, False, "piracy", events)
        feeding.after_action(st, st.turn, rng, events)
        return
    _grant(st, _new(st, []), pirate, False, "piracy", events)
    resolve(st, rng, events)


def kill(st: EvolutionState, carnivore: Animal, rng: random.Random,
         events: list[Event] | None) -> None:
    """Rule E-5.1: two blue tokens for the carnivore, then one Scavenger (rule E-5.16)."""
    _new(st, [["blue", carnivore.id, "carnivorous"], ["blue", carnivore.id, "carnivorous"],
              ["scavenger", carnivore.owner, "scavenger"]])
    resolve(st, rng, events)


def tail_loss(st: EvolutionState, carnivore: Animal, rng: random.Random,
              events: list[Event] | None) -> None:
    """Rule E-5.13: the carnivore gets one blue token."""
    _new(st, [["blue", carnivore.id, "tail_loss"]])
    resolve(st, rng, events)


# -- resolving ------------------------------------------------------------------------------

def options(st: EvolutionState, chain: dict[str, Any]) -> list[Option]:
    """The paired cards that could hand a token on now, with their receivers."""
    result: list[Option] = []
    used = chain["used"]
    for source in chain["got"]:
        animal = st.animals.get(source)
        if animal is None:
            continue
        for card in animal.pairs:
            if card in used:
                continue
            trait = st.pairs[card][0]
            if trait == "communication":
                if st.bank <= 0 or source not in chain["red"]:
                    continue
            elif trait != "cooperation":
                continue
            partner = st.partner(card, source)
            if st.can_take(partner) and not any(
                    o[0] == card and o[1] == partner.id for o in result):
                result.append((card, partner.id, partner.needs() > 0))
    return result


def _fire(st: EvolutionState, chain: dict[str, Any], card: int, receiver: int,
          events: list[Event] | None) -> None:
    chain["used"].append(card)
    trait = st.pairs[card][0]
    _grant(st, chain, st.animals[receiver], trait == "communication", trait, events)


def resolve(st: EvolutionState, rng: random.Random, events: list[Event] | None) -> None:
    """Hand out the action's food until a choice is due (``st.chain`` stays) or it is done
    (``st.chain`` is cleared and the turn goes on)."""
    chain = st.chain
    assert chain is not None
    while chain["offer"] is None and chain["scavengers"] is None:
        found = options(st, chain)
        if found:
            if len(found) == 1 and found[0][2]:  # one card, a hungry receiver: no choice
                _fire(st, chain, found[0][0], found[0][1], events)
                continue
            chain["seat"] = st.animals[found[0][1]].owner
            return
        if not chain["steps"]:
            st.chain = None
            feeding.after_action(st, st.turn, rng, events)
            return
        kind, who, via = chain["steps"].pop(0)
        if kind == "blue":
            animal = st.animals.get(who)
            if animal is None or not st.can_take(animal):
                continue
            if animal.needs() > 0:
                _grant(st, chain, animal, False, via, events)
            else:  # rule E-5.2: "můžete" — storing is the owner's choice
                chain["offer"] = [animal.id, via]
                chain["seat"] = animal.owner
        else:  # rule E-5.16: the attacker's owner first, then clockwise
            n = st.num_players
            for k in range(n):
                seat = (who + k) % n
                eaters = [a.id for a in st.own(seat) if a.has("scavenger") and st.can_take(a)]
                if eaters:
                    if len(eaters) == 1:
                        chain["steps"].insert(0, ["blue", eaters[0], "scavenger"])
                    else:  # the owner picks which Scavenger eats
                        chain["scavengers"] = eaters
                        chain["seat"] = seat
                    break


def moves(st: EvolutionState) -> list[Move]:
    """The choices due in the pending chain (for ``st.chain["seat"]``)."""
    chain = st.chain
    assert chain is not None
    if chain["offer"] is not None:
        animal = chain["offer"][0]
        return [{"type": "store_fat", "animal": animal}, {"type": "skip_fat", "animal": animal}]
    if chain["scavengers"] is not None:
        return [{"type": "scavenger", "animal": a} for a in chain["scavengers"]]
    result: list[Move] = []
    for card, receiver, hungry in options(st, chain):
        result.append({"type": "pair_food", "card": card, "animal": receiver})
        if not hungry:  # only into Fat Tissue: the owner may let this card hand out nothing
            result.append({"type": "pair_skip", "card": card, "animal": receiver})
    return result


def apply(st: EvolutionState, move: Move, rng: random.Random, events: list[Event] | None) -> None:
    """Play a validated chain choice, then go on resolving."""
    chain = st.chain
    assert chain is not None
    kind = move["type"]
    seat = chain["seat"]
    if kind == "store_fat":
        via = chain["offer"][1]
        chain["offer"] = None
        _grant(st, chain, st.animals[move["animal"]], False, via, events)
    elif kind == "skip_fat":
        chain["offer"] = None
        if events is not None:
            events.append({"type": "fat_skipped", "seat": seat, "animal": move["animal"]})
    elif kind == "scavenger":
        chain["scavengers"] = None
        chain["steps"].insert(0, ["blue", move["animal"], "scavenger"])
    elif kind == "pair_food":
        _fire(st, chain, move["card"], move["animal"], events)
    else:  # pair_skip
        chain["used"].append(move["card"])
        if events is not None:
            events.append({"type": "pair_skipped", "seat": seat, "card": move["card"],
                           "animal": move["animal"]})
    resolve(st, rng, events)
