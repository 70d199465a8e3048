"""Upgrading a species with one card (docs/rules/darwinning.md D-6), Mutation's steal (D-10 #8),
Metamorphosis (D-10 #14) and the two-player pick from the discard pile (D-11.7).

An upgrade move is ``{"type": "upgrade", "card", "use"}`` with ``use`` one of ``chain``
(up), ``chain_down`` (v1.7 only, D-6.1), ``eggs``, ``environment`` or ``ability`` (then also
``"slot"``); ``{"type": "no_upgrade"}`` declines (D-6.5). A pick from the discard pile is the
same with ``"type": "pick"``; in v2.2 ``{"type": "no_pick"}`` declines it (the leader "lets"
the opponent pick), in v1.7 the opponent must apply a card (D-11.7).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from shared.kernel.protocol import Event, Move
from shared.kernel.rng import randbelow

from .cards import CHAIN, EGGS, ENV_ICON, JOKERS, MUTATION, SLOTS, VALUE
from .model import Board, move_on_chain

if TYPE_CHECKING:
    from .state import DarwinningState


def blocked_by_slot(board: Board) -> list[set[int]]:
    """Per slot, the abilities the board keeps if that slot is replaced (D-6.4: no two
    copies): the other slots' abilities, and the stolen card's while Mutation stays."""
    abilities = [0 if entry is None else (-entry if entry < 0 else VALUE[entry])
                 for entry in board.slots]
    stolen = -1 if board.stolen is None else VALUE[board.stolen]
    blocked = []
    for slot in range(len(abilities)):
        held = {a for k, a in enumerate(abilities) if k != slot and a}
        if stolen >= 0 and MUTATION in held:
            held.add(stolen)
        blocked.append(held)
    return blocked


def uses(st: DarwinningState, board: Board, card: int, kind: str = "upgrade",
         blocked: list[set[int]] | None = None, envs: set[int] | None = None) -> list[Move]:
    """Every way ``card`` may upgrade ``board`` (D-6.1-D-6.5). ``blocked`` (the abilities
    kept beside each place) and ``envs`` may be passed in when asking for many cards."""
    if blocked is None:
        blocked = blocked_by_slot(board)
    if envs is None:
        envs = board.environments()
    moves: list[Move] = []
    if CHAIN[card]:
        moves.append({"type": kind, "card": card, "use": "chain"})
        if st.edition == "1.7":
            moves.append({"type": kind, "card": card, "use": "chain_down"})
    if EGGS[card]:
        moves.append({"type": kind, "card": card, "use": "eggs"})
    if ENV_ICON[card] >= 0 and ENV_ICON[card] not in envs:
        moves.append({"type": kind, "card": card, "use": "environment"})
    if card not in JOKERS:  # D-1.2: jokers are never abilities
        value = VALUE[card]
        for slot in range(SLOTS):
            if value not in blocked[slot]:
                moves.append({"type": kind, "card": card, "use": "ability", "slot": slot})
    return moves


def use_count(st: DarwinningState, card: int, blocked: list[set[int]], envs: set[int]) -> int:
    """``len(uses(st, board, card, kind, blocked, envs))`` without building the moves."""
    count = 0
    if CHAIN[card]:
        count += 2 if st.edition == "1.7" else 1
    if EGGS[card]:
        count += 1
    if ENV_ICON[card] >= 0 and ENV_ICON[card] not in envs:
        count += 1
    if card not in JOKERS:
        value = VALUE[card]
        for slot in range(SLOTS):
            if value not in blocked[slot]:
                count += 1
    return count


def random_use(st: DarwinningState, board: Board, cards: list[int], kind: str,
               rng: random.Random) -> Move:
    """``upgrade_moves`` (kind ``upgrade``, which may decline) or ``pick_moves`` (``pick``,
    which may decline in v2.2) ``[randbelow(rng, n)]``: only counted, then the one move built
    (a pick from a long discard pile lists hundreds of moves, and a playout takes one)."""
    blocked = blocked_by_slot(board)
    envs = board.environments()
    distinct = sorted(set(cards))
    counts = [use_count(st, card, blocked, envs) for card in distinct]
    decline = 1 if kind == "upgrade" or pick_declinable(st) else 0
    pick = randbelow(rng, sum(counts) + decline)
    if pick < decline:
        return {"type": "no_upgrade"} if kind == "upgrade" else {"type": "no_pick"}
    pick -= decline
    for card, count in zip(distinct, counts, strict=True):
        if pick < count:
            return uses(st, board, card, kind, blocked, envs)[pick]
        pick -= count
    raise IndexError(f"no {kind} move #{pick}")


def pick_declinable(st: DarwinningState) -> bool:
    """D-11.7: v2.2's pick is the opponent's right ("antaa", lets), v1.7's a duty."""
    return st.edition != "1.7"


