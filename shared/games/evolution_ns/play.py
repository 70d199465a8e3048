"""The secret food card (N-3.2) and the play-cards phase (N-3.3, N-3.10).

Moves: ``food`` {card}; ``trait`` {card, species, replace?} (face down, replacing a trait of
a full species); ``new_species`` {card, side: left|right}; ``grow`` {card, seat, species,
what: body|pop} (any player's species: the seed's reading, N-3.3); ``done`` (end the turn,
keeping the other cards).
Rule ids refer to docs/rules/evolution-ns.md.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from shared.kernel.protocol import Event, Move
from shared.kernel.rng import randbelow

from .cards import MAX_VALUE, TRAIT_OF
from .model import Species

if TYPE_CHECKING:
    from .state import NSState


# -- the food card (N-3.2) ---------------------------------------------------------------------

def food_moves(st: NSState, seat: int) -> list[Move]:
    return [{"type": "food", "card": card} for card in st.hands[seat]]


def random_food_move(st: NSState, seat: int, rng: random.Random) -> Move:
    """``food_moves(st, seat)[randbelow(rng, len(...))]``, building only that move."""
    hand = st.hands[seat]
    return {"type": "food", "card": hand[randbelow(rng, len(hand))]}


def apply_food(st: NSState, seat: int, move: Move, rng: random.Random,
               events: list[Event] | None) -> None:
    card = move["card"]
    st.hands[seat].remove(card)
    st.food_cards[seat] = card
    st.done[seat] = True
    if events is not None:
        events.append({"type": "food_card_chosen", "seat": seat, "card": card, "audience": [seat]})
        events.append({"type": "food_card_chosen", "seat": seat, "exclude": [seat]})
    if all(st.done):
        start_play(st, rng, events)


# -- playing cards (N-3.3) ---------------------------------------------------------------------

def start_play(st: NSState, rng: random.Random, events: list[Event] | None) -> None:
    """N-3.3 from the first player, or every seat at once in the quick variant (N-3.10)."""
    st.phase = "play"
    st.done = [not hand for hand in st.hands]
    if events is not None:
        events.append({"type": "play_cards", "quick": st.quick})
    if st.quick:
        st.qbase = [{"species": [sp.to_json() for sp in st.species[s]],
                     "hand": len(st.hands[s])} for s in range(st.num_players)]
        st.staged = [[] for _ in range(st.num_players)]
        st.foreign = [[] for _ in range(st.num_players)]
        st.lefts = [0] * st.num_players
        if all(st.done):
            end_play(st, rng, events)
        return
    _next_turn(st, st.first, rng, events)


def _next_turn(st: NSState, start: int, rng: random.Random, events: list[Event] | None) -> None:
    for seat in st.order_from(start):
        if not st.done[seat]:
            st.turn = seat
            return
    end_play(st, rng, events)


def play_moves(st: NSState, seat: int) -> list[Move]:
    growable = _growable(st, seat)
    moves: list[Move] = []
    for card in st.hands[seat]:
        moves.extend(_trait_moves(st, seat, card))
        moves.append({"type": "new_species", "card": card, "side": "left"})
        moves.append({"type": "new_species", "card": card, "side": "right"})
        moves.extend({"type": "grow", "card": card, "seat": owner, "species": index,
                      "what": what} for owner, index, what in growable)
    moves.append({"type": "done"})
    return moves


def random_play_move(st: NSState, seat: int, rng: random.Random) -> Move:
    """``play_moves(st, seat)[randbelow(rng, len(...))]`` without building the whole list
    (playouts spend most of their time in this phase): only counts, then the one move."""
    hand = st.hands[seat]
    row = st.species[seat]
    limit = st.max_traits
    per_card = 2 + _growable_count(st, seat)  # two new-species sides and the growths
    places = [_trait_place_count(row, TRAIT_OF[card], limit) for card in hand]
    pick = randbelow(rng, sum(places) + per_card * len(hand) + 1)
    for position, card in enumerate(hand):
        count = places[position]
        if pick >= count + per_card:
            pick -= count + per_card
            continue
        if pick < count:
            return _nth_trait_move(row, card, limit, pick)
        pick -= count
        if pick < 2:
            return {"type": "new_species", "card": card, "side": ("left", "right")[pick]}
        owner, index, what = _nth_growable(st, seat, pick - 2)
        return {"type": "grow", "card": card, "seat": owner, "species": index, "what": what}
    return {"type": "done"}


def _held(sp: Species, trait: str) -> int:
    """How many of ``sp``'s trait cards are ``trait``."""
    held = 0
    for card in sp.traits:
        if TRAIT_OF[card] == trait:
            held += 1
    return held


