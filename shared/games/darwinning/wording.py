"""Darwinning!'s move labels in a language (``State.move_label(move, lang)``): the label
templates, colour and combination names of the engine's ``texts.<lang>.json`` (``labels``)
filled with the components' names in that language."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Final

from shared.kernel.catalogue import Wording, wording
from shared.kernel.protocol import Move

from .cards import (
    ABILITY_NAMES,
    CHAIN,
    COLOUR,
    COLOURS,
    EGGS,
    ENV_ICON,
    ENV_INDEX,
    ENVIRONMENTS,
    JOKERS,
    SPECIES,
    VALUE,
    ZERO_SLOT,
)
from .combos import classify
from .model import Board

if TYPE_CHECKING:
    from .state import DarwinningState

#: The engine's folder: its ``texts.<lang>.json`` word the labels.
_DATA_DIR: Final = Path(__file__).resolve().parent


def card_name(w: Wording, card: int) -> str:
    """``"7 acorn"``; ``"joker"`` for a joker; with its environment icon, ``"1 desert
    flower"``: the two cards of a value and colour differ only in that icon (D-1.2, D-6.3),
    and which one a seat plays or keeps is its choice."""
    if card in JOKERS:
        return w.label("joker")
    colour = w.label(f"colour_{COLOURS[COLOUR[card]]}")
    if ENV_ICON[card] >= 0:
        return w.label("card_environment", value=VALUE[card], colour=colour,
                       environment=_environment(w, ENVIRONMENTS[ENV_ICON[card]]))
    return w.label("card", value=VALUE[card], colour=colour)


def _ability(w: Wording, number: int) -> str:
    return w.name(f"ability:{number}", ABILITY_NAMES[number])


def _environment(w: Wording, env: str) -> str:
    # English labels name an environment by its id ("forest"); a translation by its name.
    return w.name(f"environment:{ENV_INDEX[env]}", env) if env in ENV_INDEX else env


def _cards(w: Wording, cards: list[int]) -> str:
    return " + ".join(card_name(w, c) for c in cards) if cards else w.label("nothing")


def _slot(w: Wording, board: Board, slot: int) -> str:
    where = w.label("zero_box") if slot == ZERO_SLOT else w.label("place", place=slot + 1)
    entry = board.slots[slot]
    if entry is None:
        return where
    return w.label("replacing", where=where, ability=_ability(w, Board.slot_ability(entry)))


def _use(w: Wording, st: DarwinningState, seat: int, move: Move) -> str:
    card, use = move["card"], move["use"]
    what = card_name(w, card)
    if use in ("chain", "chain_down"):
        return w.label(f"use_{use}", amount=CHAIN[card], card=what)
    if use == "eggs":
        return w.label("use_egg" if EGGS[card] == 1 else "use_eggs", amount=EGGS[card],
                       card=what)
    if use == "environment":
        return w.label("use_environment", environment=_environment(w, ENVIRONMENTS[ENV_ICON[card]]),
                       card=what)
    return w.label("use_ability", ability=_ability(w, VALUE[card]), card=what,
                   where=_slot(w, st.boards[seat], move["slot"]))


def _who(w: Wording, st: DarwinningState, seat: int) -> str:
    species = SPECIES[st.boards[seat].species]
    return w.label("who", seat=seat, species=w.name(f"species:{species['id']}", species["name"]))


def _combo(w: Wording, cards: tuple[int, ...], move: Move) -> str:
    """The label of the combination ``cards`` with the move's jokers
    (``"pair 7 acorn + 7 flower"``; a joker reads ``"joker as 0 blueberry"``)."""
    jokers = tuple(move.get("jokers", []))
    rank_sum = classify(cards, jokers)
    parts = []
    k = 0
    for c in cards:
        if c in JOKERS:
            parts.append(w.label("joker_as", colour=w.label(f"colour_{COLOURS[jokers[k]]}")))
            k += 1
        else:
            parts.append(card_name(w, c))
    return w.label("combo", rank=w.label(f"rank_{rank_sum[0] if rank_sum else 0}"),
                   cards=" + ".join(parts))


def _label_play(w: Wording, st: DarwinningState, move: Move, actor: int) -> str:
    if st.num_players == 2 and st.edition != "1.7":
        return w.label("play_hand", cards=_cards(w, move["cards"]))
    cards = tuple(sorted(move["cards"] + move.get("dummy", [])))
    if move.get("dummy"):
        return w.label("play_dummy", combo=_combo(w, cards, move),
                       dummy=_cards(w, move["dummy"]))
    return w.label("play", combo=_combo(w, cards, move))


def _label_announce(w: Wording, st: DarwinningState, move: Move, actor: int) -> str:
    play = next((p for p in st.trick if p["seat"] == actor), None)
    own = play["cards"] if play else []
    cards = tuple(sorted(own + move["dummy"]))
    if move["dummy"]:
        return w.label("announce", dummy=_cards(w, move["dummy"]), combo=_combo(w, cards, move))
    return w.label("announce_none", combo=_combo(w, cards, move))


def _label_lead(w: Wording, st: DarwinningState, move: Move, actor: int) -> str:
    return w.label("lead_self") if move["seat"] == actor else \
        w.label("lead_other", seat=move["seat"])


def _label_upgrade(w: Wording, st: DarwinningState, move: Move, actor: int) -> str:
    return w.label("upgrade", use=_use(w, st, actor, move))


def _label_pick(w: Wording, st: DarwinningState, move: Move, actor: int) -> str:
    target = st.queue[0]["target"] if st.queue else actor
    whose = w.label("your_species") if target == actor else _who(w, st, target)
    return w.label("pick", card=card_name(w, move["card"]), whose=whose,
                   use=_use(w, st, target, move))


def _label_steal(w: Wording, st: DarwinningState, move: Move, actor: int) -> str:
    return w.label("steal", ability=_ability(w, VALUE[move["card"]]),
                   card=card_name(w, move["card"]))


def _label_metamorphosis(w: Wording, st: DarwinningState, move: Move, actor: int) -> str:
    card = st.queue[0]["card"] if st.queue else 0
    return w.label("metamorphosis", ability=_ability(w, VALUE[card]), card=card_name(w, card),
                   where=_slot(w, st.boards[actor], move["slot"]))


def _label_symbiosis(w: Wording, st: DarwinningState, move: Move, actor: int) -> str:
    return w.label("symbiosis", environment=_environment(w, move["environment"]))


def _label_eat(w: Wording, st: DarwinningState, move: Move, actor: int) -> str:
    return w.label("eat_dummy") if move["target"] == "dummy" else \
        w.label("eat", who=_who(w, st, move["target"]))


def _label_discard(w: Wording, st: DarwinningState, move: Move, actor: int) -> str:
    return w.label("discard", cards=_cards(w, move["cards"]))


def _label_keep(w: Wording, st: DarwinningState, move: Move, actor: int) -> str:
    return w.label("keep", cards=_cards(w, move["cards"]))


#: A move's label by its type: ``(wording, state, move, seat to act) -> text``.
_LABELS: Final[dict[str, Callable[[Wording, DarwinningState, Move, int], str]]] = {
    "play": _label_play,
    "announce": _label_announce,
    "lead": _label_lead,
    "upgrade": _label_upgrade,
    "pick": _label_pick,
    "steal": _label_steal,
    "metamorphosis": _label_metamorphosis,
    "symbiosis": _label_symbiosis,
    "eat": _label_eat,
    "discard": _label_discard,
    "keep": _label_keep,
}
#: The moves that carry nothing but their type: their label templates have their names.
_PLAIN: Final = frozenset({"no_upgrade", "no_pick", "no_steal", "stop_eating"})


def move_group(move: Move, lang: str = "en") -> str | None:
    """The one card a move takes or places (a pick from the discard pile, for each of its
    uses and places), None for a move of several cards or none."""
    card = move.get("card")
    return card_name(wording(_DATA_DIR, lang), card) if isinstance(card, int) else None


def move_label(st: DarwinningState, move: Move, lang: str = "en") -> str:
    kind = move.get("type")
    w = wording(_DATA_DIR, lang)
    if isinstance(kind, str) and kind in _PLAIN:
        return w.label(kind)
    label = _LABELS.get(kind) if isinstance(kind, str) else None
    if label is None:
        return json.dumps(move, sort_keys=True)
    return label(w, st, move, st.to_move()[0] if st.to_move() else 0)
