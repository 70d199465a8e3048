"""Feeding (N-3.4 to N-3.9) and the traits at work in it (N-5).

Moves: ``effect`` {species, trait} (the owner's order of start-of-feeding effects, N-3.8);
``eat`` {species} (plant food from the watering hole); ``intelligence`` {species, card}
(a non-carnivore takes plant food from the bank, N-5.12); ``attack`` {species, target_seat,
target}; with Intelligence then ``negate`` {trait, card} and ``strike`` (N-3.6); ``pass``
(only when no hungry species can feed without discarding a card: every feeding left needs
an Intelligence card or stores Fat Tissue food, N-3.9).
Rule ids refer to docs/rules/evolution-ns.md.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from shared.kernel.protocol import Event, Move

from .cards import FOOD_OF, HARD_SHELL_BONUS, INTELLIGENCE_FOOD, MAX_VALUE
from .model import Species

if TYPE_CHECKING:
    from .state import NSState

START_EFFECTS: Final = ("fertile", "long_neck", "fat_tissue")


# -- the start of feeding (N-3.4, N-3.8) -------------------------------------------------------

def start_feeding(st: NSState, rng: random.Random, events: list[Event] | None) -> None:
    """Reveal the food cards and change the watering hole by their sum; then the effects."""
    cards = [c for c in st.food_cards if c is not None]
    total = sum(FOOD_OF[c] for c in cards)
    if total >= 0:
        st.hole += total
        st.bank_out += total
        change = total
    else:  # N-3.4: a negative sum removes plant food from the hole, as far as possible
        change = -min(st.hole, -total)
        st.hole += change
        st.bank_out += change
    st.discard.extend(cards)
    st.food_cards = [None] * st.num_players
    if events is not None:
        events.append({"type": "food_revealed", "cards": cards, "sum": total, "change": change,
                       "hole": st.hole})
    st.phase = "effects"
    for seat in range(st.num_players):
        st.effects[seat] = [
            [index, trait] for index, sp in enumerate(st.species[seat])
            for trait in START_EFFECTS if sp.has(trait) and _effect_applies(st, sp, trait)]
    _run_effects(st, rng, events)


def _effect_applies(st: NSState, sp: Species, trait: str) -> bool:
    if trait == "fertile":
        return st.hole > 0 and sp.pop < MAX_VALUE
    if trait == "long_neck":
        return not sp.has("carnivore")
    return sp.fat > 0


def _run_effects(st: NSState, rng: random.Random, events: list[Event] | None) -> None:
    """Clockwise from the first player (DECISION); a seat with two or more effects chooses
    the order (N-3.8), one left resolves by itself."""
    for seat in st.order_from(st.first):
        pending = st.effects[seat]
        while len(pending) == 1:
            index, trait = pending.pop()
            _resolve_effect(st, seat, index, trait, events)
        if pending:
            st.turn = seat
            return
    start_feeding_turns(st, rng, events)


def effect_moves(st: NSState, seat: int) -> list[Move]:
    return [{"type": "effect", "species": index, "trait": trait}
            for index, trait in st.effects[seat]]


def apply_effect(st: NSState, seat: int, move: Move, rng: random.Random,
                 events: list[Event] | None) -> None:
    st.effects[seat].remove([move["species"], move["trait"]])
    _resolve_effect(st, seat, move["species"], move["trait"], events)
    _run_effects(st, rng, events)


def _resolve_effect(st: NSState, seat: int, index: int, trait: str,
                    events: list[Event] | None) -> None:
    sp = st.species[seat][index]
    if trait == "fertile":
        if st.hole > 0 and sp.pop < MAX_VALUE:  # N-5.8
            sp.pop += 1
    elif trait == "long_neck":
        if sp.can_eat(plant=True):  # N-5.13: from the bank, then Cooperation
            sp.give()
            st.bank_out += 1
            cooperate(st, seat, sp, "bank", True, events)
    else:  # N-5.7: stored food onto the species up to its population; not "taking food"
        moved = min(sp.fat, sp.pop - sp.food)
        if moved > 0:
            sp.fat -= moved
            sp.food += moved
    if events is not None:
        events.append({"type": "effect", "seat": seat, "species": index, "trait": trait})


# -- feeding turns (N-3.4, N-3.9) --------------------------------------------------------------

def start_feeding_turns(st: NSState, rng: random.Random, events: list[Event] | None) -> None:
    st.phase = "feed"
    st.passed = [False] * st.num_players
    st.pending = None
    _next_feeder(st, st.first, rng, events)


def _next_feeder(st: NSState, start: int, rng: random.Random, events: list[Event] | None) -> None:
    """The next seat clockwise that can feed; none: the phase ends (N-3.4). A seat that
    passed is asked again only for a compulsory feeding (N-3.9)."""
    for seat in st.order_from(start):
        hungry, storing, forced = _feedings(st, seat)
        if st.passed[seat] and not forced:
            continue
        if hungry or storing:
            st.turn = seat
            # The seat's legal moves are these feedings (``feed_moves``: no attack awaits
            # Intelligence here), so the search's next question is answered already.
            st.remember_legal(seat, _offer(hungry, storing, forced))
            return
    end_feeding(st, rng, events)


def _feedings(st: NSState, seat: int) -> tuple[list[Move], list[Move], bool]:
    """(feedings of hungry species, feedings that only store Fat Tissue food, whether a
    hungry species can feed without discarding a card: a compulsory feeding), N-3.9."""
    hungry: list[Move] = []
    storing: list[Move] = []
    forced = False
    hand = st.hands[seat]
    for index, sp in enumerate(st.species[seat]):
        is_hungry = sp.food < sp.pop
        if not is_hungry and sp.fat_room() <= 0:
            continue
        bucket = hungry if is_hungry else storing
        if sp.has("carnivore"):
            size = attack_size(sp)
            clever = sp.has("intelligence")
            for tseat in st.order_from(seat):
                for tindex, target in enumerate(st.species[tseat]):
                    if target is sp or size <= target.body:
                        continue
                    # N-3.6: a larger attack size, and every blocking defence negated
                    # by an Intelligence card
                    blocks = defences(st, seat, sp, tseat, target)
                    if not blocks:
                        forced = forced or is_hungry
                    elif not clever or len(blocks) > len(hand):
                        continue
                    bucket.append({"type": "attack", "species": index,
                                   "target_seat": tseat, "target": tindex})
            continue
        if st.hole > 0:
            bucket.append({"type": "eat", "species": index})
            forced = forced or is_hungry
        if sp.has("intelligence"):
            for card in hand:
                bucket.append({"type": "intelligence", "species": index, "card": card})
    return hungry, storing, forced


def _offer(hungry: list[Move], storing: list[Move], forced: bool) -> list[Move]:
    """N-3.9: a compulsory feeding leaves only the hungry species' feedings (those that
    need a card too); without one every feeding is optional (a card for Intelligence, Fat
    Tissue food) and the seat may pass."""
    if forced:
        return hungry
    return [*hungry, *storing, {"type": "pass"}]


def feed_moves(st: NSState, seat: int) -> list[Move]:
    if st.pending is not None:
        return _negate_moves(st, seat)
    return _offer(*_feedings(st, seat))


def apply_feed(st: NSState, seat: int, move: Move, rng: random.Random,
               events: list[Event] | None) -> None:
    # Every move but an attack whose Intelligence choices are still open hands on the turn.
    if _FEEDS.get(move["type"], _feed_strike)(st, seat, move, rng, events):
        _next_feeder(st, seat + 1, rng, events)


def _feed_pass(st: NSState, seat: int, move: Move, rng: random.Random,
               events: list[Event] | None) -> bool:
    st.passed[seat] = True
    if events is not None:
        events.append({"type": "pass", "seat": seat})
    return True


def _feed_eat(st: NSState, seat: int, move: Move, rng: random.Random,
              events: list[Event] | None) -> bool:
    sp = st.species[seat][move["species"]]
    taken = _take_plant(st, sp)
    if sp.has("foraging") and st.hole > 0 and sp.can_eat(plant=True):
        taken += _take_plant(st, sp)  # N-5.9: a second plant food, own feeding only
    if events is not None:
        events.append({"type": "ate", "seat": seat, "species": move["species"],
                       "food": taken, "hole": st.hole})
    cooperate(st, seat, sp, "hole", True, events)
    return True


def _feed_intelligence(st: NSState, seat: int, move: Move, rng: random.Random,
                       events: list[Event] | None) -> bool:
    sp = st.species[seat][move["species"]]
    st.hands[seat].remove(move["card"])
    st.discard.append(move["card"])
    taken = 0
    for _ in range(INTELLIGENCE_FOOD):
        if sp.can_eat(plant=True):
            sp.give()
            st.bank_out += 1
            taken += 1
    if events is not None:
        events.append({"type": "intelligence_food", "seat": seat, "species": move["species"],
                       "card": move["card"], "food": taken})
    cooperate(st, seat, sp, "bank", True, events)
    return True


def _feed_attack(st: NSState, seat: int, move: Move, rng: random.Random,
                 events: list[Event] | None) -> bool:
    att = st.species[seat][move["species"]]
    target = st.species[move["target_seat"]][move["target"]]
    if att.has("intelligence") and st.hands[seat] and _negatable(
            st, seat, att, move["target_seat"], target, []):
        st.pending = {"species": move["species"], "target_seat": move["target_seat"],
                      "target": move["target"], "negated": []}
        if events is not None:
            events.append({"type": "attack_declared", "seat": seat, "species": move["species"],
                           "target_seat": move["target_seat"], "target": move["target"]})
        return False  # N-3.6 (1): the Intelligence choices come first, as moves
    resolve_attack(st, seat, att, move["target_seat"], target, [], rng, events)
    return True


def _feed_negate(st: NSState, seat: int, move: Move, rng: random.Random,
                 events: list[Event] | None) -> bool:
    pending = st.pending
    assert pending is not None
    st.hands[seat].remove(move["card"])
    st.discard.append(move["card"])
    pending["negated"].append(move["trait"])
    if events is not None:
        events.append({"type": "negated", "seat": seat, "trait": move["trait"],
                       "card": move["card"]})
    att = st.species[seat][pending["species"]]
    target = st.species[pending["target_seat"]][pending["target"]]
    if st.hands[seat] and _negatable(st, seat, att, pending["target_seat"], target,
                                     pending["negated"]):
        return False
    st.pending = None
    resolve_attack(st, seat, att, pending["target_seat"], target, pending["negated"],
                   rng, events)
    return True


def _feed_strike(st: NSState, seat: int, move: Move, rng: random.Random,
                 events: list[Event] | None) -> bool:
    pending = st.pending
    assert pending is not None
    st.pending = None
    att = st.species[seat][pending["species"]]
    target = st.species[pending["target_seat"]][pending["target"]]
    resolve_attack(st, seat, att, pending["target_seat"], target, pending["negated"],
                   rng, events)
    return True


#: How each feeding move is played (any other type is a ``strike``); false when the turn
#: stays with the seat (an attack's Intelligence choices are still open).
_FEEDS: Final[dict[str, Callable[[NSState, int, Move, random.Random, list[Event] | None],
                                 bool]]] = {
    "pass": _feed_pass,
    "eat": _feed_eat,
    "intelligence": _feed_intelligence,
    "attack": _feed_attack,
    "negate": _feed_negate,
}


def _take_plant(st: NSState, sp: Species) -> int:
    if st.hole > 0 and sp.give():
        st.hole -= 1
        return 1
    return 0


def cooperate(st: NSState, seat: int, sp: Species, source: str, plant: bool,
              events: list[Event] | None) -> None:
    """N-5.5: the species directly to the right takes 1 food of the same kind (``plant``
    food or meat) from the same source (``"hole"`` or ``"bank"``); chains. A carnivore never
    takes plant food, from the bank either (N-5.1: Long Neck, Intelligence)."""
    row = st.species[seat]
    hole = source == "hole"
    while sp.has("cooperation"):
        index = row.index(sp) + 1
        if index >= len(row):
            return
        right = row[index]
        if not right.can_eat(plant) or (hole and st.hole <= 0):
            return
        right.give()
        if hole:
            st.hole -= 1
        else:
            st.bank_out += 1
        if events is not None:
            events.append({"type": "cooperation", "seat": seat, "species": index,
                           "source": source, "food": "plant" if plant else "meat"})
        sp = right


# -- attacks (N-3.6, N-5) ----------------------------------------------------------------------

def attack_size(att: Species) -> int:
    """N-5.14: Pack Hunting adds the population to the body size."""
    return att.body + att.pop if att.has("pack_hunting") else att.body


def defences(st: NSState, seat: int, att: Species, tseat: int, target: Species) -> list[str]:
    """The traits that stop ``att`` attacking ``target`` now (each negatable, N-5.12)."""
    size = attack_size(att)
    blocks: list[str] = []
    if target.has("hard_shell") and size <= target.body + HARD_SHELL_BONUS:
        blocks.append("hard_shell")  # N-5.10
    if target.has("climbing") and not att.has("climbing"):
        blocks.append("climbing")  # N-5.4
    if target.has("burrowing") and target.food >= target.pop:
        blocks.append("burrowing")  # N-5.3
    if target.has("defensive_herding") and att.pop <= target.pop:
        blocks.append("defensive_herding")  # N-5.6
    row = st.species[tseat]
    index = row.index(target)
    right = row[index + 1] if index + 1 < len(row) else None
    if target.has("symbiosis") and right is not None and right.body > target.body:
        blocks.append("symbiosis")  # N-5.16
    if not att.has("ambush"):  # N-5.2, N-5.17
        if index > 0 and row[index - 1].has("warning_call"):
            blocks.append("warning_call_left")
        if right is not None and right.has("warning_call"):
            blocks.append("warning_call_right")
    return blocks


def _negatable(st: NSState, seat: int, att: Species, tseat: int, target: Species,
               negated: list[str]) -> list[str]:
    """Traits still worth a card: the live blocking defences and Horns (N-5.12)."""
    live = [t for t in defences(st, seat, att, tseat, target) if t not in negated]
    if target.has("horns") and "horns" not in negated:
        live.append("horns")
    return live


def _negate_moves(st: NSState, seat: int) -> list[Move]:
    pending = st.pending
    assert pending is not None
    att = st.species[seat][pending["species"]]
    tseat = pending["target_seat"]
    target = st.species[tseat][pending["target"]]
    negated = pending["negated"]
    blocks = [t for t in defences(st, seat, att, tseat, target) if t not in negated]
    hand = st.hands[seat]
    moves: list[Move] = []
    for trait in _negatable(st, seat, att, tseat, target, negated):
        # never a card the attack needs elsewhere: every other blocker must stay payable
        still = len(blocks) - (1 if trait in blocks else 0)
        if still <= len(hand) - 1:
            moves.extend({"type": "negate", "trait": trait, "card": card} for card in hand)
    if not blocks:
        moves.append({"type": "strike"})
    return moves


def resolve_attack(st: NSState, seat: int, att: Species, tseat: int, target: Species,
                   negated: list[str], rng: random.Random, events: list[Event] | None) -> None:
    """N-3.6 steps (2) to (5): Horns, the target's loss, the meat, Cooperation, Scavengers."""
    meat = target.body
    attacker_index = st.species[seat].index(att)
    target_index = st.species[tseat].index(target)
    horns = target.has("horns") and "horns" not in negated
    if horns:  # N-5.11: before the carnivore takes the meat
        att.pop -= 1
        st.trim(seat, att)
    target.pop -= 1
    st.trim(tseat, target)
    if events is not None:
        events.append({"type": "attack", "seat": seat, "species": attacker_index,
                       "target_seat": tseat, "target": target_index, "negated": list(negated),
                       "horns": horns})
    if att.pop <= 0:
        st.go_extinct(seat, att, rng, events, "horns")
    if target.pop <= 0:
        st.go_extinct(tseat, target, rng, events, "eaten")
    if att.pop > 0:
        taken = 0
        for _ in range(meat):
            if not att.give():
                break  # DECISION (N-3.4): the rest of the meat stays in the bank
            taken += 1
        st.bank_out += taken
        if events is not None:
            events.append({"type": "meat", "seat": seat, "food": taken})
        if taken:
            cooperate(st, seat, att, "bank", False, events)
    # N-5.15: every Scavenger, clockwise from the attacker's owner, left to right
    for sseat in st.order_from(seat):
        for sp in list(st.species[sseat]):
            if sp.has("scavenger") and sp in st.species[sseat] and sp.can_eat(plant=False):
                sp.give()
                st.bank_out += 1
                if events is not None:
                    events.append({"type": "scavenged", "seat": sseat,
                                   "species": st.species[sseat].index(sp)})
                cooperate(st, sseat, sp, "bank", False, events)


# -- the end of feeding (N-3.5) ----------------------------------------------------------------

def end_feeding(st: NSState, rng: random.Random, events: list[Event] | None) -> None:
    """Population loss and extinction, food into the bags, a species for a seat with none,
    the first player passes on; the last round ends the game (N-4)."""
    st.pending = None
    for seat in st.order_from(st.first):
        for sp in list(st.species[seat]):
            if sp.food < sp.pop:
                sp.pop = sp.food
                if sp.pop == 0:
                    st.go_extinct(seat, sp, rng, events, "starved")
                    continue
            st.bags[seat] += sp.food
            sp.food = 0
    if events is not None:
        events.append({"type": "feeding_ended", "bags": list(st.bags)})
    if st.last_round:
        st.phase = "over"
        if events is not None:
            events.append({"type": "game_over", **st.result().to_json()})
        return
    for seat in range(st.num_players):
        if not st.species[seat]:
            st.species[seat].append(Species())
            if events is not None:
                events.append({"type": "new_species", "seat": seat, "free": True})
    st.first = (st.first + 1) % st.num_players
    st.round += 1
    st.start_round(events, rng)
