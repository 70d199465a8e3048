"""What each seat may know, rebuilding a state from a view, and move wording.

Rules: docs/rules/evolution.md, rule E-7.

Public: every animal with its traits (the trait cards are face up) and tokens, the paired
cards, the bank, deck size, hand and discard sizes, turn, phase, first player, round, the
pending attack and the dice. Private: a seat's hand, its own discard pile and the cards under
its own animals (face down, E-3.1). Never: the deck order, others' hands, the rng.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from shared.kernel.catalogue import Wording, wording
from shared.kernel.protocol import Move, View
from shared.kernel.rng import shuffle

from .cards import PAIRED, TRAIT_NAMES, card_count, card_label, faces
from .model import Animal

if TYPE_CHECKING:
    from .state import EvolutionState

#: The engine's folder: its ``texts.<lang>.json`` word the move labels.
_DATA_DIR: Final = Path(__file__).resolve().parent


def _animal_view(a: Animal, seat: int | None) -> dict[str, Any]:
    data = a.to_json()
    if a.owner != seat:
        del data["card"]  # the animal card lies face down
    data["requirement"] = a.requirement()
    data["fat_capacity"] = a.fat_capacity()
    data["fed"] = a.is_fed()
    return data


def view(st: EvolutionState, seat: int | None) -> View:
    data: View = {
        "game": "evolution", "players": st.num_players, "seat": seat,
        "to_move": st.to_move(), "deck_size": len(st.deck),
        "hand_sizes": [len(h) for h in st.hands],
        "discard_sizes": [len(d) for d in st.discards],
        "animals": [_animal_view(a, seat) for t in st.table for a in t],
        "pairs": [[card, *pair] for card, pair in sorted(st.pairs.items())],
        **st.public_flags(),
    }
    if seat is not None:
        data["hand"] = list(st.hands[seat])
        data["discard"] = list(st.discards[seat])
    if st.phase == "over":
        data["result"] = st.result().to_json()
    return data


def sample_from_view(view: View, seat: int | None, rng: random.Random) -> EvolutionState:
    """A full state matching ``view``: hidden cards dealt at random from the unseen ones."""
    from .state import EvolutionState

    n = view["players"]
    st = EvolutionState(n)
    st.load_flags(view)
    known: set[int] = set()
    if seat is not None:
        st.hands[seat] = list(view["hand"])
        st.discards[seat] = list(view["discard"])
        known.update(view["hand"], view["discard"])
    animals = []
    for entry in view["animals"]:
        a = Animal.from_json({**entry, "card": entry.get("card", -1)})
        animals.append(a)
        known.update(c for c, _ in a.traits)
        if a.card >= 0:
            known.add(a.card)
    known.update(p[0] for p in view["pairs"])
    pool = [c for c in range(card_count(n)) if c not in known]
    shuffle(rng, pool)  # as rng.shuffle, cheaper: the search samples every iteration
    for s in range(n):
        if s != seat:
            st.hands[s] = [pool.pop() for _ in range(view["hand_sizes"][s])]
            st.discards[s] = [pool.pop() for _ in range(view["discard_sizes"][s])]
    for a in animals:
        if a.card < 0:
            a.card = pool.pop()
        st.animals[a.id] = a
        st.table[a.owner].append(a)
    if len(pool) != view["deck_size"]:
        raise ValueError("view is inconsistent with the card composition")
    st.deck = pool
    st.pairs = {card: (trait, a, b) for card, trait, a, b in view["pairs"]}
    return st


# -- wording -----------------------------------------------------------------------------------

def _trait(w: Wording, key: str) -> str:
    return w.name(f"trait:{key}", TRAIT_NAMES.get(key, key))


def _card(w: Wording, card: int) -> str:
    """``"Grazing / Fat Tissue"`` for a two-trait card, in the wording's language."""
    return " / ".join(_trait(w, t) for t in faces(card))


