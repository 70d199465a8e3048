"""The two-player rules with the virtual third player (docs/rules/darwinning.md D-11)."""

from __future__ import annotations

import random

import pytest

from shared.games import get_game
from shared.games.darwinning import tricks
from shared.games.darwinning.cards import CHAIN, EGGS
from shared.games.darwinning.model import dummy_start
from shared.games.darwinning.state import DarwinningState
from shared.kernel.rng import randbelow
from shared.matches.moves import move_problem

from .helpers import bare, card, survival_position

GAME = get_game("darwinning")
RNG = random.Random(0)


def two(edition: str = "2.2", hands: tuple[list[str], list[str]] = ([], []),
        dummy: list[str] = (), species: tuple[str, str] = ("amoeba", "ape"),
        dummy_pos: int = 5) -> DarwinningState:
    st = bare(2, list(species), edition=edition)
    for seat, names in enumerate(hands):
        for n in names:
            st.deck.remove(card(n))
            st.hands[seat].append(card(n))
    for n in dummy:
        st.deck.remove(card(n))
        st.dummy_cards.append(card(n))
    st.dummy_pos = dummy_pos
    tricks.start_trick(st, 0, [])
    return st


@pytest.mark.rule("D-11.1")
def test_d11_1_dummy_between_the_players_three_face_up_cards() -> None:
    assert dummy_start(1, 5) == 3
    assert dummy_start(1, 4) == 2  # not equidistant: nearer the lower player
    assert dummy_start(9, 2) == 5
    assert dummy_start(3, 4) == 5  # next to each other: just above the upper one
    st = GAME.new_state(2, {}, random.Random(4))
    assert isinstance(st, DarwinningState)
    a, b = (x.position for x in st.boards)
    assert st.dummy_pos == dummy_start(a, b) and len(st.dummy_cards) == 3
    assert st.view(0)["dummy_cards"] == st.dummy_cards  # face up


@pytest.mark.rule("D-11.2", "D-13.3")
def test_d11_2_any_combination_dummy_cards_with_a_hand_card_v2_2_announced() -> None:
    st = two(hands=(["acorn-9a", "flower-9a", "blueberry-3a"], ["flower-2a", "acorn-2b"]),
             dummy=["acorn-7a", "acorn-8a", "flower-3a"])
    # v2.2: the hand cards first; a lone 3 may be played (it pairs with the dummy's 3).
    plays = [sorted(m["cards"]) for m in st.legal_moves(0)]
    assert [card("blueberry-3a")] in plays and all(m.keys() == {"type", "cards"}
                                                   for m in st.legal_moves(0))
    st.apply(0, {"type": "play", "cards": sorted([card("acorn-9a")])}, RNG)
    # The second player need not beat it: a weaker pair of 2s is allowed.
    assert {"type": "play", "cards": sorted([card("flower-2a"), card("acorn-2b")])} in \
        st.legal_moves(1)
    st.apply(1, {"type": "play", "cards": sorted([card("flower-2a"), card("acorn-2b")])}, RNG)
    assert st.phase == "announce" and st.to_move() == [0]  # in player order
    announce = st.legal_moves(0)
    assert {"type": "announce", "dummy": [card("acorn-7a"), card("acorn-8a")]} in announce
    assert {"type": "announce", "dummy": []} in announce
    st.apply(0, {"type": "announce", "dummy": [card("acorn-7a"), card("acorn-8a")]}, RNG)
    assert st.to_move() == [1]
    st.apply(1, {"type": "announce", "dummy": []}, RNG)
    assert st.winner == 0  # straight flush 7-8-9 beats a pair
    # v1.7: the dummy cards are named together with the hand cards.
    old = two(edition="1.7", hands=(["acorn-9a", "blueberry-4a"], ["flower-2a"]),
              dummy=["acorn-7a", "acorn-8a", "flower-3a"])
    assert {"type": "play", "cards": [card("acorn-9a")],
            "dummy": [card("acorn-7a"), card("acorn-8a")]} in old.legal_moves(0)
    assert not [m for m in old.legal_moves(0) if not m["cards"]]  # a hand card at least


