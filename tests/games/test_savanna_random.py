"""Seeded random play of Ecosystem: Savanna through the engine alone, checking invariants.

2,000 complete matches (400 for each of 2-6 players). Cheap invariants are checked at every
move; the expensive ones (codec, sample_from_view, clones) on a random sample of moves.
An independent knowledge tracker rebuilds what one observer may know (its own hands seen
plus the public reveals, docs/rules/savanna.md rule S-2.5) and checks that its views show
exactly that.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from shared.games.savanna import SavannaGame, SavannaState
from shared.games.savanna.scoring import GRID_COLUMNS, GRID_ROWS

GAME = SavannaGame()
MATCHES_PER_COUNT = 400
HEAVY_RATE = 0.1  # share of steps that get the expensive checks
PLAYER_VIEW_KEYS = {"game", "seat", "players", "phase", "step", "stage", "pass_direction",
                    "savannas", "removed", "picked", "revealed", "holding", "hand_sizes",
                    "deck_size", "over", "hand", "pending", "known_hands"}


def card_total(state: SavannaState) -> int:
    return (sum(len(h) for h in state.hands) + sum(p is not None for p in state.pending)
            + sum(c is not None for c in state.revealed)
            + sum(len(s) for s in state.savannas) + len(state.removed) + len(state.deck))


def check_box(state: SavannaState) -> None:
    """S-2.4: every savanna stays within 5 columns x 4 rows."""
    for sav in state.savannas:
        if sav:
            rows = [r for r, _ in sav]
            cols = [c for _, c in sav]
            assert max(rows) - min(rows) < GRID_ROWS
            assert max(cols) - min(cols) < GRID_COLUMNS


class Tracker:
    """What ``seat`` legitimately knows: hands it held, minus cards revealed from them."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.phase = 0
        self.known: dict[int, Counter[str]] = {}  # hand number -> contents

    def see(self, view: dict) -> None:
        """Before the seat picks: it looks at the hand it now holds."""
        if view["phase"] != self.phase:
            self.phase, self.known = view["phase"], {}
        own = view["holding"][self.seat]
        self.known[own] = Counter(view["hand"])

    def reveal(self, holding: list[int], event: dict) -> None:
        for pick in event["picks"]:
            hand = holding[pick["seat"]]
            if hand in self.known:
                self.known[hand][pick["card"]] -= 1

    def check(self, view: dict) -> None:
        own = view["holding"][self.seat]
        expected = {h: sorted(c.elements()) for h, c in self.known.items() if h != own}
        shown = {k["hand"]: k["cards"] for k in view["known_hands"]}
        assert shown == expected, "the view must show exactly the hands the seat has seen"
        for k in view["known_hands"]:
            assert view["holding"][k["seat"]] == k["hand"]


def heavy_checks(state: SavannaState, rng: random.Random) -> None:
    snapshot = state.to_json()
    text = json.dumps(snapshot)
    fresh = GAME.state_from_json(json.loads(text))
    assert fresh.to_json() == snapshot
    for s in range(state.num_players):  # incremental legal-cell cache == full computation
        assert fresh.legal_cells(s) == state.legal_cells(s)
    seat = rng.choice([*range(state.num_players), None])
    view = state.view(seat)
    assert json.loads(json.dumps(view)) == view
    sampled = GAME.sample_from_view(view, seat, random.Random(rng.random()))
    assert sampled.view(seat) == view
    assert card_total(sampled) == 132
    if seat is not None and seat in state.to_move():
        ids = sorted(state.move_id(m) for m in state.legal_moves(seat))
        assert ids == sorted(sampled.move_id(m) for m in sampled.legal_moves(seat))
    twin = state.clone()
    if not twin.is_over():
        mover = twin.to_move()[0]
        twin.apply(mover, twin.random_move(mover, rng), rng)
    assert state.to_json() == snapshot, "a clone must not share mutable parts"


def check_view_secrets(state: SavannaState, seat: int, view: dict) -> None:
    """Nothing beyond the seat's own hand, own pick and seen hands (S-2.5 / S-4)."""
    assert set(view) == PLAYER_VIEW_KEYS | ({"result"} if state.over else set())
    assert view["hand"] == sorted(state.hands[state.hand_index(seat)])
    assert view["pending"] == state.pending[seat]
    spectator = state.view(None)
    for key in ("hand", "pending", "known_hands"):
        assert key not in spectator
    assert {k: v for k, v in view.items() if k in spectator and k != "seat"} == \
        {k: v for k, v in spectator.items() if k != "seat"}


def play_match(players: int, seed: int) -> None:
    rng = random.Random(seed)
    state = GAME.new_state(players, {}, rng)
    assert isinstance(state, SavannaState)
    observer = rng.randrange(players)
    tracker = Tracker(observer)
    tracker.see(state.view(observer))
    steps = 0
    while not state.is_over():
        for stage in ("pick", "place"):  # S-2.2 then S-2.6: two simultaneous stages a step
            seats = state.to_move()
            assert seats == list(range(players)) and state.view(None)["stage"] == stage
            rng.shuffle(seats)  # any order of the simultaneous moves
            holding = [state.hand_index(s) for s in range(players)]
            for seat in seats:
                move = state.random_move(seat, rng)
                assert move["type"] == stage
                sizes = [len(s) for s in state.savannas]
                events = state.apply(seat, move, rng)
                assert card_total(state) == 132
                # Only a placement puts a card down, and only in the placer's savanna.
                sizes[seat] += stage == "place"
                assert [len(s) for s in state.savannas] == sizes
                for event in events:
                    if event["type"] == "reveal":
                        assert stage == "pick" and seat == seats[-1]
                        tracker.reveal(holding, event)
                view = state.view(observer)
                if not state.is_over() and view["phase"] == tracker.phase:
                    tracker.check(view)
                if rng.random() < HEAVY_RATE:
                    check_view_secrets(state, observer, view)
                    heavy_checks(state, rng)
        check_box(state)
        steps += 1
        if not state.is_over():
            tracker.see(state.view(observer))
            tracker.check(state.view(observer))
    assert steps == 20
    assert all(len(s) == 20 for s in state.savannas)
    assert len(state.removed) == 2 * players
    assert len(state.deck) == 132 - 22 * players
    result = state.result()
    assert result.winners == [s for s in range(players) if result.scores[s] == max(result.scores)]
    assert state.view(observer)["result"] == result.to_json()
    for seat, hunted in enumerate(result.details["hunted"]):
        for r, c in hunted["cheetah"]:
            assert state.savannas[seat][(r, c)] == "gazelle"
        for r, c in hunted["lion"]:
            assert state.savannas[seat][(r, c)] in ("gazelle", "zebra")
    heavy_checks(state, rng)


@pytest.mark.slow
@pytest.mark.rule("S-1.1", "S-2.2", "S-2.3", "S-2.4", "S-2.5", "S-2.6", "S-4.1", "S-4.2",
                  "S-4.3")
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_matches_keep_invariants(players: int) -> None:
    """Card conservation, 20 placements, the 5x4 box, knowledge, codec, sampling."""
    for seed in range(MATCHES_PER_COUNT):
        play_match(players, 1000 * players + seed)
