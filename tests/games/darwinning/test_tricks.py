"""Era start, tricks and era end (docs/rules/darwinning.md D-3, D-4, D-5)."""

from __future__ import annotations

import random

import pytest

from shared.games import get_game
from shared.games.darwinning import tricks
from shared.games.darwinning.cards import CARD_COUNT, ENVS_PER_ERA, HAND_SIZE, JOKERS
from shared.games.darwinning.combos import (
    FLUSH,
    FOUR,
    PAIR,
    SINGLE,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE,
    classify,
    enumerate_combos,
)
from shared.games.darwinning.state import DarwinningState
from shared.kernel.protocol import IllegalMove

from .helpers import bare, card, take

GAME = get_game("darwinning")
J1, J2 = sorted(JOKERS)


def trick_state(hands: list[list[str]], leader: int = 0) -> DarwinningState:
    st = bare(len(hands), ["amoeba", "snake", "shark", "mouse", "ape", "wolf"][:len(hands)])
    for seat, names in enumerate(hands):
        st.hands[seat] = [take(st, n) if n in st_names(st) else 0 for n in names]
    tricks.start_trick(st, leader, [])
    return st


def st_names(st: DarwinningState) -> set[str]:
    from shared.games.darwinning.cards import CARD_NAMES

    return {CARD_NAMES[c] for c in st.deck}


def play(st: DarwinningState, seat: int, names: list[str], jokers: list[int] | None = None,
         rng: random.Random | None = None) -> list[dict]:
    move: dict = {"type": "play", "cards": sorted(card(n) for n in names)}
    if jokers:
        move["jokers"] = jokers
    return st.apply(seat, move, rng or random.Random(0))


@pytest.mark.rule("D-4.2")
def test_d4_2_combinations_and_their_exact_card_counts() -> None:
    c = card
    assert classify((c("acorn-7a"),), ()) == (SINGLE, 7)
    assert classify((c("acorn-7a"), c("flower-7a")), ()) == (PAIR, 14)
    assert classify(tuple(sorted((c("acorn-3a"), c("acorn-9a"), c("acorn-12b")))), ()) == \
        (FLUSH, 24)
    assert classify(tuple(sorted((c("acorn-3a"), c("flower-4a"), c("acorn-5b")))), ()) == \
        (STRAIGHT, 12)
    assert classify(tuple(sorted((c("acorn-3a"), c("flower-3a"), c("blueberry-3b")))), ()) \
        == (THREE, 9)
    assert classify(tuple(sorted((c("flower-8a"), c("flower-9b"), c("flower-10a")))), ()) == \
        (STRAIGHT_FLUSH, 27)
    four = tuple(sorted((c("acorn-2a"), c("acorn-2b"), c("flower-2a"), c("blueberry-2a"))))
    assert classify(four, ()) == (FOUR, 8)
    # Exactly the listed counts: 7-8-9-10 is no combination, nor are 5 equal cards or a
    # 2-card straight.
    assert classify(tuple(sorted(c(f"acorn-{v}a") for v in (7, 8, 9, 10))), ()) is None
    assert classify(tuple(sorted((c("acorn-7a"), c("acorn-8a")))), ()) is None
    assert classify(tuple(sorted((c("acorn-3a"), c("flower-4a"), c("acorn-9b")))), ()) is None
    # Strength order: four > straight flush > three > straight > flush > pair > single.
    assert FOUR > STRAIGHT_FLUSH > THREE > STRAIGHT > FLUSH > PAIR > SINGLE
    # With 7, 8, 9, 10 of a colour the straights 7-8-9 and 8-9-10 are offered, never all four.
    hand = [c(f"acorn-{v}a") for v in (7, 8, 9, 10)]
    sizes = {len(cards) for cards, *_ in enumerate_combos(hand)}
    assert sizes == {1, 3}


