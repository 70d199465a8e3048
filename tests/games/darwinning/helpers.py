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
