"""A move's label tells the choice apart from the seat's other choices, in every language.

A person picks a move by its label (the match page's move list, the accessible alternative
to touching the board), so two legal moves may share a label only if they are the same
choice: they differ at most in which of several interchangeable copies of a card they use.
Each game's ``face`` says what makes a card different from another where it lies (in a hand:
what is printed on it; Evolution's card on an animal: the trait it was played as, or the pair
it links); a game without one must give every move its own label. Checked by seeded random
play of every game at its fewest and most players, every seat that owes a decision, every
language.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Hashable, Iterator
from typing import Any

import pytest

from api.i18n import LANGUAGES
from shared.games import all_games
from shared.games.darwinning import cards as darwinning_cards
from shared.games.evolution import cards as evolution_cards
from shared.games.evolution_ns import cards as evolution_ns_cards
from shared.kernel.catalogue import named_seats
from shared.kernel.protocol import Game, Move
from shared.matches.listing import listed_moves


def evolution_face(state: Any, card: int) -> Hashable:
    """A card in a hand is its two faces; played, it is one trait (of an animal: copies of
    a trait there are alike) or the pair of animals it links."""
    if card in state.pairs:
        return ("pair", *state.pairs[card])
    for animal in state.animals.values():
        for played, trait in animal.traits:
            if played == card:
                return ("trait", animal.id, trait)
    return evolution_cards.faces(card)


#: A card's face by game, ``(state, card id) -> face``: moves that use cards of one face
#: (and are otherwise equal) are one choice.
FACES: dict[str, Callable[[Any, int], Hashable]] = {
    "evolution": evolution_face,
    "evolution-ns": lambda state, card: (evolution_ns_cards.TRAIT_OF[card],
                                         evolution_ns_cards.FOOD_OF[card]),
    "darwinning": lambda state, card: (
        darwinning_cards.VALUE[card], darwinning_cards.COLOUR[card],
        darwinning_cards.CHAIN[card], darwinning_cards.EGGS[card],
        darwinning_cards.ENV_ICON[card]),
}
#: The move fields that name cards by id.
CARD_FIELDS = ("card", "cards", "dummy")
SEEDS = range(12)


def choice(state: Any, move: Move, face: Callable[[Any, int], Hashable] | None) -> Hashable:
    """The choice ``move`` makes in ``state``, with each card id replaced by its face."""
    def printed(value: Any) -> Any:
        if face is None or isinstance(value, bool):
            return value
        if isinstance(value, int):
            return face(state, value)
        if isinstance(value, list):
            return tuple(sorted((printed(v) for v in value), key=repr))
        return value

    return tuple(sorted(((key, repr(printed(value)) if key in CARD_FIELDS else repr(value))
                         for key, value in move.items())))


def decisions(game: Game, players: int, seed: int) -> Iterator[tuple[Any, int, list[Move]]]:
    """Every decision of a seeded random match: the state, a seat owing it, its legal moves."""
    rng = random.Random(seed)
    state = game.new_state(players, game.resolve_options({}), rng)
    while not state.is_over():
        for seat in state.to_move():
            yield state, seat, state.legal_moves(seat)
        seat = rng.choice(state.to_move())
        state.apply(seat, state.random_move(seat, rng), rng)


def ambiguous_labels(game: Game, players: int, seed: int) -> list[tuple[str, str, list[Move]]]:
    """Each (language, label, moves) where one label names different choices of one seat."""
    face = FACES.get(game.id)
    found = []
    for state, _, legal in decisions(game, players, seed):
        for lang in LANGUAGES:
            by_label: dict[str, list[Move]] = {}
            for move in legal:
                by_label.setdefault(state.move_label(move, lang), []).append(move)
            found += [(lang, label, moves) for label, moves in by_label.items()
                      if len({choice(state, m, face) for m in moves}) > 1]
    return found


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
@pytest.mark.parametrize("most", [False, pytest.param(True, marks=pytest.mark.slow)],
                         ids=["fewest", "most"])
def test_a_label_names_one_choice(game: Game, most: bool) -> None:
    players = game.max_players if most else game.min_players
    found = [hit for seed in SEEDS for hit in ambiguous_labels(game, players, seed)]
    assert not found, found[:3]


def scattered_groups(game: Game, players: int, seed: int) -> list[tuple[str, list[str | None]]]:
    """Each (language, groups in list order) where, as the API lists the moves
    (``listed_moves``: every legal move once), a group's moves are not together, a group is
    blank, or a move of one card has none while another of the list has one."""
    found = []
    for state, seat, legal in decisions(game, players, seed):
        for lang in LANGUAGES:
            listed = listed_moves(state, seat, lang)
            assert sorted(map(repr, (e["move"] for e in listed))) == sorted(map(repr, legal))
            groups = [entry.get("group") for entry in listed]
            runs = [g for i, g in enumerate(groups) if i == 0 or g != groups[i - 1]]
            named = [g for g in runs if g is not None]
            one_card = [g for entry, g in zip(listed, groups, strict=True)
                        if isinstance(entry["move"].get("card"), int)]
            if (len(named) != len(set(named)) or any(not g or not g.strip() for g in named)
                    or (any(one_card) and None in one_card)):
                found.append((lang, groups))
    return found


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
@pytest.mark.parametrize("most", [False, pytest.param(True, marks=pytest.mark.slow)],
                         ids=["fewest", "most"])
def test_a_group_lists_its_moves_together(game: Game, most: bool) -> None:
    """The match page folds each run of one group into one section: a group whose moves were
    apart would show as two sections of one name."""
    players = game.max_players if most else game.min_players
    found = [hit for seed in SEEDS for hit in scattered_groups(game, players, seed)]
    assert not found, found[:3]


@pytest.mark.parametrize("game", ["darwinning", "evolution", "evolution-ns"])
def test_the_card_games_group_a_cards_moves(game: str) -> None:
    """Where a list is long, the games whose moves play one card name it as their group."""
    found = {lang: 0 for lang in LANGUAGES}
    target = next(g for g in all_games() if g.id == game)
    for seed in SEEDS:
        rng = random.Random(seed)
        state = target.new_state(target.min_players, target.resolve_options({}), rng)
        while not state.is_over():
            seat = rng.choice(state.to_move())
            legal = state.legal_moves(seat)
            for lang in LANGUAGES:
                groups = [state.move_group(move, lang) for move in legal]
                if len(legal) >= 12 and any(groups.count(g) > 1 for g in groups if g):
                    found[lang] += 1
            state.apply(seat, state.random_move(seat, rng), rng)
    assert all(found.values()), found


NAMES = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.id)
def test_a_label_names_other_seats_by_name_when_they_are_known(game: Game) -> None:
    """Under the seats' names (the match service's ``named_seats``) a label says "Bo's
    species", not "seat 1's", and still names one choice; names two seats share would make
    their labels alike, so the seats keep their numbers then."""
    players = game.max_players
    names = NAMES[:players]
    for seed in SEEDS[:4]:
        with named_seats(names):
            assert not ambiguous_labels(game, players, seed)
        for state, _, legal in decisions(game, players, seed):
            for move in legal:
                with named_seats(names):
                    named = state.move_label(move)
                with named_seats(["Same"] * players):
                    same = state.move_label(move)
                assert not re.search(r"\bseat \d", named), (game.id, named)
                assert same == state.move_label(move), (game.id, same)