@pytest.mark.rule("D-4.1")
def test_d4_1_stronger_than_everything_so_far_or_any_single_card() -> None:
    st = trick_state([["acorn-5a", "flower-5a"],
                      ["acorn-2a", "flower-2a", "acorn-14a"],
                      ["acorn-9a", "flower-9a", "acorn-1a"]])
    play(st, 0, ["acorn-5a", "flower-5a"])  # pair of 5s
    legal = st.legal_moves(1)
    cards = [sorted(m["cards"]) for m in legal]
    # A weaker pair (2s) may not be played; any single card may.
    assert sorted([card("acorn-2a"), card("flower-2a")]) not in cards
    assert {tuple(c) for c in cards if len(c) == 1} == {
        (card("acorn-2a"),), (card("flower-2a"),), (card("acorn-14a"),)}
    play(st, 1, ["acorn-14a"])  # a single 14 does not beat the pair
    assert st.best == 0
    cards = [sorted(m["cards"]) for m in st.legal_moves(2)]
    assert sorted([card("acorn-9a"), card("flower-9a")]) in cards  # stronger pair
    # Colours need not be followed: every single is offered whatever was led.
    assert [card("acorn-1a")] in cards


@pytest.mark.rule("D-4.3")
def test_d4_3_higher_rank_wins_and_a_later_equal_sum_wins() -> None:
    st = trick_state([["acorn-8a", "flower-8a", "acorn-11a"],
                      ["blueberry-8a", "blueberry-8b", "acorn-12a"],
                      ["acorn-1a", "flower-2a", "blueberry-3a", "acorn-13a"]])
    play(st, 0, ["acorn-8a", "flower-8a"])
    play(st, 1, ["blueberry-8a", "blueberry-8b"])  # equal pair, equal sum: beats it
    assert st.best == 1
    play(st, 2, ["acorn-1a", "flower-2a", "blueberry-3a"])  # straight (sum 6) beats pairs
    assert st.winner == 2 and st.queue[0]["seat"] == 2


@pytest.mark.rule("D-4.4")
def test_d4_4_winner_upgrades_with_one_card_and_leads_next() -> None:
    st = trick_state([["acorn-3a", "acorn-13a"], ["flower-12a", "flower-12b", "acorn-1b"],
                      ["acorn-4a", "acorn-15b"]])
    play(st, 0, ["acorn-3a"])
    play(st, 1, ["flower-12a", "flower-12b"])
    play(st, 2, ["acorn-4a"])
    assert st.to_move() == [1]
    offered = {m.get("card") for m in st.legal_moves(1)}
    assert offered == {None, card("flower-12a"), card("flower-12b")}  # only its own played cards
    st.apply(1, {"type": "upgrade", "card": card("flower-12a"), "use": "ability", "slot": 2},
             random.Random(0))
    assert st.boards[1].slots[2] == card("flower-12a")
    assert set(st.discard) == {card("acorn-3a"), card("flower-12b"), card("acorn-4a")}
    assert st.phase == "trick" and st.leader == 1 and st.to_move() == [1]


@pytest.mark.rule("D-4.5")
def test_d4_5_joker_is_zero_of_a_named_colour() -> None:
    st = bare(3, ["amoeba", "snake", "shark"])
    pool = [J1, card("acorn-1a"), card("acorn-2a")]
    combos = {(cards, names): rank for cards, names, rank, _ in enumerate_combos(pool)}
    whole = tuple(sorted(pool))
    # 0-1-2 with the joker named acorn is a straight flush; named otherwise a straight.
    assert combos[(whole, (0,))] == STRAIGHT_FLUSH
    assert combos[(whole, (1,))] == STRAIGHT and combos[(whole, (2,))] == STRAIGHT
    # A single joker is offered once per colour; two jokers are a pair of 0s.
    assert sum(1 for (cards, _), _r in combos.items() if cards == (J1,)) == 3
    pair = {names for (cards, names), r in
            {(c, n): r for c, n, r, _ in enumerate_combos([J1, J2])}.items() if len(cards) == 2}
    assert len(pair) == 9
    st.hands[0] = [J1]
    tricks.start_trick(st, 0, [])
    labels = [st.move_label(m) for m in st.legal_moves(0)]
    assert "play single joker as 0 flower" in labels