def pick_count(st: DarwinningState, target: int) -> int:
    """How many ways a discard-pile card can upgrade ``target`` (``pick_moves`` without its
    decline), without building the moves; none leaves no choice, and no pick is due."""
    board = st.boards[target]
    blocked = blocked_by_slot(board)
    envs = board.environments()
    return sum(use_count(st, card, blocked, envs) for card in set(st.discard))


def upgrade_moves(st: DarwinningState, seat: int, cards: list[int]) -> list[Move]:
    board = st.boards[seat]
    blocked = blocked_by_slot(board)
    envs = board.environments()
    moves: list[Move] = [{"type": "no_upgrade"}]
    for card in sorted(set(cards)):
        moves.extend(uses(st, board, card, "upgrade", blocked, envs))
    return moves


def pick_moves(st: DarwinningState, target: int) -> list[Move]:
    """D-11.7: every use of every discard-pile card on ``target``; v2.2 first offers the
    decline ``no_pick``."""
    board = st.boards[target]
    blocked = blocked_by_slot(board)
    envs = board.environments()
    moves: list[Move] = [{"type": "no_pick"}] if pick_declinable(st) else []
    for card in sorted(set(st.discard)):
        moves.extend(uses(st, board, card, "pick", blocked, envs))
    return moves


def apply_upgrade(st: DarwinningState, seat: int, move: Move, events: list[Event] | None,
                  by: int | None = None) -> None:
    """Put ``move["card"]`` on ``seat``'s board as ``move["use"]`` says."""
    board = st.boards[seat]
    card, use = move["card"], move["use"]
    event: Event = {"type": "upgraded", "seat": seat, "card": card, "use": use}
    if by is not None and by != seat:
        event["by"] = by
    if events is not None:
        events.append(event)
    if use in ("chain", "chain_down"):
        occupied = st.occupied(exclude=seat)
        old = board.position
        board.position = move_on_chain(old, CHAIN[card], occupied, up=use == "chain")
        board.chain.append(card)
        event.update({"from": old, "to": board.position})
    elif use == "eggs":
        board.population += EGGS[card]  # D-6.2: no limit
        board.eggs.append(card)
    elif use == "environment":
        board.adapted.append(card)
    else:
        place(st, seat, card, move["slot"], events)
        event["slot"] = move["slot"]
    if use == "ability" and VALUE[card] == MUTATION and steal_moves(st, seat)[1:]:
        st.queue.insert(0, {"kind": "steal", "seat": seat})


def place(st: DarwinningState, seat: int, card: int, slot: int, events: list[Event] | None) -> None:
    """Put an ability card in ``slot``; the replaced card (and a stolen card lying on a
    replaced Mutation) goes to the discard pile (D-6.4, D-10 #8)."""
    board = st.boards[seat]
    old = board.slots[slot]
    if old is not None and Board.slot_ability(old) == MUTATION and board.stolen is not None:
        st.discard.append(board.stolen)
        if events is not None:
            events.append({"type": "stolen_card_discarded", "seat": seat, "card": board.stolen})
        board.stolen = None
    if old is not None and old >= 0:
        st.discard.append(old)
    board.slots[slot] = card


def steal_moves(st: DarwinningState, seat: int) -> list[Move]:
    """D-10 #8: take an ability card from another board (or the dummy's cards, D-11.5)."""
    have = st.boards[seat].abilities()
    moves: list[Move] = [{"type": "no_steal"}]
    for other, board in enumerate(st.boards):
        if other == seat:
            continue
        for entry in board.slots:
            if entry is not None and entry >= 0 and VALUE[entry] not in have:
                moves.append({"type": "steal", "card": entry})
    for card in st.dummy_cards:
        if card not in JOKERS and VALUE[card] not in have:
            moves.append({"type": "steal", "card": card})
    return moves


def apply_steal(st: DarwinningState, seat: int, move: Move, events: list[Event] | None) -> None:
    if move["type"] == "no_steal":
        if events is not None:
            events.append({"type": "no_steal", "seat": seat})
        return
    card = move["card"]
    victim: int | str = "dummy"
    if card in st.dummy_cards:
        st.dummy_cards.remove(card)
    else:
        for other, board in enumerate(st.boards):
            if card in board.slots:
                board.slots[board.slots.index(card)] = None
                victim = other
                break
    st.boards[seat].stolen = card
    if events is not None:
        events.append({"type": "stole", "seat": seat, "card": card, "from": victim})


def metamorphosis_slots(board: Board, card: int) -> list[int]:
    """D-14.14: the card is played "as an ability", so like any ability (D-6.4) it may go
    to an empty place or replace one (Metamorphosis itself included), the owner's choice;
    DECISION: a held ability is replaced by the drawn copy (no two copies)."""
    value = VALUE[card]
    for k, entry in enumerate(board.slots):
        if entry is not None and Board.slot_ability(entry) == value:
            return [k]
    return list(range(SLOTS))
