"""Seeded random play: 2,000 matches over 2-6 players and both options, with invariants.

Cheap invariants at every step (cards, body size and population, food conservation, trait
limits); the heavy ones (views leak no hidden card, codec round-trip, ``sample_from_view``
agreement) on a sample of steps. Split into chunks so xdist spreads them over workers.
"""

from __future__ import annotations

import json
import random

import pytest

from shared.games import get_game
from shared.games.evolution_ns.cards import DECK_SIZE, TRAIT_OF
from shared.games.evolution_ns.state import NSState

from .helpers import all_cards, hidden_cards

GAME = get_game("evolution-ns")
MATCHES = 200  # per (players, quick) chunk: 5 counts x 2 options x 200 = 2,000 matches
HEAVY_EVERY = 41
CHUNKS = [(players, quick) for players in range(2, 7) for quick in (False, True)]


def cheap(st: NSState) -> None:
    assert sorted(all_cards(st)) == list(range(DECK_SIZE)), "every card accounted for"
    assert st.hole >= 0
    on_boards = sum(sp.food + sp.fat for row in st.species for sp in row)
    assert st.bank_out == st.hole + on_boards + sum(st.bags), "food conserved (N-1.2)"
    assert len(st.removed) == (40 if st.num_players == 2 else 0)
    for row in st.species:
        for sp in row:
            assert 1 <= sp.body <= 6 and 1 <= sp.pop <= 6, "N-1.2 tracks 1-6"
            assert 0 <= sp.food <= sp.pop, "never fed beyond its population"
            assert 0 <= sp.fat <= sp.body
            assert sp.fat == 0 or sp.has("fat_tissue")
            names = [TRAIT_OF[c] for c in sp.traits]
            assert len(names) == len(set(names)) <= st.max_traits, "N-3.3 trait limits"
            assert 0 <= sp.down <= len(sp.traits)
            assert sp.down == 0 or st.phase == "play"
    if st.phase != "food" and st.phase != "play":
        assert all(c is None for c in st.food_cards)
    if st.phase in ("effects", "feed"):
        assert all(row for row in st.species) or st.phase == "feed"


def heavy(st: NSState, step: int) -> None:
    snapshot = st.to_json()
    assert GAME.state_from_json(json.loads(json.dumps(snapshot))).to_json() == snapshot
    for seat in [*range(st.num_players), None]:
        view = st.view(seat)
        text = json.dumps(view)
        assert json.loads(text) == view
        assert "deck" not in view and "hands" not in view and "removed" not in view
        secret = hidden_cards(st, seat)
        visible = set(view.get("hand", [])) | set(view["discard"])
        visible |= {c for row in view["species"] for sp in row
                    for c in sp["traits"] + sp.get("down_cards", [])}
        if view.get("food_card") is not None:
            visible.add(view["food_card"])
        visible |= set(view.get("my_staged", []))
        assert not visible & secret, "a view shows a card hidden from its seat"
    seat = st.to_move()[0]
    view = st.view(seat)
    sampled = GAME.sample_from_view(view, seat, random.Random(step))
    assert sampled.view(seat) == view, "the sample agrees with the view"
    assert sorted(map(st.move_id, st.legal_moves(seat))) == sorted(
        map(sampled.move_id, sampled.legal_moves(seat)))
    # random_move (unlisted in the play-cards phase) draws exactly the listed move
    legal = st.legal_moves(seat)
    for k in range(3):
        assert st.clone().random_move(seat, random.Random(k)) == legal[
            random.Random(k).randrange(len(legal))]


@pytest.mark.slow
@pytest.mark.rule("N-1.1", "N-1.2", "N-3.3", "N-6")
@pytest.mark.parametrize(("players", "quick"), CHUNKS)
def test_random_play_invariants(players: int, quick: bool) -> None:
    step = 0
    for match in range(MATCHES):
        rng = random.Random(players * 10_000 + match * 2 + quick)
        st = GAME.new_state(players, {"quick": quick}, rng)
        assert isinstance(st, NSState)
        while not st.is_over():
            step += 1
            cheap(st)
            if step % HEAVY_EVERY == 0:
                heavy(st, step)
            seats = st.to_move()
            seat = seats[rng.randrange(len(seats))]
            st.apply_legal(seat, st.random_move(seat, rng), rng)
        cheap(st)
        result = st.result()
        assert result.winners and len(result.scores) == players