@pytest.mark.rule("D-3.1", "D-3.2", "D-2.2")
def test_d3_1_d3_2_era_start_environments_reshuffle_and_ten_cards() -> None:
    rng = random.Random(3)
    st = GAME.new_state(4, {}, rng)
    assert isinstance(st, DarwinningState)
    assert len(st.envs) == ENVS_PER_ERA[3][0] == 5
    assert all(len(h) == HAND_SIZE for h in st.hands)
    # Kept cards are added to the ten new ones; the discards go back into the deck.
    st.discard = [c for h in st.hands for c in h] + [st.deck.pop() for _ in range(7)]
    kept = [st.discard.pop(), st.discard.pop()]
    st.hands = [[], list(kept), [], []]
    st.start_era(rng, [])
    assert st.era == 2 and len(st.envs) == 4 and not st.discard
    assert len(st.hands[1]) == 12 and set(kept) <= set(st.hands[1])
    assert len(st.deck) + sum(map(len, st.hands)) == CARD_COUNT


@pytest.mark.rule("D-3.4")
def test_d3_4_lowest_species_chooses_the_leader() -> None:
    rng = random.Random(1)
    st = GAME.new_state(4, {}, rng)
    assert isinstance(st, DarwinningState)
    lowest = min(range(4), key=lambda s: st.boards[s].position)
    assert st.phase == "lead" and st.to_move() == [lowest]
    assert {m["seat"] for m in st.legal_moves(lowest)} == {0, 1, 2, 3}  # itself included
    st.apply(lowest, {"type": "lead", "seat": 2}, rng)
    assert st.phase == "trick" and st.to_move() == [2]


@pytest.mark.rule("D-3.3", "D-13.1")
def test_d3_3_secret_discard_only_in_v1_7_simultaneous_and_hidden() -> None:
    rng = random.Random(2)
    v22 = GAME.new_state(3, {}, rng)
    assert v22.to_move() != [0, 1, 2]  # v2.2: straight to the leader choice
    st = GAME.new_state(3, {"edition": "1.7"}, random.Random(2))
    assert isinstance(st, DarwinningState)
    assert st.phase == "discard" and st.to_move() == [0, 1, 2]
    moves = st.legal_moves(1)
    assert max(len(m["cards"]) for m in moves) == 2 and {"type": "discard", "cards": []} in moves
    chosen = {"type": "discard", "cards": sorted(st.hands[1])[:2]}
    assert st.observe_move(1, chosen, 0) == st.observe_move(
        1, {"type": "discard", "cards": sorted(st.hands[1])[2:4]}, 0)
    events = st.apply(1, chosen, rng)
    assert st.to_move() == [0, 2]
    seen_by_0 = [e for e in events if "audience" not in e or 0 in e["audience"]]
    assert all("cards" not in e for e in seen_by_0 if e["type"] == "discarded")
    view0 = st.view(0)
    assert not set(chosen["cards"]) & set(str(view0))  # crude, refined below
    assert view0["secret_counts"][1] == 2 and "hidden" in st.view(1)
    assert st.view(1)["hidden"] == chosen["cards"]
    st.apply(0, {"type": "discard", "cards": []}, rng)
    st.apply(2, {"type": "discard", "cards": []}, rng)
    assert st.phase == "lead"  # D-3.4: the leader is chosen after the discards


@pytest.mark.rule("D-3.5")
def test_d3_5_empty_deck_is_rebuilt_from_the_discards() -> None:
    st = bare(3, ["amoeba", "snake", "shark"])
    st.discard, st.deck = st.deck, []
    st.hidden[1] = [st.discard.pop()]
    before = len(st.discard) + 1
    got = st.draw(random.Random(0))
    assert got is not None and len(st.deck) == before - 1 and not st.discard
    assert not st.hidden[1] and st.reshuffled
    st.deck, st.discard, st.hidden = [], [], [[], [], []]
    assert st.draw(random.Random(0)) is None
    # A short deck is dealt round-robin.
    st.deck = list(range(7))
    st.era = 0
    st.hands = [[], [], []]
    st.start_era(random.Random(0), [])
    assert sorted(map(len, st.hands)) == [2, 2, 3]