def _whose(w: Wording, st: EvolutionState, animal_id: int, seat: int) -> str:
    a = st.animals.get(animal_id)
    if a is None:
        return w.label("animal", animal=animal_id)
    return w.label("animal_own", animal=animal_id) if a.owner == seat else \
        w.label("animal_other", animal=animal_id, seat=a.owner)


def _label_play_animal(w: Wording, st: EvolutionState, move: Move, seat: int) -> str:
    return w.label("play_animal", card=_card(w, move["card"]))


def _played_trait(w: Wording, move: Move) -> str:
    """The trait a card is played as; of a two-trait card, with the card's name: several
    cards carry Carnivorous or Fat Tissue, and which one the seat gives up tells the choices
    apart (the other stays in its hand)."""
    trait = _trait(w, str(move.get("trait")))
    if len(faces(move["card"])) < 2:
        return trait
    return w.label("trait_of_card", trait=trait, card=_card(w, move["card"]))


def _label_play_trait(w: Wording, st: EvolutionState, move: Move, seat: int) -> str:
    return w.label("play_trait", trait=_played_trait(w, move),
                   animal=_whose(w, st, move["animal"], seat))


def _label_play_pair(w: Wording, st: EvolutionState, move: Move, seat: int) -> str:
    a, b = move["animals"]
    key = "play_symbiosis" if move["trait"] == "symbiosis" else "play_pair"
    return w.label(key, trait=_played_trait(w, move), first=a, second=b)


def _label_pass(w: Wording, st: EvolutionState, move: Move, seat: int) -> str:
    return w.label("pass_development" if st.phase == "development" else "pass_feeding")


def _label_take_food(w: Wording, st: EvolutionState, move: Move, seat: int) -> str:
    return w.label("take_food", animal=move["animal"])


def _label_attack(w: Wording, st: EvolutionState, move: Move, seat: int) -> str:
    return w.label("attack", target=_whose(w, st, move["target"], seat),
                   animal=move["carnivore"])


def _label_burn_fat(w: Wording, st: EvolutionState, move: Move, seat: int) -> str:
    return w.label("burn_fat", amount=move["amount"], animal=move["animal"])


def _label_use_trait(w: Wording, st: EvolutionState, move: Move, seat: int) -> str:
    if move["trait"] == "grazing":
        return w.label("use_grazing", animal=move["animal"])
    if move["trait"] == "piracy":
        return w.label("use_piracy", animal=move["animal"],
                       target=_whose(w, st, move["target"], seat))
    return w.label("use_hibernation", animal=move["animal"])


def _label_end_turn(w: Wording, st: EvolutionState, move: Move, seat: int) -> str:
    return w.label("end_turn")


def _pair_trait(w: Wording, st: EvolutionState, move: Move) -> str:
    """The name of the paired trait whose card the move names ("?" if none)."""
    return _trait(w, st.pairs[move["card"]][0]) if move["card"] in st.pairs else "?"


def _pair_source(st: EvolutionState, move: Move) -> int | str:
    """The animal at the other end of the move's pair: an animal in two pairs can be handed
    food through either, in the order its owner chooses (rule E-3.8), so the label names the
    pair by that animal."""
    # A pair's two animals are alive while it is (remove_animal drops its pairs).
    return st.partner(move["card"], move["animal"]).id if move["card"] in st.pairs else "?"


def _label_pair_food(w: Wording, st: EvolutionState, move: Move, seat: int) -> str:
    return w.label("pair_food", trait=_pair_trait(w, st, move), animal=move["animal"],
                   source=_pair_source(st, move))


def _label_pair_skip(w: Wording, st: EvolutionState, move: Move, seat: int) -> str:
    return w.label("pair_skip", trait=_pair_trait(w, st, move), animal=move["animal"],
                   source=_pair_source(st, move))


def _label_store_fat(w: Wording, st: EvolutionState, move: Move, seat: int) -> str:
    return w.label("store_fat", animal=move["animal"])


def _label_skip_fat(w: Wording, st: EvolutionState, move: Move, seat: int) -> str:
    return w.label("skip_fat", animal=move["animal"])