def _trait_place_count(row: list[Species], trait: str, limit: int) -> int:
    """How many ``_trait_moves`` a card of ``trait`` has on ``row`` (see there)."""
    count = 0
    for sp in row:
        held = _held(sp, trait)
        if len(sp.traits) < limit:
            if not held:
                count += 1
        elif not held:
            count += len(sp.traits)  # any trait may be discarded for it
        elif held == 1:
            count += 1  # replacing that very trait is the only way
    return count


def _nth_trait_move(row: list[Species], card: int, limit: int, nth: int) -> Move:
    """``_trait_moves(...)[nth]`` of ``card`` on ``row``, built alone."""
    trait = TRAIT_OF[card]
    for index, sp in enumerate(row):
        held = _held(sp, trait)
        traits = sp.traits
        if len(traits) < limit:
            if held:
                continue
            if nth == 0:
                return {"type": "trait", "card": card, "species": index}
            nth -= 1
        elif not held:
            if nth < len(traits):
                return {"type": "trait", "card": card, "species": index, "replace": traits[nth]}
            nth -= len(traits)
        elif held == 1:
            if nth == 0:
                old = next(c for c in traits if TRAIT_OF[c] == trait)
                return {"type": "trait", "card": card, "species": index, "replace": old}
            nth -= 1
    raise IndexError(f"no trait move #{nth} for card {card}")


def _trait_moves(st: NSState, seat: int, card: int) -> list[Move]:
    """N-3.3: a face-down trait on one of your species; no two equal traits on a species; a
    full species first discards one of its traits."""
    trait = TRAIT_OF[card]
    limit = st.max_traits
    moves: list[Move] = []
    for index, sp in enumerate(st.species[seat]):
        names = [TRAIT_OF[c] for c in sp.traits]
        if len(names) < limit:
            if trait not in names:
                moves.append({"type": "trait", "card": card, "species": index})
        else:
            for old in sp.traits:
                others = [TRAIT_OF[c] for c in sp.traits if c != old]
                if trait not in others:
                    moves.append({"type": "trait", "card": card, "species": index,
                                  "replace": old})
    return moves


def _sizes(st: NSState, seat: int, owner: int) -> list[tuple[int, int]]:
    """(body, pop) of ``owner``'s species as ``seat`` may grow them: in the quick variant
    another seat's row as the phase began plus this seat's own growths of it (N-3.10)."""
    if st.qbase is not None and owner != seat:
        rows = [(s["body"], s["pop"]) for s in st.qbase[owner]["species"]]
        for _, index, what in (g for g in st.foreign[seat] if g[0] == owner):
            body, pop = rows[index]
            rows[index] = (body + 1, pop) if what == "body" else (body, pop + 1)
        return rows
    return [(sp.body, sp.pop) for sp in st.species[owner]]


def _growable(st: NSState, seat: int) -> list[tuple[int, int, str]]:
    """(seat, species, body|pop) that may still go up by 1 (N-1.2: at most 6). N-3.3: the
    seed lets a card grow "dowolnego gatunku", any species; in the quick variant another
    seat's species is judged by its row as the phase began plus this seat's own growths."""
    found: list[tuple[int, int, str]] = []
    for owner in st.order_from(seat):
        for index, (body, pop) in enumerate(_sizes(st, seat, owner)):
            if body < MAX_VALUE:
                found.append((owner, index, "body"))
            if pop < MAX_VALUE:
                found.append((owner, index, "pop"))
    return found


def _growable_count(st: NSState, seat: int) -> int:
    """``len(_growable(st, seat))`` without listing them."""
    count = 0
    for owner in st.order_from(seat):
        if st.qbase is not None and owner != seat:
            rows = _sizes(st, seat, owner)
        else:
            for sp in st.species[owner]:
                count += (sp.body < MAX_VALUE) + (sp.pop < MAX_VALUE)
            continue
        for body, pop in rows:
            count += (body < MAX_VALUE) + (pop < MAX_VALUE)
    return count


def _nth_growable(st: NSState, seat: int, nth: int) -> tuple[int, int, str]:
    """``_growable(st, seat)[nth]`` without listing the others."""
    for owner in st.order_from(seat):
        if st.qbase is not None and owner != seat:
            sizes = _sizes(st, seat, owner)  # the quick variant's view of the row
        else:  # the row itself, read in place: no pair built per species
            row = st.species[owner]
            for index in range(len(row)):
                sp = row[index]
                room = (sp.body < MAX_VALUE) + (sp.pop < MAX_VALUE)
                if nth < room:
                    return owner, index, _growth(sp.body, nth)
                nth -= room
            continue
        for index, (body, pop) in enumerate(sizes):
            room = (body < MAX_VALUE) + (pop < MAX_VALUE)
            if nth < room:
                return owner, index, _growth(body, nth)
            nth -= room
    raise IndexError(f"no growth #{nth}")


