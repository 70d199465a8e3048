"""Survival at each era's end (docs/rules/darwinning.md D-7, D-10, D-11.5).

Order of work (D-7.7): every species, lowest on the food chain first, chooses whom it eats
(the dummy eats everything it may); then food against population, bite losses,
Metamorphosis, and the bite tokens are cleared.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from shared.kernel.protocol import Event, Move

from .cards import (
    ABILITY_FOOD,
    BIGGER_BRAIN,
    CAMOUFLAGE,
    COMMUNICATION,
    FOOD_ADAPTED,
    FOOD_EATEN,
    FOOD_SYMBIOSIS,
    HARD_SHELL,
    HERD,
    IRON_STOMACH,
    JOKERS,
    PHEROMONES,
    POISON,
    SOCIETY,
    SYMBIOSIS,
    TEETH,
    TOOLS,
    TWO_PLAYER_BITES,
    VALUE,
)

if TYPE_CHECKING:
    from .state import DarwinningState

DUMMY: Final = -1  # the dummy in survival order and as an eating target


def can_eat(a: int, eater: set[int], b: int, prey: set[int]) -> bool:
    """D-10.1: may a species at ``a`` with abilities ``eater`` eat one at ``b`` with ``prey``?"""
    reach = b < a or (b == a + 1 and (PHEROMONES in eater or TEETH in eater)) or (
        b == a + 2 and TEETH in eater)
    if not reach:
        return False
    if HARD_SHELL in prey and TOOLS not in eater:
        return False
    if COMMUNICATION in prey and not a < b and SOCIETY not in eater:
        return False
    return not (CAMOUFLAGE in prey and abs(a - b) == 1 and BIGGER_BRAIN not in eater)


def dummy_abilities(st: DarwinningState) -> set[int]:
    """D-11.5: the dummy has the abilities of its face-up cards."""
    return {VALUE[c] for c in st.dummy_cards if c not in JOKERS}


def _entity(st: DarwinningState, who: int) -> tuple[int, set[int]]:
    if who == DUMMY:
        assert st.dummy_pos is not None
        return st.dummy_pos, dummy_abilities(st)
    board = st.boards[who]
    return board.position, board.abilities()


def targets(st: DarwinningState, who: int) -> list[int]:
    """Whom ``who`` may still eat (each species once)."""
    a, eater = _entity(st, who)
    done = {t for e, t in st.eats if e == who}
    out = []
    others = list(range(st.num_players)) + ([DUMMY] if st.dummy_pos is not None else [])
    for t in others:
        if t == who or t in done:
            continue
        # D-10.1's reach first: most species are out of reach, so their abilities are not
        # worked out (``can_eat`` decides alike, it only needs them within reach).
        b = st.dummy_pos if t == DUMMY else st.boards[t].position
        assert b is not None
        if b <= a + 2 and can_eat(a, eater, b, _entity(st, t)[1]):
            out.append(t)
    return out


def symbiosis_options(st: DarwinningState, seat: int) -> list[int]:
    """D-10 #2: an era environment another player has and this species has not."""
    board = st.boards[seat]
    if SYMBIOSIS not in board.abilities():
        return []
    own = board.environments()
    others: set[int] = set()
    for other, b in enumerate(st.boards):
        if other != seat:
            others |= b.environments()
    return sorted(e for e in set(st.envs) if e not in own and e in others)


def eat_moves(st: DarwinningState, seat: int) -> list[Move]:
    moves: list[Move] = [{"type": "eat", "target": "dummy" if t == DUMMY else t}
                         for t in targets(st, seat)]
    moves.append({"type": "stop_eating"})
    return moves


def record_eat(st: DarwinningState, who: int, target: int, events: list[Event] | None) -> None:
    """One bite: the prey gets a bite token (two in a two-player game, D-11.5); a Poison prey
    gives its eater two tokens unless it has Iron Stomach (D-10 #9, #12)."""
    st.eats.append((who, target))
    tokens = TWO_PLAYER_BITES if st.num_players == 2 else 1
    if target != DUMMY:
        st.boards[target].bites += tokens
    _, prey = _entity(st, target)
    if who != DUMMY and POISON in prey and IRON_STOMACH not in st.boards[who].abilities():
        st.boards[who].bites += 2
    if events is not None:
        events.append({"type": "ate", "eater": "dummy" if who == DUMMY else who,
                       "target": "dummy" if target == DUMMY else target})


def food(st: DarwinningState, seat: int) -> dict[str, int]:
    """D-7.2: the food this species has this era, by source."""
    board = st.boards[seat]
    printed = board.printed_envs
    adapted = board.environments() - set(printed)
    env_food = 0
    for e in st.envs:
        if e in printed:
            env_food += printed[e]
        elif e in adapted:
            env_food += FOOD_ADAPTED
    symbiosis = FOOD_SYMBIOSIS if seat in st.symbiosis else 0
    eaten = FOOD_EATEN * sum(1 for e, _ in st.eats if e == seat)
    abilities = sum(ABILITY_FOOD.get(a, 0) for a in board.abilities())
    return {"environments": env_food, "symbiosis": symbiosis, "eating": eaten,
            "abilities": abilities, "total": env_food + symbiosis + eaten + abilities}


def resolve(st: DarwinningState, events: list[Event] | None) -> None:
    """D-7.4, D-7.5: food against population, then bite losses (population never below 0)."""
    for seat in st.survival_order():
        board = st.boards[seat]
        got = food(st, seat)["total"]
        eaters = sum(1 for _, t in st.eats if t == seat)
        before = board.population
        if got < board.population:
            board.population = max(0, board.population - 1)  # D-7.6: never below 0
        elif got > board.population and eaters <= 1:
            board.population += 1
        if events is not None:
            events.append({"type": "fed", "seat": seat, "food": got, "eaters": eaters,
                           "population": board.population, "change": board.population - before})
    for seat in st.survival_order():
        board = st.boards[seat]
        limit = 3 if HERD in board.abilities() else 2
        if board.bites >= limit and board.population > 0:
            board.population -= 1
            if events is not None:
                events.append({"type": "bitten", "seat": seat, "bites": board.bites,
                               "population": board.population})