def _label_scavenger(w: Wording, st: EvolutionState, move: Move, seat: int) -> str:
    return w.label("scavenger", animal=move["animal"])


def _label_decline(w: Wording, st: EvolutionState, move: Move, seat: int) -> str:
    return w.label("decline", animal=st.pending["target"] if st.pending else "?")


def _label_defend(w: Wording, st: EvolutionState, move: Move, seat: int) -> str:
    if move["trait"] == "running":
        return w.label("defend_running")
    if move["trait"] == "mimicry":
        return w.label("defend_mimicry", animal=move["animal"])
    card = move["card"]
    if card in st.pairs:
        # A pair card is named with its other animal: two Communication cards of one animal
        # link it to different animals, and which link it loses is the choice.
        trait = _trait(w, st.pairs[card][0])
        if not st.pending:
            return w.label("defend_tail_loss", trait=trait)
        partner = st.partner(card, st.pending["target"]).id
        return w.label("defend_tail_loss", trait=w.label("paired_with", trait=trait,
                                                         animal=partner))
    lost = next((t for c, t in st.animals[st.pending["target"]].traits if c == card), "?") \
        if st.pending else "?"
    return w.label("defend_tail_loss", trait=_trait(w, lost))


#: A move's label by its type: ``(wording, state, move, seat to act) -> text``.
_LABELS: Final[dict[str, Callable[[Wording, EvolutionState, Move, int], str]]] = {
    "play_animal": _label_play_animal,
    "play_trait": _label_play_trait,
    "play_pair": _label_play_pair,
    "pass": _label_pass,
    "take_food": _label_take_food,
    "attack": _label_attack,
    "burn_fat": _label_burn_fat,
    "use_trait": _label_use_trait,
    "end_turn": _label_end_turn,
    "pair_food": _label_pair_food,
    "pair_skip": _label_pair_skip,
    "store_fat": _label_store_fat,
    "skip_fat": _label_skip_fat,
    "scavenger": _label_scavenger,
    "decline": _label_decline,
    "defend": _label_defend,
}


def move_group(move: Move, lang: str = "en") -> str | None:
    """The card a move plays (as a new animal, or either of its traits on some animals), None
    for a move with no card."""
    card = move.get("card")
    return _card(wording(_DATA_DIR, lang), card) if isinstance(card, int) else None


def move_label(st: EvolutionState, move: Move, lang: str = "en") -> str:
    seat = st.to_move()[0] if st.to_move() else st.turn
    kind = move.get("type")
    label = _LABELS.get(kind) if isinstance(kind, str) else None
    if label is None:
        return json.dumps(move, sort_keys=True)
    return label(wording(_DATA_DIR, lang), st, move, seat)


#: The move types of each phase (``pass`` is in both).
_DEVELOPMENT: Final = frozenset({"play_animal", "play_trait", "play_pair", "pass"})
_FEEDING: Final = frozenset({"take_food", "attack", "burn_fat", "use_trait", "end_turn", "pass"})
_KNOWN: Final = _DEVELOPMENT | _FEEDING | {"defend", "decline"}
_ALREADY_ACTED: Final = "you already took food, attacked or burnt fat this turn (rule E-3.5)"


def explain_illegal(st: EvolutionState, seat: int, move: Move) -> str:
    """A precise reason why ``move`` is not legal for ``seat`` now."""
    text = json.dumps(move, sort_keys=True)
    if st.phase == "over":
        return "the match is over"
    if seat not in st.to_move():
        return f"seat {seat} owes no decision now"
    kind = move.get("type") if isinstance(move, dict) else None
    if not isinstance(kind, str):  # checked first: a list or object here is unhashable
        return "a move is an object whose 'type' is a string"
    reason = _explain_open_step(st, kind, text)
    if reason is None:
        reason = _explain_kind(st, kind)
    if reason is None and kind in ("play_animal", "play_trait", "play_pair"):
        reason = _explain_play(st, seat, move, kind)
    if reason is None:
        reason = _explain_feeding(st, seat, move, kind)
    return reason if reason is not None else f"{text} is not a legal move for seat {seat} now"