@pytest.mark.rule("D-11.2", "D-13.3")
def test_d11_2_the_rulebooks_example_7_8_and_3_on_the_table() -> None:
    """As printed: FI "Jos pöydällä on 7, 8 ja 3, vuorossa oleva pelaaja voi pelata 3:n missä
    tahansa värissä muodostaakseen parin, 9 muodostaakseen värisuoran tai 6:en" (with 7, 8
    and 3 on the table the player may play a 3 of any colour to make a pair, a 9 for a straight
    flush, or a 6); CZ "trojku libovolné barvy, aby utvořila pár s vyloženou 3. Nebo by mohl
    použít 6 či 9, aby zahrál čistou postupku" (a 3 of any colour to pair the table's 3, or a 6
    or a 9 for a straight flush)."""
    table = ["acorn-7a", "acorn-8a", "flower-3a"]
    hands = (["blueberry-3a", "acorn-9a", "acorn-6a"], ["flower-2a", "acorn-2b"])
    st = two(hands=hands, dummy=table)
    plays = [m["cards"] for m in st.legal_moves(0)]
    for lone in ("blueberry-3a", "acorn-9a", "acorn-6a"):
        assert [card(lone)] in plays, lone
    # The lone 3, of another colour than the table's, then the opponent's pair of 2s.
    st.apply(0, {"type": "play", "cards": [card("blueberry-3a")]}, RNG)
    st.apply(1, {"type": "play", "cards": sorted([card("flower-2a"), card("acorn-2b")])}, RNG)
    # The table's 3 is the only dummy card that makes a combination with it: a pair.
    assert sorted(m["dummy"] for m in st.legal_moves(0)) == [[], [card("flower-3a")]]
    for dummy, winner in (([card("flower-3a")], 0), ([], 1)):
        trick = st.clone()
        trick.apply(0, {"type": "announce", "dummy": dummy}, RNG)
        trick.apply(1, {"type": "announce", "dummy": []}, RNG)
        # Paired, the 3s beat the 2s; alone, a single card loses to the pair.
        assert trick.winner == winner, dummy
    # The 9 or the 6 of the 7 and 8's colour: a straight flush with the table's 7 and 8.
    for lone in ("acorn-9a", "acorn-6a"):
        st = two(hands=hands, dummy=table)
        st.apply(0, {"type": "play", "cards": [card(lone)]}, RNG)
        st.apply(1, {"type": "play", "cards": sorted([card("flower-2a"), card("acorn-2b")])},
                 RNG)
        assert {"type": "announce", "dummy": [card("acorn-7a"), card("acorn-8a")]} in \
            st.legal_moves(0), lone
        st.apply(0, {"type": "announce", "dummy": [card("acorn-7a"), card("acorn-8a")]}, RNG)
        st.apply(1, {"type": "announce", "dummy": []}, RNG)
        assert st.winner == 0, lone


@pytest.mark.rule("D-11.3")
def test_d11_3_winner_takes_used_dummy_cards_loser_only_discards_own() -> None:
    st = two(edition="1.7", hands=(["acorn-9a", "blueberry-4a"], ["flower-9b", "acorn-1b"]),
             dummy=["acorn-7a", "acorn-8a", "flower-9a"])
    st.apply(0, {"type": "play", "cards": [card("acorn-9a")], "dummy": [card("flower-9a")]},
             RNG)  # pair of 9s with the dummy's 9
    st.apply(1, {"type": "play", "cards": [card("flower-9b")],
                 "dummy": [card("acorn-7a"), card("acorn-8a")]}, RNG)  # straight 7-8-9
    assert st.winner == 1
    assert st.dummy_cards == [card("flower-9a")]  # the loser's dummy card stays
    offered = {m.get("card") for m in st.legal_moves(1)}
    assert offered == {None, card("flower-9b"), card("acorn-7a"), card("acorn-8a")}
    st.apply(1, {"type": "upgrade", "card": card("acorn-7a"), "use": "chain"}, RNG)
    assert sorted(st.discard) == sorted([card("acorn-9a"), card("flower-9b"),
                                         card("acorn-8a")])


