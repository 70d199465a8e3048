"""Seeded random play: 2,400 Darwinning! matches over 2-6 players, both editions, 3 and 4 eras.

Cheap invariants at every step (every card accounted for, no negative population, distinct
food-chain positions, no ability twice on a board, hands within bounds); the heavy ones (views
leak no hidden card, the codec round-trips, ``sample_from_view`` agrees with the view and
offers the same moves) on a sample of steps.
"""

from __future__ import annotations

import json
import random

import pytest

from shared.games import get_game
from shared.games.darwinning.cards import CARD_COUNT
from shared.games.darwinning.model import Board
from shared.games.darwinning.state import DarwinningState

from .helpers import all_cards

GAME = get_game("darwinning")
MATCHES_PER_CASE = 60  # x 5 player counts x 2 editions x 2 era counts x 2 halves = 2,400
HEAVY_EVERY = 23
TOTAL = list(range(CARD_COUNT))
CASES = [(p, ed, eras, half) for p in range(2, 7) for ed in ("2.2", "1.7") for eras in (3, 4)
         for half in (0, 1)]


def _cheap(st: DarwinningState) -> None:
    assert sorted(all_cards(st)) == TOTAL, "every card accounted for"
    positions = [b.position for b in st.boards]
    if st.dummy_pos is not None:
        positions.append(st.dummy_pos)
    assert len(set(positions)) == len(positions) and min(positions) >= 1
    for board in st.boards:
        assert board.population >= 0, "no negative population"
        held = [Board.slot_ability(e) for e in board.slots if e is not None]
        if board.stolen is not None:
            held.append(Board.slot_ability(board.stolen))
        assert len(held) == len(set(held)), "no ability twice (D-6.4)"
        assert len(board.environments()) == len(board.printed_envs) + len(board.adapted)
    if st.num_players != 2:
        assert st.dummy_pos is None and not st.dummy_cards


def _heavy(st: DarwinningState, step: int) -> None:
    snapshot = st.to_json()
    assert GAME.state_from_json(json.loads(json.dumps(snapshot))).to_json() == snapshot
    for seat in range(st.num_players):
        view = st.view(seat)
        assert json.loads(json.dumps(view)) == view
        assert view["hand"] == sorted(st.hands[seat]) and view["hidden"] == st.hidden[seat]
        assert not {"deck", "hands", "carried_all"} & set(view)
        text = json.dumps(view)
        # No other seat's hand or face-down card appears anywhere in the view.
        secret = {c for s in range(st.num_players) if s != seat
                  for c in st.hands[s] + st.hidden[s]} | set(st.deck)
        public = set(view["hand"]) | set(view["hidden"]) | set(view["discard"]) | set(
            view["dummy_cards"]) | set(view["removed"])
        assert not (secret & public)
        assert "hands" not in text
    for seat in st.to_move()[:2]:
        view = st.view(seat)
        sampled = GAME.sample_from_view(view, seat, random.Random(step))
        assert sampled.view(seat) == view, "samples agree with the view"
        assert sorted(all_cards(sampled)) == TOTAL
        assert sorted(map(st.move_id, st.legal_moves(seat))) == sorted(
            map(sampled.move_id, sampled.legal_moves(seat)))


@pytest.mark.slow
@pytest.mark.rule("D-2.1", "D-2.2", "D-12")
@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}p-v{c[1]}-{c[2]}eras-{c[3]}")
def test_random_play_invariants(case: tuple[int, str, int, int]) -> None:
    players, edition, eras, half = case
    step = 0
    for match in range(MATCHES_PER_CASE):
        rng = random.Random(f"{players}-{edition}-{eras}-{half}-{match}")
        st = GAME.new_state(players, {"edition": edition, "eras": eras}, rng)
        assert isinstance(st, DarwinningState)
        while not st.is_over():
            step += 1
            _cheap(st)
            if step % HEAVY_EVERY == 0:
                _heavy(st, step)
            seat = st.to_move()[0]
            st.apply(seat, st.random_move(seat, rng), rng)
        _cheap(st)
        assert st.era == eras
        result = st.result()
        assert result.winners and len(result.scores) == players
