"""Shared helpers for the Darwinning! tests: card accounting and position building."""

from __future__ import annotations

import random

from shared.games.darwinning.cards import CARD_COUNT, CARD_NAMES, SPECIES
from shared.games.darwinning.model import Board
from shared.games.darwinning.state import DarwinningState


def all_cards(st: DarwinningState) -> list[int]:
    """Every card somewhere in the state, each place counted once (for the invariant)."""
    cards = list(st.deck) + list(st.discard) + list(st.removed) + list(st.dummy_cards)
    for hand in st.hands:
        cards += hand
    for pile in st.hidden:
        cards += pile
    for board in st.boards:
        cards += board.cards()
    for play in st.trick:
        cards += play["cards"]
        # Dummy cards a play used stay the dummy's, except those the winner took (D-11.3).
        if play["seat"] == st.winner:
            cards += [c for c in play["dummy"] if c not in st.dummy_cards]
    cards += [q["card"] for q in st.queue if "card" in q]
    return cards


def card(name: str) -> int:
    """The card id of ``"acorn-7a"``."""
    return CARD_NAMES.index(name)


def species(name: str) -> int:
    return next(i for i, s in enumerate(SPECIES) if s["id"] == name)


def bare(players: int, names: list[str], edition: str = "2.2", eras: int = 3,
         envs: tuple[str, ...] = ()) -> DarwinningState:
    """A state with the given species and nothing dealt: every card in the deck."""
    from shared.games.darwinning.cards import ENVIRONMENTS

    st = DarwinningState(players, edition, eras)
    st.boards = [Board(species(n)) for n in names]
    st.deck = list(range(CARD_COUNT))
    st.era = 1
    st.envs = sorted(ENVIRONMENTS.index(e) for e in envs)
    return st


def take(st: DarwinningState, name: str) -> int:
    """Remove card ``name`` from wherever it is in the deck and return its id."""
    cid = card(name)
    st.deck.remove(cid)
    return cid


def play_out(st: DarwinningState, rng: random.Random, limit: int = 5000) -> None:
    for _ in range(limit):
        if st.is_over():
            return
        seat = st.to_move()[0]
        st.apply(seat, st.random_move(seat, rng), rng)
    raise AssertionError("match did not end")


def upgrade_position(st: DarwinningState, seat: int, cards: list[int]) -> DarwinningState:
    """``seat`` has just won a (not last) trick with ``cards`` and owes its upgrade (D-4.4)."""
    from shared.games.darwinning.combos import classify

    for c in cards:
        if c in st.deck:
            st.deck.remove(c)
    rank_sum = classify(tuple(sorted(cards)), ()) or (0, 0)
    st.phase = "trick"
    st.trick = [{"seat": seat, "cards": list(cards), "dummy": [], "jokers": [],
                 "rank": rank_sum[0], "sum": rank_sum[1]}]
    st.best, st.winner, st.leader, st.turn = 0, seat, seat, seat
    for s in range(st.num_players):  # everyone holds a card so the era goes on
        if not st.hands[s]:
            st.hands[s] = [st.deck.pop(0)]
    st.queue = [{"kind": "upgrade", "seat": seat, "cards": list(cards)}]
    st.stage = "trick"
    return st


def survival_position(st: DarwinningState, last_era: bool = True) -> list[dict]:
    """Start survival now (hands and trick empty); returns the events."""
    st.era = st.eras if last_era else 1
    st.phase = "survival"
    events: list[dict] = []
    st.begin_survival(random.Random(0), events)
    return events


def moves_of(st: DarwinningState, seat: int, kind: str) -> list[dict]:
    return [m for m in st.legal_moves(seat) if m["type"] == kind]