@pytest.mark.rule("D-11.4", "D-8.4", "D-13.4")
def test_d11_4_dummy_climbs_when_nobody_used_its_cards() -> None:
    st = two(hands=(["blueberry-9a", "blueberry-4a"], ["flower-2a", "acorn-2b"]),
             dummy=["acorn-7a", "acorn-1a", "flower-3a"], species=("amoeba", "ape"),
             dummy_pos=5)
    st.apply(0, {"type": "play", "cards": [card("blueberry-9a")]}, RNG)
    st.apply(1, {"type": "play", "cards": [card("flower-2a")]}, RNG)
    st.apply(0, {"type": "announce", "dummy": []}, RNG)
    events = st.apply(1, {"type": "announce", "dummy": []}, RNG)
    climb = CHAIN[card("acorn-7a")] + CHAIN[card("acorn-1a")]  # 2 + 3, the flower adds 0
    # From 5: +1 small-animal bonus = 6 points: 6, 7, 8, jump 9 (the ape) to 10, 11, 12.
    assert climb == 5 and st.dummy_pos == 12
    kinds = [e["type"] for e in events]
    # Climbed as soon as the winner was known, before the winner upgrades.
    assert "dummy_climbed" in kinds and st.queue[0]["kind"] == "upgrade"
    # v1.7 states no timing: the same order (and a used dummy card means no climb).
    old = two(edition="1.7", hands=(["blueberry-9a", "blueberry-4a"], ["flower-3b", "acorn-2b"]),
              dummy=["acorn-7a", "acorn-1a", "flower-3a"], species=("amoeba", "ape"),
              dummy_pos=5)
    old.apply(0, {"type": "play", "cards": [card("blueberry-9a")], "dummy": []}, RNG)
    old.apply(1, {"type": "play", "cards": [card("flower-3b")], "dummy": [card("flower-3a")]},
              RNG)
    assert old.dummy_pos == 5 and old.winner == 1 and old.queue[0]["kind"] == "upgrade"
    old2 = two(edition="1.7", hands=(["blueberry-9a", "blueberry-4a"], ["flower-2a", "acorn-2b"]),
               dummy=["acorn-7a", "acorn-1a", "flower-3a"], species=("amoeba", "ape"),
               dummy_pos=5)
    old2.apply(0, {"type": "play", "cards": [card("blueberry-9a")], "dummy": []}, RNG)
    events = old2.apply(1, {"type": "play", "cards": [card("flower-2a")], "dummy": []}, RNG)
    assert old2.dummy_pos == 12 and old2.queue[0]["kind"] == "upgrade"
    assert any(e["type"] == "dummy_climbed" for e in events)


@pytest.mark.rule("D-11.5")
def test_d11_5_dummy_eats_all_it_may_bites_are_double_it_can_be_eaten() -> None:
    st = bare(2, ["frog", "shark"], envs=("ocean",))
    st.dummy_pos = 8
    for n in ("acorn-6a", "flower-9a", "acorn-1a"):  # Teeth, Poison, Pheromones
        st.deck.remove(card(n))
        st.dummy_cards.append(card(n))
    survival_position(st)
    # The dummy (8) ate the frog (3) on its own; the frog is not protected against it.
    assert (-1, 0) in st.eats and st.boards[0].bites == 2
    assert st.to_move() == [1]
    assert {"type": "eat", "target": "dummy"} in st.legal_moves(1)
    st.apply(1, {"type": "eat", "target": "dummy"}, RNG)
    # Poison on the dummy: two tokens to the shark? It has Iron Stomach: none.
    assert st.boards[1].bites == 0


