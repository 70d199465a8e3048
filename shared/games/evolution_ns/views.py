"""What each seat may know (N-6), rebuilding a state from a view, and move wording.

Public: every species (body size, population, food, Fat Tissue food, face-up traits and how
many face-down ones), the watering hole, which seats have put a food card down, deck size,
the discard pile, hand sizes, bags, phase and turn. Private to a seat: its hand, its food
card, its face-down traits, and in the quick variant its plays of the running phase (others
see its row and hand as the phase began). Never: deck order, the two-player removed cards.
Rule ids refer to docs/rules/evolution-ns.md.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from shared.kernel.catalogue import Wording, wording
from shared.kernel.protocol import Move, View
from shared.kernel.rng import randbelow, shuffle

from .cards import DECK_SIZE, FOOD_OF, TRAIT_NAMES, TRAIT_OF
from .model import Species

if TYPE_CHECKING:
    from .state import NSState

#: The engine's folder: its ``texts.<lang>.json`` word the move labels.
_DATA_DIR: Final = Path(__file__).resolve().parent


def _public(data: dict[str, Any]) -> dict[str, Any]:
    """A species as others see it: the face-down trait cards become a count."""
    shown = len(data["traits"]) - data["down"]
    return {**data, "traits": data["traits"][:shown]}


def _own(data: dict[str, Any]) -> dict[str, Any]:
    shown = len(data["traits"]) - data["down"]
    return {**data, "traits": data["traits"][:shown], "down_cards": data["traits"][shown:]}


def view(st: NSState, seat: int | None) -> View:
    rows = []
    hand_sizes = []
    for k in range(st.num_players):
        if st.qbase is not None and k != seat:
            rows.append([_public(s) for s in st.qbase[k]["species"]])
            hand_sizes.append(st.qbase[k]["hand"])
        else:
            own = k == seat
            rows.append([(_own if own else _public)(sp.to_json()) for sp in st.species[k]])
            hand_sizes.append(len(st.hands[k]))
    data: View = {
        "game": "evolution-ns", "players": st.num_players, "seat": seat, "quick": st.quick,
        "to_move": st.to_move(), "deck_size": len(st.deck), "removed_size": len(st.removed),
        "hand_sizes": hand_sizes, "species": rows,
        "food_cards_down": [c is not None for c in st.food_cards],
        **st.public_flags(),
    }
    if seat is not None:
        data["hand"] = list(st.hands[seat])
        data["food_card"] = st.food_cards[seat]
        if st.qbase is not None:
            data["my_base"] = {"species": [dict(s) for s in st.qbase[seat]["species"]],
                               "hand": st.qbase[seat]["hand"]}
            data["my_staged"] = list(st.staged[seat])
            data["my_foreign"] = [list(g) for g in st.foreign[seat]]
            data["my_lefts"] = st.lefts[seat]
    if st.phase == "over":
        data["result"] = st.result().to_json()
    return data


def sample_from_view(view: View, seat: int | None, rng: random.Random) -> NSState:
    """A full state matching ``view``: the unseen cards dealt at random to the hidden places
    (others' hands, food cards and face-down traits, the removed cards, the deck)."""
    from .state import NSState

    n = view["players"]
    st = NSState(n, view["quick"])
    st.load_flags(view)
    known: list[int] = list(view["discard"])
    rows: list[list[Species]] = []
    for row in view["species"]:
        built = []
        for data in row:
            sp = Species.from_json({**data, "traits": data["traits"] + data.get(
                "down_cards", [])})
            built.append(sp)
            known.extend(sp.traits)
        rows.append(built)
    if seat is not None:
        known.extend(view["hand"])
        if view["food_card"] is not None:
            known.append(view["food_card"])
        if view.get("my_staged"):
            known.extend(view["my_staged"])
    seen = set(known)
    pool = [c for c in range(DECK_SIZE) if c not in seen]
    shuffle(rng, pool)
    _deal_hidden(st, view, seat, rows, pool, rng)
    st.removed = [pool.pop() for _ in range(view["removed_size"])]
    if len(pool) != view["deck_size"]:
        raise ValueError("view is inconsistent with the card composition")
    st.deck = pool
    st.species = rows
    _quick_base(st, view, seat, rows)
    return st


def _deal_hidden(st: NSState, view: View, seat: int | None, rows: list[list[Species]],
                 pool: list[int], rng: random.Random) -> None:
    """Every seat's hand and food card (the viewer's from ``view``, the others' from
    ``pool``) and the others' face-down traits, seat by seat."""
    for k in range(st.num_players):
        if k == seat:
            st.hands[k] = list(view["hand"])
            st.food_cards[k] = view["food_card"]
            continue
        st.hands[k] = [pool.pop() for _ in range(view["hand_sizes"][k])]
        if view["food_cards_down"][k]:
            st.food_cards[k] = pool.pop()
        for sp in rows[k]:
            for _ in range(sp.down):
                sp.traits.append(_fitting_card(sp, pool, rng))


def _quick_base(st: NSState, view: View, seat: int | None, rows: list[list[Species]]) -> None:
    """Quick variant (N-3.10): the rows as the phase began, and the viewer's staged play."""
    n = st.num_players
    if seat is not None and view.get("my_base") is not None:
        # The others' rows are their rows as the phase began.
        st.qbase = [{"species": [sp.to_json() for sp in rows[k]], "hand": len(st.hands[k])}
                    for k in range(n)]
        st.qbase[seat] = {"species": [dict(s) for s in view["my_base"]["species"]],
                          "hand": view["my_base"]["hand"]}
        st.staged[seat] = list(view["my_staged"])
        st.foreign[seat] = [list(g) for g in view["my_foreign"]]
        st.lefts[seat] = view["my_lefts"]
    elif view["quick"] and view["phase"] == "play":
        st.qbase = [{"species": [sp.to_json() for sp in rows[k]], "hand": len(st.hands[k])}
                    for k in range(n)]


def _fitting_card(sp: Species, pool: list[int], rng: random.Random) -> int:
    """An unseen card for a face-down trait, of a trait the species does not show (N-3.3)."""
    names = {TRAIT_OF[c] for c in sp.traits}
    fits = [i for i, c in enumerate(pool) if TRAIT_OF[c] not in names]
    index = fits[randbelow(rng, len(fits))] if fits else len(pool) - 1
    card = pool[index]
    pool[index] = pool[-1]
    pool.pop()
    return card


# -- wording -----------------------------------------------------------------------------------

def _card(w: Wording, card: int) -> str:
    """``"Horns (food 3)"`` in the wording's language."""
    return w.label("card", trait=_trait(w, TRAIT_OF[card]), food=FOOD_OF[card])


def _trait(w: Wording, key: str) -> str:
    return w.name(f"trait:{key}", TRAIT_NAMES.get(key, key))


def _species(w: Wording, st: NSState, seat: int, index: int, viewer: int | None = None) -> str:
    """``seat``'s species ``index`` as ``viewer`` sees it (None: the owner)."""
    own = viewer is None or viewer == seat
    name = w.label("species_own" if own else "species_other", seat=seat, number=index + 1)
    if st.qbase is not None and viewer is not None and viewer != seat:
        rows = st.qbase[seat]["species"]  # quick variant: as the phase began (N-3.10)
        if index >= len(rows):
            return name
        data = rows[index]
        body, pop, cards = data["body"], data["pop"], data["traits"][:len(data["traits"])
                                                                     - data["down"]]
    else:
        row = st.species[seat]
        if index >= len(row):
            return name
        sp = row[index]
        body, pop, cards = sp.body, sp.pop, sp.traits[:len(sp.traits) - sp.down]
    shown = [_trait(w, TRAIT_OF[c]) for c in cards]
    traits = f", {'/'.join(shown)}" if shown else ""
    return w.label("species", species=name, body=body, pop=pop, traits=traits)


#: Label templates of the moves that carry nothing to fill in.
_PLAIN: Final = {"done": "done", "strike": "strike", "pass": "pass"}


def move_group(move: Move, lang: str = "en") -> str | None:
    """The card a move plays or discards (a card's trait, new species and growth choices
    are listed together), None for a move with no card."""
    card = move.get("card")
    return _card(wording(_DATA_DIR, lang), card) if isinstance(card, int) else None


def move_label(st: NSState, move: Move, lang: str = "en") -> str:
    seats = st.to_move()
    seat = st.turn if st.turn in seats or not seats else seats[0]
    kind = move.get("type")
    w = wording(_DATA_DIR, lang)
    if isinstance(kind, str) and kind in _PLAIN:
        return w.label(_PLAIN[kind])
    if kind == "food":
        return w.label("food", card=_card(w, move["card"]))
    if kind == "trait":
        if move.get("replace") is not None:
            return w.label("trait_replace", card=_card(w, move["card"]),
                           number=move["species"] + 1,
                           trait=_trait(w, TRAIT_OF[move["replace"]]))
        return w.label("trait", card=_card(w, move["card"]), number=move["species"] + 1)
    if kind == "new_species":
        return w.label(f"new_species_{move['side']}", card=_card(w, move["card"]))
    if kind == "grow":
        return w.label("grow_body" if move["what"] == "body" else "grow_pop",
                       card=_card(w, move["card"]),
                       species=_species(w, st, move["seat"], move["species"], seat))
    if kind == "effect":
        return w.label("effect", trait=_trait(w, move["trait"]), number=move["species"] + 1)
    if kind == "eat":
        return w.label("eat", species=_species(w, st, seat, move["species"]))
    if kind == "intelligence":
        return w.label("intelligence", card=_card(w, move["card"]), number=move["species"] + 1)
    if kind == "attack":
        return w.label("attack", number=move["species"] + 1,
                       species=_species(w, st, move["target_seat"], move["target"], seat))
    if kind == "negate":
        trait = w.label(move["trait"]) if move["trait"] in NEGATED else \
            _trait(w, move["trait"])
        return w.label("negate", card=_card(w, move["card"]), trait=trait)
    return json.dumps(move, sort_keys=True)


#: Defences named by a label of their own (the neighbour's Warning Call).
NEGATED: Final = frozenset({"warning_call_left", "warning_call_right"})


def explain_illegal(st: NSState, seat: int, move: Move) -> str:
    """A precise reason why ``move`` is not legal for ``seat`` now."""
    if st.phase == "over":
        return "the match is over"
    if not isinstance(move, dict):
        return "a move is a JSON object with a type"
    kind = move.get("type")
    if not isinstance(kind, str):  # a list or object here is unhashable: say so, no crash
        return "a move's 'type' must be a string"
    phase_moves = {"food": {"food"}, "play": {"trait", "new_species", "grow", "done"},
                   "effects": {"effect"},
                   "feed": {"eat", "intelligence", "attack", "negate", "strike", "pass"}}
    if kind not in set().union(*phase_moves.values()):
        return f"unknown move type {kind!r}"
    if kind not in phase_moves[st.phase]:
        return f"{kind} is not a move of the {st.phase} phase"
    card = move.get("card")
    if "card" in move and card not in st.hands[seat]:
        return f"card {card} is not in your hand"
    if kind == "trait":
        return ("a species holds no two equal traits and at most "
                f"{st.max_traits} (a full one must name the trait it discards) (N-3.3)")
    if kind == "grow":
        return "body size and population go up to 6 (N-1.2, N-3.3)"
    if kind == "attack":
        return ("that carnivore cannot attack that species: it must be hungry (or have Fat "
                "Tissue room), larger, and beat every defence (N-3.6)")
    if kind in ("eat", "intelligence"):
        return "that species cannot take plant food now (carnivore, fed or empty hole)"
    if kind == "pass":
        return ("you must feed a hungry species while one can eat without discarding a card "
                "(N-3.9)")
    if kind in ("negate", "strike"):
        return "no attack awaits Intelligence, or that defence is not live (N-5.12)"
    return f"{json.dumps(move, sort_keys=True)} is not a legal move for seat {seat} now"
