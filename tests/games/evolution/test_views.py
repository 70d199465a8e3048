"""docs/rules/evolution.md, rule E-7: what each seat may know; sample_from_view; labels;
illegal moves; the codec."""

from __future__ import annotations

import json
import random

import pytest

from shared.games import get_game
from shared.games.evolution.cards import faces
from shared.kernel.protocol import IllegalMove, NotYourTurn

from .helpers import Builder

GAME = get_game("evolution")


def _midgame(players: int = 3, seed: int = 5, steps: int = 40):
    rng = random.Random(seed)
    st = GAME.new_state(players, {}, rng)
    for _ in range(steps):
        seat = st.to_move()[0]
        st.apply(seat, st.random_move(seat, rng), rng)
    return st


@pytest.mark.rule("E-7")
def test_e7_private_hand_and_discard() -> None:
    """E-7: a seat sees its own hand and discard pile; others only their sizes."""
    st = _midgame()
    for seat in range(3):
        v = st.view(seat)
        assert v["hand"] == st.hands[seat] and v["discard"] == st.discards[seat]
        assert v["hand_sizes"] == [len(h) for h in st.hands]
        assert v["discard_sizes"] == [len(d) for d in st.discards]
        text = json.dumps(v)
        assert "deck\"" not in text.replace("deck_size", "")
    spectator = st.view(None)
    assert "hand" not in spectator and "discard" not in spectator


@pytest.mark.rule("E-7", "E-3.1")
def test_e7_face_down_animal_cards_are_private() -> None:
    """E-3.1/E-7: an animal card lies face down: only its owner sees which card it is."""
    b = Builder(2)
    a = b.animal(0, "swimming")
    st = b.done(phase="development")
    assert st.view(0)["animals"][0]["card"] == a.card
    assert "card" not in st.view(1)["animals"][0]
    assert "card" not in st.view(None)["animals"][0]
    assert st.view(1)["animals"][0]["traits"] == [[a.traits[0][0], "swimming"]]


@pytest.mark.rule("E-7")
def test_e7_public_parts() -> None:
    """E-7: animals with traits and tokens, bank, deck size, turn, phase, first, round."""
    st = _midgame()
    v = st.view(None)
    for key in ("bank", "deck_size", "phase", "first", "round", "to_move", "pending", "dice",
                "animals", "pairs", "turn", "passed", "last_round"):
        assert key in v
    assert v["deck_size"] == len(st.deck)
    assert len(v["animals"]) == len(st.animals)


@pytest.mark.rule("E-7")
def test_e7_sample_from_view_hides_and_agrees() -> None:
    """E-7: sample_from_view rebuilds a consistent state; hidden cards are shuffled."""
    st = _midgame(players=4, steps=60)
    seat = 2
    view = st.view(seat)
    decks = set()
    for k in range(5):
        sampled = GAME.sample_from_view(view, seat, random.Random(k))
        assert sampled.view(seat) == view
        assert sampled.legal_moves(seat) == st.legal_moves(seat) or \
            sorted(map(sampled.move_id, sampled.legal_moves(seat))) == \
            sorted(map(st.move_id, st.legal_moves(seat)))
        decks.add(tuple(sampled.deck))
    assert len(decks) > 1


@pytest.mark.rule("E-7")
def test_e7_drawn_cards_are_private_events() -> None:
    """E-7: drawn cards go to the drawer only, with a public count."""
    b = Builder(2)
    b.animal(0, food=1)
    b.animal(1, food=1)
    st = b.done()
    events: list = []
    st.end_feeding(random.Random(0), events)
    drawn = [e for e in events if e["type"] == "cards_drawn"]
    assert {tuple(e.get("audience", [])) for e in drawn} == {(), (0,), (1,)}
    assert all("cards" not in e for e in drawn if "audience" not in e)