@pytest.mark.rule("D-11.6", "D-13.5")
def test_d11_6_dummy_cards_replaced_each_era() -> None:
    for edition, where in (("2.2", "discard"), ("1.7", "removed")):
        st = GAME.new_state(2, {"edition": edition}, random.Random(8))
        assert isinstance(st, DarwinningState)
        old = list(st.dummy_cards)
        st.phase = "survival"
        st.end_era(random.Random(1), [])
        assert st.era == 2 and len(st.dummy_cards) == 3
        if where == "removed":
            assert st.removed == old
        else:
            assert not st.removed and set(old) <= set(st.deck) | set(
                c for h in st.hands for c in h) | set(st.dummy_cards)


@pytest.mark.rule("D-11.7", "D-13.6")
def test_d11_7_pick_from_the_discard_pile() -> None:
    for edition in ("2.2", "1.7"):
        st = two(edition=edition, hands=(["acorn-3a"], ["flower-9b", "acorn-1b"]),
                 dummy=[])
        st.discard = [card("blueberry-5a")]
        st.deck.remove(card("blueberry-5a"))
        play = {"type": "play", "cards": [card("acorn-3a")]}
        reply = {"type": "play", "cards": [card("flower-9b")]}
        if edition == "1.7":
            play["dummy"] = reply["dummy"] = []
        st.apply(0, play, RNG)  # the leader plays its last card
        st.apply(1, reply, RNG)
        if edition == "2.2":
            st.apply(0, {"type": "announce", "dummy": []}, RNG)
            st.apply(1, {"type": "announce", "dummy": []}, RNG)
        assert st.winner == 1 and st.emptied == [0]
        st.apply(0, {"type": "no_upgrade"}, RNG)  # D-5.2: the loser's upgrade first
        assert st.queue[0]["kind"] == "pick" and st.to_move() == [1]
        target = 1 if edition == "2.2" else 0  # v2.2: own species; v1.7: the empty one's
        assert st.queue[0]["target"] == target
        picks = [m for m in st.legal_moves(1) if m["type"] == "pick"]
        assert {m["card"] for m in picks} == {card("blueberry-5a"), card("acorn-3a"),
                                              card("flower-9b")}  # the last trick too
        before = st.boards[target].population
        st.apply(1, {"type": "pick", "card": card("blueberry-5a"), "use": "eggs"}, RNG)
        assert st.boards[target].population == before + EGGS[card("blueberry-5a")]
        assert card("blueberry-5a") in st.boards[target].eggs


def last_trick(edition: str, hands: tuple[list[str], list[str]]) -> DarwinningState:
    """Seat 0 leads its first card, seat 1 beats it with its first, no dummy card used (a
    blueberry-5a, an egg card, lies in the discard pile)."""
    st = two(edition=edition, hands=hands, dummy=[])
    st.discard = [card("blueberry-5a")]
    st.deck.remove(card("blueberry-5a"))
    play = {"type": "play", "cards": [card(hands[0][0])]}
    reply = {"type": "play", "cards": [card(hands[1][0])]}
    if edition == "1.7":
        play["dummy"] = reply["dummy"] = []
    st.apply(0, play, RNG)
    st.apply(1, reply, RNG)
    if edition == "2.2":
        st.apply(0, {"type": "announce", "dummy": []}, RNG)
        st.apply(1, {"type": "announce", "dummy": []}, RNG)
    return st


def pick_position(edition: str) -> DarwinningState:
    """Seat 0 led the era's last trick with its last card and lost it; after the upgrades
    seat 1 owes the D-11.7 pick (a blueberry-5a, an egg card, lies in the discard pile)."""
    st = last_trick(edition, (["acorn-3a"], ["flower-9b", "acorn-1b"]))
    st.apply(0, {"type": "no_upgrade"}, RNG)  # the loser's upgrade (D-5.2)
    assert st.queue[0]["kind"] == "pick" and st.to_move() == [1]
    return st


