"""docs/rules/evolution.md, rule E-6: the rulebook's worked example — Alex (seat 0) and Dan
(seat 1), their first round."""

from __future__ import annotations

import pytest

from shared.games.evolution.state import EvolutionState

from .helpers import Builder, ScriptedRng, all_cards


def _setup() -> tuple[EvolutionState, dict[str, int]]:
    b = Builder(2)
    alex = b.hand(0, "swimming", "running", "poisonous", "carnivorous", "mimicry", "piracy")
    dan = b.hand(1, "scavenger", "tail_loss", "communication", "camouflage",
                 "fat_tissue", "grazing")
    st = b.done(phase="development", turn=0, first=0)
    cards = {"a_animal1": alex[0], "a_animal2": alex[1], "a_poison": alex[2],
             "a_carn": alex[3], "a_animal3": alex[4], "a_kept": alex[5],
             "d_animal1": dan[0], "d_animal2": dan[1], "d_comm": dan[2], "d_camo": dan[3],
             "d_fat": dan[4], "d_graze": dan[5]}
    return st, cards


@pytest.mark.rule("E-6")
def test_e6_worked_example_first_round() -> None:
    """E-6 / E-3.1-E-3.4: the example move by move, with the example's die roll (4)."""
    st, c = _setup()
    rng = ScriptedRng([4])
    assert len(st.deck) == 72 and len(st.hands[0]) == len(st.hands[1]) == 6

    def play(seat: int, move: dict) -> list[dict]:
        assert st.to_move() == [seat]
        assert move in st.legal_moves(seat), move
        return st.apply(seat, move, rng)

    # 1. Development.
    play(0, {"type": "play_animal", "card": c["a_animal1"]})  # Alex's animal #1
    play(1, {"type": "play_animal", "card": c["d_animal1"]})  # Dan's animal #2
    play(0, {"type": "play_animal", "card": c["a_animal2"]})  # Alex's animal #3
    play(1, {"type": "play_animal", "card": c["d_animal2"]})  # Dan's animal #4
    play(0, {"type": "play_trait", "card": c["a_poison"], "trait": "poisonous", "animal": 1})
    play(1, {"type": "play_pair", "card": c["d_comm"], "trait": "communication",
             "animals": [2, 4]})
    play(0, {"type": "play_trait", "card": c["a_carn"], "trait": "carnivorous", "animal": 1})
    play(1, {"type": "play_trait", "card": c["d_camo"], "trait": "camouflage", "animal": 2})
    play(0, {"type": "play_animal", "card": c["a_animal3"]})  # Alex's animal #5
    play(1, {"type": "play_trait", "card": c["d_fat"], "trait": "fat_tissue", "animal": 2})
    play(0, {"type": "pass"})  # Alex keeps one card for the next round
    events = play(1, {"type": "play_trait", "card": c["d_graze"], "trait": "grazing",
                      "animal": 2})
    # 2. Food bank: Dan is out of cards, development ends; 1d6 + 2 = 4 + 2 = 6 (E-3.2).
    bank = [e for e in events if e["type"] == "food_bank"]
    assert bank == [{"type": "food_bank", "dice": [4], "plus": 2, "bank": 6}]
    assert st.phase == "feeding" and st.bank == 6 and st.hands[0] == [c["a_kept"]]

    # 3. Feeding. Alex takes a red token for his trait-less animal: it is fed.
    play(0, {"type": "take_food", "animal": 3})
    assert st.animals[3].is_fed()
    # Dan takes a red token; Communication takes a second one for the partner.
    events = play(1, {"type": "take_food", "animal": 4})
    assert st.animals[4].food == 1 and st.animals[2].food == 1 and st.bank == 3
    assert any(e.get("via") == "communication" for e in events)
    # Grazing destroys another red token; it is turned sideways for this turn.
    play(1, {"type": "use_trait", "trait": "grazing", "animal": 2})
    assert st.bank == 2
    # Alex's carnivore cannot attack the camouflaged animal, but eats Dan's other one.
    assert {"type": "attack", "carnivore": 1, "target": 2} not in st.legal_moves(0)
    events = play(0, {"type": "attack", "carnivore": 1, "target": 4})
    assert 4 not in st.animals and st.animals[1].food == 2 and st.animals[1].is_fed()
    assert len(st.discards[1]) == 2  # the animal card and its Communication card
    assert st.animals[2].pairs == []
    # Dan puts a red token into the Fat Tissue of his survivor, grazes the last one.
    events = play(1, {"type": "take_food", "animal": 2})
    assert st.animals[2].fat == 1 and [e["into"] for e in events if e["type"] == "food"] == \
        ["fat"]
    events = play(1, {"type": "use_trait", "trait": "grazing", "animal": 2})

    # 4. Extinction: the bank is empty; Alex's unfed animal #5 dies. Alex draws 3, Dan 2.
    assert st.phase == "development" and st.round == 2
    assert sorted(st.animals) == [1, 2, 3]
    assert len(st.discards[0]) == 1
    assert len(st.hands[0]) == 1 + 3 and len(st.hands[1]) == 0 + 2
    assert st.first == 1 and st.to_move() == [1]  # next round Dan is first in every phase
    assert st.animals[2].fat == 1 and all(a.food == 0 for a in st.animals.values())
    assert sorted(all_cards(st)) == list(range(84))
    drawn = [e for e in events if e["type"] == "cards_drawn" and "audience" not in e]
    assert [(e["seat"], e["count"]) for e in drawn] == [(0, 3), (1, 2)]