def _growth(body: int, nth: int) -> str:
    """A species' ``nth`` possible growth (``_growable`` lists body before population)."""
    return "body" if nth == 0 and body < MAX_VALUE else "pop"


def apply_play(st: NSState, seat: int, move: Move, rng: random.Random,
               events: list[Event] | None) -> None:
    kind = move["type"]
    if kind == "done":
        st.done[seat] = True
        if events is not None:
            events.append({"type": "done", "seat": seat})
        _after_play(st, seat, rng, events)
        return
    card = move["card"]
    st.hands[seat].remove(card)
    row = st.species[seat]
    if kind == "trait":
        sp = row[move["species"]]
        old = move.get("replace")
        if old is not None:
            position = sp.traits.index(old)
            if position >= len(sp.traits) - sp.down:
                sp.down -= 1
            del sp.traits[position]
            st.discard_card(seat, old)
            if TRAIT_OF[old] == "fat_tissue" and sp.fat:
                st.bank_out -= sp.fat  # N-5.7 DECISION: stored food returns to the bank
                sp.fat = 0
        sp.traits.append(card)
        sp.down += 1
        if events is not None:
            events.append({"type": "trait_played", "seat": seat, "species": move["species"],
                           "card": card, "replace": old, "audience": [seat]})
            if not st.quick:
                events.append({"type": "trait_played", "seat": seat,
                               "species": move["species"], "replace": old, "exclude": [seat]})
    elif kind == "new_species":
        st.discard_card(seat, card)
        if move["side"] == "left":
            row.insert(0, Species())
            st.lefts[seat] += 1
        else:
            row.append(Species())
        if events is not None:
            events.append(_secret_if_quick(st, seat, {
                "type": "new_species", "seat": seat, "card": card, "side": move["side"]}))
    else:
        st.discard_card(seat, card)
        owner = move["seat"]
        if st.quick and owner != seat:
            # N-3.10: applied at the reveal, so the owner does not see it before
            st.foreign[seat].append([owner, move["species"], move["what"]])
        else:
            _grow(st.species[owner][move["species"]], move["what"])
        if events is not None:
            events.append(_secret_if_quick(st, seat, {
                "type": "grown", "seat": seat, "card": card, "owner": owner,
                "species": move["species"], "what": move["what"]}))
    if not st.hands[seat]:
        st.done[seat] = True  # nothing left to play: the turn ends by itself
        _after_play(st, seat, rng, events)


def _secret_if_quick(st: NSState, seat: int, event: Event) -> Event:
    """In the quick variant every play stays secret until the reveal (N-3.10)."""
    if st.quick:
        event["audience"] = [seat]
    return event


def _grow(sp: Species, what: str) -> None:
    # DECISION (quick variant): two secret growths may meet at 6; the extra one is lost
    if what == "body":
        sp.body = min(MAX_VALUE, sp.body + 1)
    else:
        sp.pop = min(MAX_VALUE, sp.pop + 1)


def _after_play(st: NSState, seat: int, rng: random.Random, events: list[Event] | None) -> None:
    if st.quick:
        if all(st.done):
            end_play(st, rng, events)
    else:
        _next_turn(st, seat, rng, events)


def end_play(st: NSState, rng: random.Random, events: list[Event] | None) -> None:
    """N-3.3: all played traits are revealed together; then feeding (N-3.4)."""
    from .feeding import start_feeding

    revealed = []
    if st.quick:
        for seat in range(st.num_players):
            for owner, index, what in st.foreign[seat]:
                # the owner's rows only grew at the ends since the phase began
                _grow(st.species[owner][index + st.lefts[owner]], what)
            st.foreign[seat] = []
        st.lefts = [0] * st.num_players
    for seat in range(st.num_players):
        if st.quick:
            st.discard.extend(st.staged[seat])
            st.staged[seat] = []
        for index, sp in enumerate(st.species[seat]):
            if sp.down:
                revealed.append([seat, index, sp.traits[len(sp.traits) - sp.down:]])
                sp.down = 0
    if st.quick and events is not None:
        events.append({"type": "plays_revealed",
                       "rows": [[sp.to_json() for sp in row] for row in st.species],
                       "hand_sizes": [len(h) for h in st.hands]})
    st.qbase = None
    if events is not None:
        events.append({"type": "traits_revealed", "traits": revealed})
    start_feeding(st, rng, events)