def test_codec_round_trip_and_clone_independent() -> None:
    """The codec is lossless; a clone shares no mutable parts."""
    st = _midgame(players=5, steps=80)
    data = json.loads(json.dumps(st.to_json()))
    assert GAME.state_from_json(data).to_json() == st.to_json()
    twin = st.clone()
    rng = random.Random(1)
    seat = st.to_move()[0]
    st.apply(seat, st.random_move(seat, rng), rng)
    assert twin.to_json() == data


def test_illegal_moves_leave_state_untouched() -> None:
    """apply validates before mutating; NotYourTurn for a seat that owes nothing."""
    b = Builder(2)
    a = b.animal(0)
    b.animal(1)
    card = b.hand(0, "parasite")[0]
    st = b.done(phase="development")
    snap = st.to_json()
    with pytest.raises(NotYourTurn):
        st.apply(1, {"type": "pass"}, random.Random(0))
    with pytest.raises(IllegalMove, match="another player"):
        st.apply(0, {"type": "play_trait", "card": card, "trait": "parasite",
                     "animal": a.id}, random.Random(0))
    with pytest.raises(IllegalMove, match="not in your hand"):
        st.apply(0, {"type": "play_animal", "card": 999}, random.Random(0))
    with pytest.raises(IllegalMove, match="not a development move"):
        st.apply(0, {"type": "take_food", "animal": a.id}, random.Random(0))
    assert st.to_json() == snap


def test_labels_read_well() -> None:
    """Every legal move has a unique id and a human label."""
    b = Builder(2)
    c = b.animal(0, "carnivorous")
    t = b.animal(1, "running")
    b.animal(1)
    st = b.done(bank=3)
    st.apply(0, {"type": "attack", "carnivore": c.id, "target": t.id}, random.Random(0))
    labels = [st.move_label(m) for m in st.legal_moves(1)]
    assert labels == ["Defend with Running (roll a die)", f"Do not defend: your animal #{t.id} "
                      "is eaten"]
    b = Builder(2)
    c = b.animal(0, "carnivorous")
    b.animal(1)
    st = b.done(bank=3)
    assert "Attack seat 1's animal #2 with your animal #1 (carnivorous)" in [
        st.move_label(m) for m in st.legal_moves(0)]
    b = Builder(2)
    b.animal(0)
    card = b.hand(0, "swimming")[0]
    st = b.done(phase="development")
    assert "Play Swimming on your animal #1" in [st.move_label(m) for m in st.legal_moves(0)]
    assert {"type": "play_animal", "card": card} in st.legal_moves(0)


@pytest.mark.rule("E-3.1")
def test_a_trait_of_a_two_trait_card_is_labelled_with_its_card() -> None:
    """Six cards carry Carnivorous: which one a seat plays decides which trait stays in its
    hand, so the label names the card (a one-trait card is named by its trait alone)."""
    b = Builder(2)
    a = b.animal(0)
    hibernation, weight = (next(c for c in b.free if faces(c) == pair)
                           for pair in [("hibernation", "carnivorous"),
                                        ("high_body_weight", "carnivorous")])
    b.free.remove(hibernation)
    b.free.remove(weight)
    b.st.hands[0].extend([hibernation, weight])
    b.hand(0, "swimming")
    st = b.done(phase="development")
    labels = [st.move_label(m) for m in st.legal_moves(0)]
    assert (f"Play Carnivorous (from the Hibernation / Carnivorous card) on your animal #{a.id}"
            in labels)
    assert (f"Play Carnivorous (from the High Body Weight / Carnivorous card) on your animal "
            f"#{a.id}" in labels)
    assert f"Play Swimming on your animal #{a.id}" in labels
    assert len(set(labels)) == len(labels)