@pytest.mark.rule("D-11.7", "D-13.6")
def test_d11_7_v2_2_pick_may_be_declined_v1_7_pick_is_compulsory() -> None:
    """FI: the leader "antaa ... vastustajan" (*lets* the opponent) pick a card: a right the
    opponent may leave unused, as any upgrade (D-6.5). CZ: the opponent "vybere ... a použije
    ji" (chooses a card and applies it to the empty-handed player's species): a duty."""
    st = pick_position("2.2")
    moves = st.legal_moves(1)
    assert moves[0] == {"type": "no_pick"}
    assert [m for m in moves if m["type"] != "pick"] == [{"type": "no_pick"}]
    assert st.move_label({"type": "no_pick"}) == "decline the pick from the discard pile"
    assert move_problem(GAME, {"type": "no_pick"}) is None  # a move type of the schema
    board_before = st.boards[1].to_json()
    pile = sorted(st.discard)
    events = st.apply(1, {"type": "no_pick"}, RNG)
    assert {"type": "no_pick", "seat": 1} in events
    assert st.boards[1].to_json() == board_before  # the species is not upgraded
    assert sorted(st.discard) == pile  # every card stays in the pile
    assert not st.queue and st.phase == "keep"  # the era goes on to the keeping (D-5.3)

    st = pick_position("1.7")
    moves = st.legal_moves(1)
    assert moves and all(m["type"] == "pick" for m in moves)  # no decline in v1.7

    # The playouts' fast path draws from the same list, decline included.
    for edition in ("2.2", "1.7"):
        st = pick_position(edition)
        legal = st.legal_moves(1)
        for seed in range(40):
            fast_rng, listed_rng = random.Random(seed), random.Random(seed)
            fast = st.clone().random_move(1, fast_rng)
            assert fast == legal[randbelow(listed_rng, len(legal))], (edition, seed)
            assert fast_rng.getstate() == listed_rng.getstate()


@pytest.mark.rule("D-11.7")
def test_d11_7_v2_2_no_pick_when_the_follower_ran_out_v1_7_pick_for_it() -> None:
    for edition, picks in (("2.2", False), ("1.7", True)):
        # Seat 1 answers with its last card.
        st = last_trick(edition, (["acorn-3a", "acorn-4b"], ["flower-9b"]))
        assert st.emptied == [1] and st.winner == 1
        st.apply(0, {"type": "no_upgrade"}, RNG)
        has_pick = bool(st.queue) and st.queue[0]["kind"] == "pick"
        assert has_pick == picks
        if picks:  # v1.7: seat 0 chooses a card for seat 1's species
            assert st.to_move() == [0] and st.queue[0]["target"] == 1


@pytest.mark.rule("D-11.6")
def test_d11_6_new_dummy_cards_come_from_the_deck_before_the_reshuffle() -> None:
    """The new cards are dealt "aivan Aikakauden lopuksi" (at the very end of the era), so
    from what is left of the deck: never a card discarded during the era (nor an old dummy
    card), which the next era's reshuffle only then returns to the deck."""
    for edition in ("2.2", "1.7"):
        st = GAME.new_state(2, {"edition": edition}, random.Random(8))
        assert isinstance(st, DarwinningState)
        old = list(st.dummy_cards)
        # The era's discards: every card but the next three of the deck, so only those
        # three may become the dummy's new cards.
        remaining = st.deck[-3:]
        st.discard.extend(st.deck[:-3])
        del st.deck[:-3]
        st.phase = "survival"
        st.end_era(random.Random(1), [])
        assert st.era == 2
        assert sorted(st.dummy_cards) == sorted(remaining), edition
        assert not set(st.dummy_cards) & set(old)
