"""Rule-by-rule tests of Ecosystem: Savanna (docs/rules/savanna.md, rule ids S-x.y).

Each test names the rules it asserts with ``@pytest.mark.rule``; tests/test_rule_coverage.py
checks that every rule id of the reference is named by some test.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter

import pytest

from shared.games import get_game
from shared.games.savanna import FULL_DECK, SavannaGame, SavannaState
from shared.games.savanna.scoring import (
    CARD_TYPES,
    gazelle_bonus,
    grid_from_rows,
    normalise,
    score_all,
    score_savanna,
)
from shared.kernel.protocol import IllegalMove, NotYourTurn

GAME = SavannaGame()


def new(players: int = 3, seed: int = 0) -> SavannaState:
    state = GAME.new_state(players, GAME.resolve_options({}), random.Random(seed))
    assert isinstance(state, SavannaState)
    return state


def pick_all(state: SavannaState, rng: random.Random) -> list[dict]:
    """Every seat that owes a pick makes a random one (the last pick reveals them all)."""
    events: list[dict] = []
    for seat in state.to_move():
        events += state.apply(seat, state.random_move(seat, rng), rng)
    return events


def play_step(state: SavannaState, rng: random.Random) -> list[dict]:
    """One whole draft step: every seat picks, then every seat places, at random."""
    events = pick_all(state, rng)
    assert state.placing or state.is_over()
    for seat in state.to_move():
        events += state.apply(seat, state.random_move(seat, rng), rng)
    return events


def hand(state: SavannaState, seat: int) -> list[str]:
    return state.hands[state.hand_index(seat)]


def pick(card: str) -> dict:
    return {"type": "pick", "card": card}


def place(row: int, col: int) -> dict:
    return {"type": "place", "row": row, "col": col}


def state_with(savanna: dict[tuple[int, int], str], cards: list[str]) -> SavannaState:
    """A 2-player state where seat 0 has ``savanna`` and holds ``cards``."""
    state = new(2)
    state.savannas[0] = dict(savanna)
    state._cells[0] = None
    state._box[0] = None
    state.hands[state.hand_index(0)] = list(cards)
    return state


def placing(savanna: dict[tuple[int, int], str], card: str) -> SavannaState:
    """A 2-player state in the place stage: seat 0 (with ``savanna``) must place ``card``."""
    state = state_with(savanna, [card, "vulture"])
    rng = random.Random(0)
    state.apply(0, pick(card), rng)
    state.apply(1, state.random_move(1, rng), rng)
    assert state.placing and state.revealed[0] == card
    return state


# -- S-1 components -----------------------------------------------------------------------------

@pytest.mark.rule("S-1.1")
def test_deck_has_132_cards_in_11_types() -> None:
    counts = Counter(FULL_DECK)
    assert len(FULL_DECK) == 132
    assert counts == {"grass": 20, "acacia": 12, "watering_hole": 12, "gazelle": 14,
                      "zebra": 14, "giraffe": 10, "cheetah": 10, "lion": 10, "elephant": 10,
                      "hyena": 10, "vulture": 10}
    assert CARD_TYPES[0] == "grass" and CARD_TYPES[-1] == "vulture"  # S-3.12 order


@pytest.mark.rule("S-1.2")
def test_two_to_six_players() -> None:
    game = get_game("savanna")
    assert (game.min_players, game.max_players) == (2, 6)
    assert game.name == "Ecosystem: Savanna" and game.options == ()
    assert game.version == "savanna-2"
    for players in (1, 7):
        with pytest.raises(ValueError):
            new(players)
    for players in range(2, 7):
        assert new(players).to_move() == list(range(players))


# -- S-2 play -----------------------------------------------------------------------------------

@pytest.mark.rule("S-2.1")
@pytest.mark.parametrize("players", [2, 4, 6])
def test_deal_eleven_each_rest_unused(players: int) -> None:
    state = new(players)
    assert [len(hand(state, s)) for s in range(players)] == [11] * players
    assert len(state.deck) == 132 - 11 * players
    everything = [c for h in state.hands for c in h] + state.deck
    assert Counter(everything) == Counter(FULL_DECK)
    assert state.phase == 1 and state.step == 0


@pytest.mark.rule("S-2.2")
def test_every_seat_picks_a_card_face_down() -> None:
    state = new(3)
    rng = random.Random(1)
    assert state.to_move() == [0, 1, 2] and state.view(None)["stage"] == "pick"
    card = hand(state, 1)[0]
    # A pick names a card only: the cell is chosen after the reveal (S-2.6).
    assert {m["type"] for m in state.legal_moves(1)} == {"pick"}
    assert all(set(m) == {"type", "card"} for m in state.legal_moves(1))
    events = state.apply(1, pick(card), rng)
    private = [e for e in events if e.get("audience") == [1]]
    public = [e for e in events if "audience" not in e]
    assert private == [{"type": "picked", "seat": 1, "card": card, "audience": [1]}]
    assert public == [{"type": "picked", "seat": 1, "exclude": [1]}]
    assert state.to_move() == [0, 2]
    assert state.savannas[1] == {}  # face down
    assert state.observe_move(1, pick(card), 0) == "pick:hidden"
    assert state.observe_move(1, pick(card), 1) == "pick:" + card
    assert {seen for seen, _ in state.observed_moves(0, 2)} == {"pick:hidden"}
    with pytest.raises(NotYourTurn, match="already picked"):
        state.apply(1, pick(hand(state, 1)[0]), rng)
    # A place move before the reveal is refused, and so is a pick that names a cell.
    with pytest.raises(IllegalMove, match="pick a card first"):
        state.apply(0, place(0, 0), rng)
    with pytest.raises(IllegalMove, match="unexpected field"):
        state.apply(0, {**pick(hand(state, 0)[0]), "row": 0, "col": 0}, rng)


@pytest.mark.rule("S-2.6")
def test_picks_are_revealed_then_every_seat_places_its_card() -> None:
    state = new(3)
    rng = random.Random(1)
    picks = {s: state.random_move(s, rng)["card"] for s in range(3)}
    state.apply(2, pick(picks[2]), rng)
    state.apply(0, pick(picks[0]), rng)
    events = state.apply(1, pick(picks[1]), rng)
    reveal = [e for e in events if e["type"] == "reveal"]
    assert len(reveal) == 1 and "audience" not in reveal[0]
    assert reveal[0]["picks"] == [{"seat": s, "card": picks[s]} for s in range(3)]
    # Revealed, not yet placed: every seat now owes one placement of its own card.
    assert all(s == {} for s in state.savannas)
    assert state.to_move() == [0, 1, 2] and state.step == 0
    spectator = state.view(None)
    assert spectator["stage"] == "place" and spectator["revealed"] == [picks[s] for s in range(3)]
    assert state.legal_moves(0) == [place(0, 0)]
    with pytest.raises(IllegalMove, match="the picks are revealed"):
        state.apply(0, pick(hand(state, 0)[0]), rng)
    events = state.apply(1, place(0, 0), rng)
    # A placement is public: every observer sees it whole.
    assert events == [{"type": "placed", "seat": 1, "card": picks[1], "row": 0, "col": 0}]
    assert all(state.observe_move(0, place(0, 0), o) == "place:0,0" for o in range(3))
    assert state.savannas[1] == {(0, 0): picks[1]}
    assert state.to_move() == [0, 2] and state.view(None)["revealed"] == [picks[0], None, picks[2]]
    with pytest.raises(NotYourTurn, match="already placed"):
        state.apply(1, place(0, 1), rng)
    state.apply(2, place(0, 0), rng)
    state.apply(0, place(0, 0), rng)
    assert [s[(0, 0)] for s in state.savannas] == [picks[0], picks[1], picks[2]]
    assert state.step == 1 and state.view(None)["stage"] == "pick"
    assert state.to_move() == [0, 1, 2]


@pytest.mark.rule("S-2.6", "S-2.5")
def test_two_players_know_the_next_hand_before_placing() -> None:
    # At the table, in two players the reveal shows which cards come next before anyone
    # places: from the second step on, the hand the opponent holds is the hand a seat held a
    # step earlier, and the opponent's pick is now face up.
    state = new(2, seed=3)
    rng = random.Random(3)
    play_step(state, rng)
    pick_all(state, rng)
    assert state.placing
    coming = sorted(hand(state, 1))  # seat 1's rest, passed to seat 0 after the placements
    assert state.view(0)["known_hands"] == [{"seat": 1, "hand": 0, "cards": coming}]
    for seat in (0, 1):
        state.apply(seat, state.random_move(seat, rng), rng)
    assert sorted(hand(state, 0)) == coming


@pytest.mark.rule("S-2.7")
def test_phase_one_passes_left_after_everybody_placed() -> None:
    state = new(4)
    rng = random.Random(2)
    for _ in range(3):
        play_step(state, rng)
        before = [sorted(hand(state, s)) for s in range(4)]
        picks = {s: state.random_move(s, rng) for s in range(4)}
        for s, move in picks.items():
            state.apply(s, move, rng)
        # Revealed but not placed: nobody has passed yet.
        assert state.placing
        held = [sorted(hand(state, s)) for s in range(4)]
        for s in range(4):
            remaining = list(before[s])
            remaining.remove(picks[s]["card"])
            assert held[s] == sorted(remaining)
        for s in range(4):
            state.apply(s, state.random_move(s, rng), rng)
        for s in range(4):
            # Left = seat + 1: seat s's rest now lies with seat s+1.
            assert sorted(hand(state, (s + 1) % 4)) == held[s]


@pytest.mark.rule("S-2.3")
def test_phase_end_removal_phase_two_deal_pass_right_and_end_after_20() -> None:
    players = 3
    state = new(players)
    rng = random.Random(3)
    for _ in range(9):
        play_step(state, rng)
    last = [list(hand(state, s)) for s in range(players)]
    picks = {s: state.random_move(s, rng) for s in range(players)}
    events = []
    for s, move in picks.items():
        events += state.apply(s, move, rng)
    for s in range(players):
        events += state.apply(s, state.random_move(s, rng), rng)
    # After the 10th placement each seat held one card: it is removed face up (public).
    for s in range(players):
        last[s].remove(picks[s]["card"])
    phase_end = next(e for e in events if e["type"] == "phase_end")
    assert "audience" not in phase_end
    assert phase_end["removed"] == [{"seat": s, "card": last[s][0]} for s in range(players)]
    assert state.removed == [(1, s, last[s][0]) for s in range(players)]
    assert all(len(s) == 10 for s in state.savannas)
    # Phase II: 11 new cards each from the rest of the deck, passing right.
    assert state.phase == 2 and state.step == 0
    assert [len(hand(state, s)) for s in range(players)] == [11] * players
    assert len(state.deck) == 132 - 22 * players
    deals = [e for e in events if e["type"] == "deal" and "audience" in e]
    assert [e["audience"] for e in deals] == [[s] for s in range(players)]
    assert state.view(0)["pass_direction"] == "right"
    before = [sorted(hand(state, s)) for s in range(players)]
    picks = {s: state.random_move(s, rng) for s in range(players)}
    for s, move in picks.items():
        state.apply(s, move, rng)
    for s in range(players):
        state.apply(s, state.random_move(s, rng), rng)
    for s in range(players):
        remaining = list(before[s])
        remaining.remove(picks[s]["card"])
        assert sorted(hand(state, (s - 1) % players)) == sorted(remaining)
    while not state.is_over():
        play_step(state, rng)
    assert all(len(s) == 20 for s in state.savannas)
    assert len(state.removed) == 2 * players and state.to_move() == []
    with pytest.raises(NotYourTurn):
        state.apply(0, pick("grass"), rng)


@pytest.mark.rule("S-2.4")
def test_first_card_goes_at_origin() -> None:
    state = new(2)
    rng = random.Random(0)
    pick_all(state, rng)
    assert state.legal_moves(0) == [place(0, 0)]
    with pytest.raises(IllegalMove, match="first card"):
        state.apply(0, place(1, 0), rng)


@pytest.mark.rule("S-2.4")
def test_adjacency_occupied_and_bounding_box() -> None:
    # Five cards in a row: columns full, rows may still grow by 3 above or below.
    row = {(0, c): "grass" for c in range(-2, 3)}
    state = placing(row, "zebra")
    cells = set(state.legal_cells(0))
    assert cells == {(r, c) for r in (-1, 1) for c in range(-2, 3)}
    assert {(m["row"], m["col"]) for m in state.legal_moves(0)} == cells
    snapshot = state.to_json()
    rng = random.Random(0)
    for move, reason in [
        (place(0, 0), "occupied"),
        (place(0, 3), "exceed"),  # a 6th column
        (place(2, 0), "shares no edge"),
        ({"type": "draw"}, "unknown move type"),
        ({**place(1, 0), "card": "zebra"}, "unexpected field"),
        (place("1", 0), "integers"),  # type: ignore[arg-type]
    ]:
        with pytest.raises(IllegalMove, match=reason):
            state.apply(0, move, rng)
        assert reason in state.explain_illegal(0, move)
        assert state.to_json() == snapshot  # an illegal move changes nothing
    # Picking: only cards of the hand, of known types.
    state = state_with(row, ["zebra", "lion"])
    for move, reason in [(pick("hyena"), "no hyena in the hand"),
                         (pick("unicorn"), "unknown card type"),
                         (pick(["zebra"]), "unknown card type")]:  # type: ignore[arg-type]
        with pytest.raises(IllegalMove, match=reason):
            state.apply(0, move, rng)
    # Four rows tall: no fifth row (S-2.4), negative coordinates are fine.
    column = {(r, 0): "grass" for r in range(-3, 1)}
    state = placing(column, "zebra")
    assert set(state.legal_cells(0)) == {(r, c) for r in range(-3, 1) for c in (-1, 1)}
    with pytest.raises(IllegalMove, match="exceed"):
        state.apply(0, place(1, 0), rng)
    state.apply(0, place(-3, -1), rng)
    assert state.savannas[0][(-3, -1)] == "zebra"


@pytest.mark.rule("S-2.2", "S-2.4")
def test_moves_ids_labels_and_uniform_random_moves() -> None:
    state = state_with({(0, 0): "grass"}, ["zebra", "zebra", "lion"])
    picks = state.legal_moves(0)
    assert picks == [pick("lion"), pick("zebra")]  # one move per card type
    assert [state.move_id(m) for m in picks] == ["pick:lion", "pick:zebra"]
    # The card is named as the catalogue names it (texts.en.json).
    assert state.move_label(pick("watering_hole")).startswith("Pick Watering Hole")
    counts = Counter(state.move_id(state.random_move(0, random.Random(i))) for i in range(2000))
    assert set(counts) == {"pick:lion", "pick:zebra"} and min(counts.values()) > 800
    state = placing({(0, 0): "grass"}, "zebra")
    places = state.legal_moves(0)
    assert len(places) == 4 and len({state.move_id(m) for m in places}) == 4
    assert state.move_id(place(1, -2)) == "place:1,-2"
    assert state.move_label(place(1, -2)) == "Place your revealed card at row 1, column -2"
    counts = Counter(state.move_id(state.random_move(0, random.Random(i))) for i in range(4000))
    assert set(counts) == {state.move_id(m) for m in places}
    assert min(counts.values()) > 4000 / 4 * 0.8  # roughly uniform over moves


# -- S-2.5 / S-4 views ----------------------------------------------------------------------------

@pytest.mark.rule("S-2.5", "S-4.1", "S-4.2", "S-4.3")
def test_view_hides_others_hands_and_pending_picks() -> None:
    state = new(3)
    rng = random.Random(4)
    own = sorted(hand(state, 0))
    view0, view1, spectator = state.view(0), state.view(1), state.view(None)
    assert view0["hand"] == own and view0["known_hands"] == []
    assert view1["hand"] == sorted(hand(state, 1))
    for key in ("hand", "pending", "known_hands"):
        assert key not in spectator
    assert "deck" not in view0 and view0["deck_size"] == 132 - 33
    move = state.random_move(0, rng)
    state.apply(0, move, rng)
    assert state.view(0)["pending"] == move["card"]
    assert state.view(1)["pending"] is None and state.view(1)["picked"] == [0]
    assert state.view(1)["hand_sizes"] == [10, 11, 11]
    text = json.dumps(state.view(1))
    assert move["card"] not in json.dumps(state.view(None)["revealed"])
    assert '"pending": null' in text and "known_hands\": []" in text
    assert "savannas" in spectator and "removed" in spectator  # public


@pytest.mark.rule("S-2.5")
def test_seen_hands_stay_known_including_face_down_pick() -> None:
    state = new(4)
    rng = random.Random(5)
    play_step(state, rng)
    # Phase I passes left: the hand seat 0 held is now with seat 1.
    known = state.view(0)["known_hands"]
    assert known == [{"seat": 1, "hand": 0, "cards": sorted(hand(state, 1))}]
    contents = sorted(hand(state, 1))
    move = state.random_move(1, rng)
    state.apply(1, move, rng)
    # Seat 1 picked face down: seat 0 still sees the same 10 cards, not which one went.
    assert state.view(0)["known_hands"][0]["cards"] == contents
    assert state.view(2)["known_hands"] == [
        {"seat": 3, "hand": 2, "cards": sorted(hand(state, 3))}]
    for seat in (0, 2, 3):
        state.apply(seat, state.random_move(seat, rng), rng)
    contents.remove(move["card"])
    # Revealed: the pick is subtracted at once, before anyone places.
    assert state.placing and state.view(0)["known_hands"][0]["cards"] == contents
    for seat in range(4):
        state.apply(seat, state.random_move(seat, rng), rng)
    known = state.view(0)["known_hands"]
    assert [k["seat"] for k in known] == [1, 2]
    assert known[1]["cards"] == contents
    assert state.view(None).get("known_hands") is None


@pytest.mark.rule("S-4.1", "S-4.2", "S-4.3")
@pytest.mark.parametrize("stage", ["pick", "place"])
def test_sample_from_view_keeps_the_view(stage: str) -> None:
    state = new(5)
    rng = random.Random(6)
    for _ in range(3):
        play_step(state, rng)
    state.apply(2, state.random_move(2, rng), rng)
    if stage == "place":
        pick_all(state, rng)
        state.apply(3, state.random_move(3, rng), rng)
    for seat in [*range(5), None]:
        view = state.view(seat)
        for seed in range(3):
            sampled = GAME.sample_from_view(view, seat, random.Random(seed))
            assert sampled.view(seat) == view
            total = (sum(len(h) for h in sampled.hands) + len(sampled.deck)
                     + sum(len(s) for s in sampled.savannas) + len(sampled.removed)
                     + sum(p is not None for p in sampled.pending)
                     + sum(c is not None for c in sampled.revealed))
            assert total == 132


# -- S-3 scoring ----------------------------------------------------------------------------------

@pytest.mark.rule("S-3.1")
def test_grass_groups_by_size() -> None:
    def grass(n: int) -> int:
        return score_savanna({(0, c): "grass" for c in range(n)}).breakdown["grass"]

    assert [grass(n) for n in range(1, 8)] == [0, 3, 6, 10, 15, 15, 15]
    # Two groups score separately; diagonal contact does not join groups.
    grid = grid_from_rows([["grass", "grass", "zebra", "grass"],
                           ["zebra", "zebra", "grass", "grass"]])
    assert score_savanna(grid).breakdown["grass"] == 3 + 6


@pytest.mark.rule("S-3.2")
def test_acacia_scores_each_row_and_column_with_an_acacia_once() -> None:
    # Once per savanna: 2 for each row and 2 for each column holding at least one acacia.
    assert score_savanna({(0, 0): "acacia"}).breakdown["acacia"] == 2 * (1 + 1)
    diagonal = {(0, 0): "acacia", (1, 1): "acacia"}
    assert score_savanna(diagonal).breakdown["acacia"] == 2 * (2 + 2)
    row = {(0, 0): "acacia", (0, 1): "acacia", (0, 2): "acacia"}
    assert score_savanna(row).breakdown["acacia"] == 2 * (1 + 3)
    # A second acacia in a row and column already held adds nothing.
    square = {(0, 0): "acacia", (0, 1): "acacia", (1, 0): "acacia", (1, 1): "acacia"}
    assert score_savanna(square).breakdown["acacia"] == 2 * (2 + 2)
    # Five acacias spread over 4 rows and 5 columns: 18 (counted per acacia it would be 90).
    spread = grid_from_rows([["acacia", ".", ".", ".", "acacia"],
                             [".", "acacia", ".", ".", "."],
                             [".", ".", "acacia", ".", "."],
                             [".", ".", ".", "acacia", "."]])
    assert score_savanna(spread).breakdown["acacia"] == 18
    assert score_savanna({(0, 0): "grass"}).breakdown["acacia"] == 0


@pytest.mark.rule("S-3.3")
def test_watering_hole_distinct_adjacent_animal_types() -> None:
    grid = grid_from_rows([[".", "zebra", "."],
                           ["zebra", "watering_hole", "lion"],
                           [".", "grass", "."]])
    assert score_savanna(grid).breakdown["watering_hole"] == 2 * 2  # zebra, lion
    # Counted before the hunts: a gazelle a cheetah later eats still counts.
    grid = grid_from_rows([["cheetah", ".", "."],
                           [".", "gazelle", "watering_hole"]])
    score = score_savanna(grid)
    assert score.cheetah_prey == [(1, 1)] and score.breakdown["watering_hole"] == 2


@pytest.mark.rule("S-3.4")
def test_gazelles_two_each_and_majority_bonus() -> None:
    grid = {(0, c): "gazelle" for c in range(3)}
    assert score_savanna(grid).breakdown["gazelle"] == 6
    assert gazelle_bonus([3, 1, 0]) == [5, 2, 0]
    assert gazelle_bonus([3, 3, 1]) == [5, 5, 0]  # tied first: no second place
    assert gazelle_bonus([3, 1, 1, 2]) == [5, 0, 0, 2]
    assert gazelle_bonus([4, 2, 2, 0]) == [5, 2, 2, 0]  # tied second both get it
    assert gazelle_bonus([0, 0, 0]) == [0, 0, 0]  # at least one gazelle needed
    assert gazelle_bonus([2, 0]) == [5, 0]
    assert gazelle_bonus([1, 1]) == [5, 5]


@pytest.mark.rule("S-3.4")
def test_gazelle_majority_counts_gazelles_before_cheetahs() -> None:
    hunted = {(0, 0): "cheetah", (1, 1): "gazelle", (2, 2): "gazelle"}
    safe = {(0, 0): "gazelle"}
    totals, breakdowns, scores = score_all([hunted, safe])
    assert [s.gazelles for s in scores] == [2, 1]
    assert [b["gazelle_bonus"] for b in breakdowns] == [5, 2]
    assert totals == [4 + 6 + 5, 2 + 2]


@pytest.mark.rule("S-3.5")
def test_zebra_three_per_adjacent_grass() -> None:
    grid = grid_from_rows([[".", "grass", "."],
                           ["grass", "zebra", "grass"],
                           ["grass", "acacia", "."]])
    assert score_savanna(grid).breakdown["zebra"] == 9  # the diagonal grass does not count


@pytest.mark.rule("S-3.6")
def test_giraffe_five_if_next_to_acacia() -> None:
    grid = grid_from_rows([["acacia", "giraffe", "acacia"],
                           ["giraffe", "grass", "giraffe"]])
    # Top giraffe: two acacias, still 5; (1,0) touches acacia (0,0); (1,2) touches (0,2).
    assert score_savanna(grid).breakdown["giraffe"] == 15
    assert score_savanna({(0, 0): "acacia", (1, 1): "giraffe"}).breakdown["giraffe"] == 0


@pytest.mark.rule("S-3.7")
def test_cheetah_diagonals_any_distance_shared_prey_removed_before_lions() -> None:
    grid = grid_from_rows([
        ["gazelle", ".", "gazelle", ".", "."],
        [".", "cheetah", ".", "cheetah", "."],
        ["grass", "gazelle", ".", ".", "."],
        ["lion", ".", ".", "gazelle", "."],
    ])
    score = score_savanna(grid)
    # Cheetah (1,1): (0,0), (0,2), (3,3) (two steps away) -> 9; (1,3): (0,2) shared -> 3.
    assert score.breakdown["cheetah"] == 12
    assert score.cheetah_prey == [(0, 0), (0, 2), (3, 3)]
    assert score.breakdown["gazelle"] == 8  # all four gazelles scored before the hunt
    # The lion (next to grass) can only take the gazelle the cheetahs left.
    assert score.lion_prey == [(2, 1)] and score.breakdown["lion"] == 4


@pytest.mark.rule("S-3.8")
def test_lion_needs_grass_and_lions_never_share_prey() -> None:
    no_grass = {(0, 0): "lion", (0, 1): "zebra"}
    assert score_savanna(no_grass).breakdown["lion"] == 0
    two_lions = grid_from_rows([["grass", "lion", "zebra"],
                                ["lion", "grass", "."]])
    score = score_savanna(two_lions)
    assert score.breakdown["lion"] == 4 and score.lion_prey == [(0, 2)]  # one prey only
    # Prey anywhere (not adjacent), ties broken by the lowest (row, col).
    tie = grid_from_rows([["grass", "lion", ".", "gazelle"], ["zebra", ".", ".", "zebra"]])
    assert score_savanna(tie).lion_prey == [(0, 3)]


@pytest.mark.rule("S-3.8")
def test_lion_prey_maximises_total() -> None:
    grid = grid_from_rows([
        ["grass", "lion", "vulture", "."],
        ["zebra", ".", ".", "."],
        [".", ".", "zebra", "."],
    ])
    # Zebra (2,2) lies below the vulture: hunting it earns 4 more than zebra (1,0).
    score = score_savanna(grid)
    assert score.lion_prey == [(2, 2)] and score.breakdown["vulture"] == 4
    # Brute force on random savannas: the choice is optimal and the lowest optimal set.
    rng = random.Random(8)
    weighted = ["lion"] * 4 + ["zebra"] * 3 + ["gazelle"] * 3 + ["grass"] * 3 + [
        "elephant", "hyena", "vulture", "cheetah", "acacia", "watering_hole", "giraffe"]
    for _ in range(300):
        grid = {(r, c): rng.choice(weighted) for r in range(4) for c in range(5)}
        score = score_savanna(grid)
        cells = dict(grid)
        for cell in score.cheetah_prey:
            del cells[cell]
        prey = sorted(p for p, t in cells.items() if t in ("zebra", "gazelle"))
        hunters = sum(1 for (r, c), t in cells.items() if t == "lion" and any(
            cells.get(n) == "grass" for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))))
        totals = {s: score_savanna(grid, lion_prey=s).total
                  for k in range(min(hunters, len(prey)) + 1)
                  for s in itertools.combinations(prey, k)}
        best = max(totals.values())
        assert score.total == best
        optimal = [list(s) for s, total in totals.items() if total == best]
        assert score.lion_prey == min(optimal)


@pytest.mark.rule("S-3.9")
def test_elephant_penalty_for_other_adjacent_animals_after_hunts() -> None:
    grid = grid_from_rows([[".", "zebra", "."],
                           ["elephant", "elephant", "grass"],
                           [".", "hyena", "."]])
    # (1,1): zebra and hyena are other animals (-4), the elephant and grass are not -> 2.
    # (1,0): only the other elephant -> 6.
    assert score_savanna(grid).breakdown["elephant"] == 8
    hunted = grid_from_rows([["cheetah", ".", "."],
                             [".", "gazelle", "elephant"]])
    assert score_savanna(hunted).breakdown["elephant"] == 6  # the gazelle is gone


@pytest.mark.rule("S-3.10")
def test_hyena_hunted_within_two_cards_chebyshev() -> None:
    grid = grid_from_rows([
        ["cheetah", ".", ".", ".", "."],
        [".", "gazelle", ".", ".", "."],
        [".", ".", ".", "hyena", "hyena"],
        [".", ".", ".", ".", "."],
    ])
    # Hunted gazelle (1,1): hyena (2,3) is at Chebyshev 2 -> 3; hyena (2,4) at 3 -> 0.
    assert score_savanna(grid).breakdown["hyena"] == 3


@pytest.mark.rule("S-3.11")
def test_vulture_hunted_below_in_same_column() -> None:
    grid = grid_from_rows([
        [".", "vulture", "vulture"],
        ["cheetah", ".", "."],
        [".", "gazelle", "vulture"],
        [".", ".", "gazelle"],
    ])
    # Cheetah (1,0) hunts (2,1) and (3,2). Vulture (0,1): (2,1) below -> 4. Vulture (0,2):
    # (3,2) below -> 4. Vulture (2,2): (3,2) below -> 4. Total 12.
    score = score_savanna(grid)
    assert score.cheetah_prey == [(2, 1), (3, 2)]
    assert score.breakdown["vulture"] == 12
    above = grid_from_rows([["cheetah", "."], [".", "gazelle"], [".", "vulture"]])
    assert score_savanna(above).breakdown["vulture"] == 0  # prey above does not count


@pytest.mark.rule("S-3.1", "S-3.2", "S-3.3", "S-3.4", "S-3.5", "S-3.6", "S-3.7", "S-3.8",
                  "S-3.9", "S-3.10", "S-3.11", "S-3.12")
def test_full_savanna_scored_by_hand() -> None:
    """All of S-3.1-S-3.12 on one finished 5x4 savanna, in order, checked by hand."""
    rows = [
        ["grass", "grass", "zebra", "acacia", "giraffe"],
        ["grass", "lion", "watering_hole", "gazelle", "vulture"],
        ["zebra", "elephant", "cheetah", "hyena", "gazelle"],
        ["acacia", "gazelle", "grass", "elephant", "gazelle"],
    ]
    # Shifted to odd coordinates, as a real savanna would be: scoring normalises it.
    grid = {(r - 2, c + 3): t for (r, c), t in grid_from_rows(rows).items()}
    assert len(grid) == 20
    score = score_savanna(normalise(grid))
    expected = {
        "grass": 6,           # group (0,0),(0,1),(1,0) of 3 -> 6; lone (3,2) -> 0
        "acacia": 8,          # rows {0,3} + cols {0,3} hold an acacia: 4 lines x 2
        "watering_hole": 8,   # (1,2): zebra, cheetah, lion, gazelle = 4 types x 2
        "gazelle": 8,         # 4 gazelles x 2
        "zebra": 6,           # (0,2): grass (0,1) -> 3; (2,0): grass (1,0) -> 3
        "giraffe": 5,         # (0,4) next to acacia (0,3)
        "cheetah": 6,         # (2,2) diagonals hold gazelles (1,3) and (3,1): 2 x 3
        "lion": 4,            # (1,1) touches grass; prey values: (0,2) 3 [hyena],
                              # (2,0) 2 [elephant], (2,4) 7 [hyena+vulture],
                              # (3,4) 9 [elephant+hyena+vulture] -> takes (3,4)
        "elephant": 4,        # (2,1): lion, zebra, cheetah -> 6-6 = 0; (3,3): hyena -> 4
        "hyena": 9,           # (2,3): hunted (1,3), (3,1), (3,4) all within 2 -> 3 x 3
        "vulture": 4,         # (1,4): hunted (3,4) below in column 4 -> 4
    }
    assert score.breakdown == expected
    assert score.cheetah_prey == [(1, 3), (3, 1)] and score.lion_prey == [(3, 4)]
    assert score.total == 68  # 6+8+8+8+6+5+6+4+4+9+4


@pytest.mark.rule("S-3.13")
def test_result_highest_total_wins_ties_share() -> None:
    state = new(3)
    rng = random.Random(9)
    while not state.is_over():
        play_step(state, rng)
    result = state.result()
    totals, breakdowns, _ = score_all(state.savannas)
    assert result.scores == totals
    assert result.details["breakdown"] == breakdowns
    assert result.winners == [s for s in range(3) if totals[s] == max(totals)]
    for seat, hunted in enumerate(result.details["hunted"]):
        for r, c in hunted["cheetah"] + hunted["lion"]:
            assert state.savannas[seat][(r, c)] in ("gazelle", "zebra")
    assert state.view(1)["result"] == result.to_json()
    state.savannas[1] = dict(state.savannas[0])
    state.savannas[2] = dict(state.savannas[0])
    state._result = None
    assert state.result().winners == [0, 1, 2]


def test_greedy_value_counts_a_picked_card_at_its_best_cell() -> None:
    state = state_with({(0, 0): "grass", (1, 0): "elephant", (1, 1): "zebra"}, ["grass", "lion"])
    before = GAME.greedy_value(state, 0)
    rng = random.Random(0)
    state.apply(0, pick("grass"), rng)
    # Best cell for the grass, (0, 1): beside the zebra (+3) and the other grass (a pair, +3).
    assert GAME.greedy_value(state, 0) == before + 6
    state.apply(1, state.random_move(1, rng), rng)  # the reveal: the card is still to place
    assert GAME.greedy_value(state, 0) == before + 6
    state.apply(0, place(-1, 0), rng)  # next to the grass only: a pair, +3
    assert GAME.greedy_value(state, 0) == before + 3
