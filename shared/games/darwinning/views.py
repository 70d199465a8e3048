"""What each seat may know (docs/rules/darwinning.md D-12), states rebuilt from a view, wording.

Public: the era, its environments, the boards, the dummy, the trick, the face-up discard pile,
how many cards each seat was dealt, discarded in secret (v1.7) and played this era, the queue
of decisions. Private to a seat: its hand, its face-down discards (secret discards and cards
not kept) and how many cards it kept. Hidden from all: the deck order and every hand size.
"""

from __future__ import annotations

import json
import random
from itertools import combinations
from typing import TYPE_CHECKING

from shared.kernel.protocol import Move, View
from shared.kernel.rng import randbelow, shuffle

from .cards import (
    CARD_COUNT,
    KEEP,
)

if TYPE_CHECKING:
    from .state import DarwinningState


def subsets(hand: list[int], most: int, kind: str) -> list[Move]:
    """``{"type": kind, "cards": [...]}`` for every set of at most ``most`` hand cards."""
    cards = sorted(hand)
    return [{"type": kind, "cards": list(combo)} for size in range(most + 1)
            for combo in combinations(cards, size)]


def view(st: DarwinningState, seat: int | None) -> View:
    data: View = {**st.public_json(), "seat": seat, "to_move": st.to_move()}
    if seat is not None:
        data["hand"] = sorted(st.hands[seat])
        data["hidden"] = list(st.hidden[seat])
        data["carried"] = st.carried[seat]
    if st.phase == "over":
        data["result"] = st.result().to_json()
    return data


def _kept_done(st: DarwinningState, s: int) -> bool:
    """Has seat ``s`` made its keeping choice of this era (D-5.3)?"""
    if st.era >= st.eras or s in st.emptied:
        return False
    return st.phase == "survival" or (st.phase == "keep" and s not in st.waiting)


def _hand_floor(st: DarwinningState, s: int) -> tuple[int, int | None]:
    """Bounds (low, exact or None) on seat ``s``'s hand before keeping, from public facts."""
    if st.phase == "discard":
        return 0, None
    if st.last_trick:
        return (0, 0) if s in st.emptied else (1, None)
    if st.stage == "trick":  # a trick resolved that was not the last: nobody ran out
        return 1, None
    if st.phase in ("trick", "announce") and any(p["seat"] == s for p in st.trick):
        return 0, None
    return 1, None


#: What a determinization takes from a view before any randomness: the state with every
#: public and own part loaded, the unseen cards, and per other seat (seat, cards left of its
#: deal, possible carried counts, whether it has kept this era).
Plan = tuple["DarwinningState", list[int], list[tuple[int, int, list[int], bool]]]


def sample_from_view(view: View, seat: int | None, rng: random.Random) -> DarwinningState:
    """A full state matching ``view``: unseen cards dealt at random to the other hands, the
    face-down discards and the deck, with hand sizes drawn among those the view allows."""
    return sample_with_plan(sampling_plan(view, seat), rng, fresh=False)


def sampling_plan(view: View, seat: int | None) -> Plan:
    """The view's known part, worked out once for many samples (``Game.sampler``)."""
    from .state import DarwinningState

    n = view["players"]
    st = DarwinningState(n, view["edition"], view["eras"])
    st.load_public(view)
    known: set[int] = set(st.discard) | set(st.removed) | set(st.dummy_cards)
    for b in st.boards:
        known.update(b.cards())
    for p in st.trick:
        known.update(p["cards"])
        known.update(p["dummy"])
    for q in st.queue:
        if "card" in q:
            known.add(q["card"])
    if seat is not None:
        st.hands[seat] = list(view["hand"])
        st.hidden[seat] = list(view["hidden"])
        st.carried[seat] = view["carried"]
        known.update(view["hand"])
        known.update(view["hidden"])
    pool = [c for c in range(CARD_COUNT) if c not in known]
    entries = []
    for s in range(n):
        if s == seat:
            continue
        base = st.dealt[s] - st.secret_counts[s] - st.played[s]
        low, exact = _hand_floor(st, s)
        carried_options = [0] if st.era == 1 or s in st.prev_emptied else list(range(KEEP + 1))
        options = [c for c in carried_options if base + c >= low
                   and (exact is None or base + c == exact)]
        if not options:
            raise ValueError("view is inconsistent with the hand counts")
        entries.append((s, base, options, _kept_done(st, s)))
    return st, pool, entries


def sample_with_plan(plan: Plan, rng: random.Random, fresh: bool = True) -> DarwinningState:
    """One determinization of ``plan`` (on a copy of its state unless ``fresh`` is false)."""
    template, unseen, entries = plan
    st = template.clone() if fresh else template
    pool = list(unseen)

    def realize(smallest: bool) -> list[tuple[int, int, int, int]]:
        """(seat, carried, hand, face-down) per unseen seat; carried cards drawn at random."""
        plan = []
        for s, base, options, kept in entries:
            carried = options[0] if smallest else options[randbelow(rng, len(options))]
            before = base + carried
            down = 0 if st.reshuffled else st.secret_counts[s]
            hand = before
            if kept:
                hand = randbelow(rng, min(KEEP, before) + 1)
                if not st.reshuffled:
                    down += before - hand
            plan.append((s, carried, hand, down))
        return plan

    dealt = realize(False)
    if sum(p[2] + p[3] for p in dealt) > len(pool):  # too many: the fewest carried cards fit
        dealt = realize(True)
        if sum(p[2] + p[3] for p in dealt) > len(pool):
            raise ValueError("view is inconsistent with the card composition")
    shuffle(rng, pool)
    for s, carried, hand, down in dealt:
        st.carried[s] = carried
        st.hands[s] = [pool.pop() for _ in range(hand)]
        st.hidden[s] = [pool.pop() for _ in range(down)]
    st.deck = pool
    return st


def explain_illegal(st: DarwinningState, seat: int, move: Move) -> str:
    """A precise reason why ``move`` is not legal for ``seat`` now."""
    text = json.dumps(move, sort_keys=True, default=str)
    if st.phase == "over":
        return "the match is over"
    if seat not in st.to_move():
        return f"seat {seat} owes no decision now"
    kind = move.get("type") if isinstance(move, dict) else None
    expected = sorted({m["type"] for m in st.legal_moves(seat)})
    if kind not in expected:
        return f"a {kind!r} move is not possible now: expected one of {expected}"
    cards = move.get("cards")
    if kind in ("play", "discard", "keep") and isinstance(cards, list):
        missing = [c for c in cards if c not in st.hands[seat]]
        if missing:
            return f"cards {missing} are not in your hand"
        if kind == "play":
            return (f"{text} is not a combination you may play now (D-4.2: exact card counts; "
                    "D-4.1: stronger than every play so far, or a single card)")
        return f"at most {2} cards, each once, sorted"
    if kind in ("upgrade", "pick"):
        return (f"{text}: the card must be among the offered ones and show the icon of the "
                "upgrade (D-6), no environment or ability twice (D-6.3, D-6.4)")
    return f"{text} is not a legal move for seat {seat} now"