def _explain_open_step(st: EvolutionState, kind: str, text: str) -> str | None:
    """Why ``kind`` does not answer an open food chain or a pending attack, if one is open."""
    if st.chain is not None:
        return (f"{text} is not an open choice: first decide how the food is handed out "
                "(paired-trait order, Fat Tissue, which Scavenger; rule E-3.8)")
    if st.pending is not None:
        if kind not in ("defend", "decline"):
            return "an attack on your animal is pending: defend or decline"
        return f"{text} is not an available defence (running once per animal, " \
               "mimicry once per attack, tail loss needs a trait of the attacked animal)"
    return None


def _explain_kind(st: EvolutionState, kind: str) -> str | None:
    """Why no move of type ``kind`` fits the phase, if none does."""
    if kind not in _KNOWN:
        return f"unknown move type {kind!r}"
    if st.phase == "development" and kind not in _DEVELOPMENT:
        return f"{kind} is not a development move"
    if st.phase == "feeding" and kind not in _FEEDING:
        return f"{kind} is not a feeding move"
    return None


def _explain_play(st: EvolutionState, seat: int, move: Move, kind: str) -> str | None:
    """Why a card play is illegal, if its card, trait or animal says so."""
    card = move.get("card")
    if card not in st.hands[seat]:
        return f"card {card} is not in your hand"
    if kind == "play_animal":
        return None
    trait = move.get("trait")
    if not isinstance(trait, str) or trait not in faces(card):
        return f"card {card} ({card_label(card)}) has no trait {trait!r}"
    if (kind == "play_pair") != (trait in PAIRED):
        return f"{trait} is {'a' if trait in PAIRED else 'not a'} paired trait"
    if kind == "play_pair":
        return ("a paired trait needs two different animals of yours not already "
                "linked by it (rule E-3.1)")
    return _explain_trait_target(st, seat, move, trait)


def _explain_trait_target(st: EvolutionState, seat: int, move: Move, trait: str) -> str | None:
    """Why ``trait`` may not go on the animal the move names, if it may not (rule E-3.1)."""
    animal = move.get("animal")
    a = st.animals.get(animal) if isinstance(animal, int) else None
    if a is None:
        return f"no animal {move.get('animal')}"
    if trait == "parasite" and a.owner == seat:
        return "Parasite goes only on another player's animal (rule E-3.1)"
    if trait != "parasite" and a.owner != seat:
        return "traits go only on your own animals (rule E-3.1)"
    clash = {"carnivorous": "scavenger", "scavenger": "carnivorous"}.get(trait)
    if clash and a.has(clash):
        return "Scavenger and Carnivorous never share an animal (rule E-3.1)"
    if trait != "fat_tissue" and a.has(trait):
        return f"animal #{a.id} already has {TRAIT_NAMES[trait]} (rule E-3.1)"
    return None


def _explain_feeding(st: EvolutionState, seat: int, move: Move, kind: str) -> str | None:
    """Why a feeding move is illegal, if the turn's state says so (rules E-3.5, E-5.1)."""
    if kind == "end_turn" and not st.acted:
        return "you have done nothing this turn: act or pass"
    if kind == "use_trait" and st.trait_used:
        return "you already used a feeding trait this turn: one per turn (rule E-3.5)"
    if kind == "take_food":
        if st.main_done:
            return _ALREADY_ACTED
        if st.bank <= 0:
            return "the food bank is empty"
        return f"animal {move.get('animal')} cannot take food (yours, not fed or fat free, " \
               "symbiont fed)"
    if kind == "attack":
        if st.main_done:
            return _ALREADY_ACTED
        if st.attacked_phase[seat]:
            return "only one of your carnivores may attack per feeding phase (rule E-5.1)"
        return "that carnivore cannot attack that animal (once per round, not fed and full, " \
               "protected target)"
    return None