@pytest.mark.rule("D-5.1", "D-5.2")
def test_d5_1_d5_2_last_card_ends_the_era_and_the_losers_upgrade() -> None:
    st = trick_state([["acorn-3a"], ["flower-9a", "flower-9b", "acorn-1b"],
                      ["acorn-4a", "acorn-15b"]], leader=0)
    play(st, 0, ["acorn-3a"])  # seat 0 plays its last card: this is the last trick
    play(st, 1, ["flower-9a", "flower-9b"])
    play(st, 2, ["acorn-4a"])
    assert st.last_trick and st.winner == 1 and st.emptied == [0]
    # The winner may not upgrade; the others do, clockwise from the winner: 2, then 0.
    assert [q["seat"] for q in st.queue] == [2, 0]
    assert {m.get("card") for m in st.legal_moves(2)} == {None, card("acorn-4a")}
    st.apply(2, {"type": "no_upgrade"}, random.Random(0))
    assert st.to_move() == [0]
    st.apply(0, {"type": "upgrade", "card": card("acorn-3a"), "use": "chain"}, random.Random(0))
    assert st.boards[0].chain == [card("acorn-3a")]
    assert card("flower-9a") in st.discard and card("flower-9b") in st.discard


@pytest.mark.rule("D-5.3", "D-5.4")
def test_d5_3_d5_4_keep_up_to_two_then_survival() -> None:
    st = trick_state([["acorn-3a"], ["flower-9a", "flower-9b", "acorn-1b", "acorn-2b"],
                      ["acorn-4a", "acorn-15b", "flower-1a", "flower-2a"]], leader=0)
    play(st, 0, ["acorn-3a"])
    play(st, 1, ["flower-9a", "flower-9b"])
    play(st, 2, ["acorn-4a"])
    st.apply(2, {"type": "no_upgrade"}, random.Random(0))
    st.apply(0, {"type": "no_upgrade"}, random.Random(0))
    assert st.phase == "keep" and st.to_move() == [1, 2]  # seat 0 has nothing to keep
    moves = st.legal_moves(2)
    assert max(len(m["cards"]) for m in moves) == 2 and len(moves) == 1 + 3 + 3
    st.apply(2, {"type": "keep", "cards": [card("acorn-15b")]}, random.Random(0))
    assert st.hands[2] == [card("acorn-15b")]
    assert sorted(st.hidden[2]) == sorted([card("flower-1a"), card("flower-2a")])
    assert st.observe_move(2, {"type": "keep", "cards": []}, 1) == "keep:hidden"
    events = st.apply(1, {"type": "keep", "cards": []}, random.Random(0))
    assert [e["type"] for e in events if e["type"] in ("kept", "survival_started")] == [
        "kept", "kept", "survival_started"]  # D-5.4: survival follows the keeping


def test_illegal_play_is_refused_without_change() -> None:
    st = trick_state([["acorn-5a", "flower-5a"], ["acorn-2a", "flower-2a"], ["acorn-9a"]])
    play(st, 0, ["acorn-5a", "flower-5a"])
    snapshot = st.to_json()
    with pytest.raises(IllegalMove, match="combination"):
        play(st, 1, ["acorn-2a", "flower-2a"])
    assert st.to_json() == snapshot


@pytest.mark.rule("D-4.2")
def test_fast_enumeration_without_jokers_matches_the_general_one() -> None:
    from shared.games.darwinning.combos import _joker_combos, _plain_combos

    rng = random.Random(0)
    for _ in range(500):
        pool = sorted(rng.sample(range(90), rng.randint(1, 15)))
        assert sorted(_plain_combos(tuple(pool))) == sorted(_joker_combos(pool))


@pytest.mark.rule("D-1.2", "D-6.3")
def test_two_cards_of_a_value_and_colour_are_told_apart_by_their_environment() -> None:
    """The two flower cards of a value differ only in their environment icon, and which one
    a seat plays (and keeps) is its choice: the labels name the environment."""
    st = bare(3, ["amoeba", "snake", "shark"])
    st.hands[0] = [take(st, "flower-1a"), take(st, "flower-1b"), take(st, "acorn-7a")]
    tricks.start_trick(st, 0, [])
    labels = [st.move_label(m) for m in st.legal_moves(0)]
    assert "play single 1 desert flower" in labels and "play single 1 ocean flower" in labels
    assert "play single 7 acorn" in labels  # no environment icon: named as printed
    assert len(set(labels)) == len(labels)
    assert "zahrát jednotlivá karta 1 květina \u2013 Poušť" in [st.move_label(m, "cs")
                                               for m in st.legal_moves(0)]