@pytest.mark.rule("E-3.8", "E-5.4")
def test_food_handed_on_by_a_pair_names_the_animal_it_comes_from() -> None:
    """An animal in two Cooperation pairs can be handed food through either: the order is
    the owner's choice (E-3.8), so each label names the animal at the pair's other end."""
    b = Builder(2)
    x, y, z = b.animal(0), b.animal(0), b.animal(0)
    first, second = b.pair("cooperation", x, y), b.pair("cooperation", z, y)
    st = b.done()
    assert [st.move_label({"type": kind, "card": card, "animal": y.id})
            for kind in ("pair_food", "pair_skip") for card in (first, second)] == [
        f"Cooperation from your animal #{x.id} hands a food token to your animal #{y.id}",
        f"Cooperation from your animal #{z.id} hands a food token to your animal #{y.id}",
        f"Let Cooperation from your animal #{x.id} give your fed animal #{y.id} nothing "
        "(no fat stored)",
        f"Let Cooperation from your animal #{z.id} give your fed animal #{y.id} nothing "
        "(no fat stored)"]


@pytest.mark.rule("E-5.13")
def test_tail_loss_of_a_pair_card_names_the_pair() -> None:
    """Tail Loss may discard either of two Communication cards of the attacked animal; each
    links it to another animal, so each label names that animal."""
    b = Builder(2)
    c = b.animal(0, "carnivorous")
    t = b.animal(1, "tail_loss")
    left, right = b.animal(1), b.animal(1)
    to_left, to_right = b.pair("communication", t, left), b.pair("communication", t, right)
    st = b.done(bank=3)
    st.apply(0, {"type": "attack", "carnivore": c.id, "target": t.id}, random.Random(0))
    labels = {m.get("card"): st.move_label(m) for m in st.legal_moves(1)}
    assert labels[to_left] == ("Defend with Tail Loss: discard Communication (paired with your "
                               f"animal #{left.id})")
    assert labels[to_right] == ("Defend with Tail Loss: discard Communication (paired with your "
                                f"animal #{right.id})")


def test_greedy_value_prefers_material() -> None:
    """Game.greedy_value: more fed animals is better."""
    b = Builder(2)
    b.animal(0, food=1)
    b.animal(0, food=1)
    b.animal(1)
    st = b.done()
    assert GAME.greedy_value(st, 0) > 0 > GAME.greedy_value(st, 1)


@pytest.mark.rule("E-3.8", "E-7")
def test_food_choices_are_public_labelled_and_guarded() -> None:
    """A pending food choice is public (``chain``), owed by its owner only, every choice has
    a label, and any other move is refused with the reason, leaving the state untouched."""
    b = Builder(2)
    c = b.animal(0, "carnivorous", "fat_tissue", food=1)
    first, second = b.animal(0, "scavenger"), b.animal(0, "scavenger")
    v = b.animal(1)
    b.animal(1)
    st = b.done(bank=3)
    st.apply(0, {"type": "attack", "carnivore": c.id, "target": v.id}, random.Random(0))
    assert st.view(1)["chain"]["offer"] == [c.id, "carnivorous"] and st.to_move() == [0]
    assert [st.move_label(m) for m in st.legal_moves(0)] == [
        f"Store the food token in the Fat Tissue of your animal #{c.id}",
        f"Do not store the food token on your fed animal #{c.id}"]
    snap = st.to_json()
    with pytest.raises(IllegalMove, match=r"rule E-3\.8"):
        st.apply(0, {"type": "take_food", "animal": first.id}, random.Random(0))
    with pytest.raises(NotYourTurn):
        st.apply(1, {"type": "pass"}, random.Random(0))
    assert st.to_json() == snap
    st.apply(0, {"type": "skip_fat", "animal": c.id}, random.Random(0))
    assert [st.move_label(m) for m in st.legal_moves(0)] == [
        f"Your Scavenger #{first.id} eats the leftovers",
        f"Your Scavenger #{second.id} eats the leftovers"]
    data = json.loads(json.dumps(st.to_json()))
    assert GAME.state_from_json(data).legal_moves(0) == st.legal_moves(0)
