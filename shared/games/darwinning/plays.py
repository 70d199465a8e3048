"""The trick plays a seat may make now (docs/rules/darwinning.md D-4.1, D-4.3, D-11.2).

Listed from the packed combinations of ``codes``: a playout's random play counts them and
builds only the move it draws. The lists keep the order of ``combos.enumerate_combos``
(hand, then dummy cards in pool order): the search's seeded draws index into them.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from shared.kernel.protocol import Move
from shared.kernel.rng import randbelow

from .codes import SINGLE, code_cards, code_names, combo_codes

if TYPE_CHECKING:
    from .state import DarwinningState


def play_moves(st: DarwinningState, seat: int) -> list[Move]:
    """D-4.1 / D-11.2: the combinations ``seat`` may play now."""
    if st.num_players > 2:
        pool = sorted(st.hands[seat])
        return [_play(pool, code) for code in _playable(st, pool)]
    pool = sorted(st.hands[seat] + st.dummy_cards)
    return [_two_player_play(st, pool, code) for code in _two_player_codes(st, pool)]


def random_play(st: DarwinningState, seat: int, rng: random.Random) -> Move:
    """``play_moves(st, seat)[randbelow(rng, n)]``, building one move instead of all."""
    if st.num_players > 2:
        pool = sorted(st.hands[seat])
        return _play(pool, _random_playable(st, pool, rng))
    pool = sorted(st.hands[seat] + st.dummy_cards)
    codes = _two_player_codes(st, pool)
    return _two_player_play(st, pool, codes[randbelow(rng, len(codes))])


def announce_moves(st: DarwinningState, seat: int) -> list[Move]:
    """v2.2 two players (D-11.2): the dummy cards (and joker names) that complete the play:
    every combination holding all the hand cards played; its other cards are the dummy's."""
    play = next(p for p in st.trick if p["seat"] == seat)
    own: list[int] = play["cards"]
    pool = sorted(own + st.dummy_cards)
    own_bits = 0
    for i in range(len(pool)):
        if pool[i] in own:
            own_bits |= 1 << i
    moves: list[Move] = []
    for code in combo_codes(pool):
        if code & own_bits == own_bits:
            move: Move = {"type": "announce", "dummy": code_cards(pool, code & ~own_bits)}
            names = code_names(pool, code)
            if names:
                move["jokers"] = names
            moves.append(move)
    return moves


def _beats_best(st: DarwinningState, pool: list[int], codes: list[int]) -> list[bool]:
    """D-4.1 / D-4.3 per code: a single, a higher rank, or the same rank and an equal or
    higher sum than the best play of the trick so far."""
    best = st.trick[st.best]
    best_rank: int = best["rank"]
    best_sum: int = best["sum"]
    rank_at, total_at = len(pool), len(pool) + 3  # the layout of ``codes``
    out: list[bool] = []
    for code in codes:
        rank = (code >> rank_at) & 7
        out.append(rank == SINGLE or rank > best_rank
                   or (rank == best_rank and (code >> total_at) & 63 >= best_sum))
    return out


def _playable(st: DarwinningState, pool: list[int]) -> list[int]:
    """Three or more players (D-4.1): the codes of the combinations of ``pool`` (the hand)
    that may be played now."""
    codes = combo_codes(pool)
    if st.best < 0:
        return codes
    allowed = _beats_best(st, pool, codes)
    return [codes[k] for k in range(len(codes)) if allowed[k]]


def _random_playable(st: DarwinningState, pool: list[int], rng: random.Random) -> int:
    """``_playable(st, pool)[randbelow(rng, n)]``, counted, then found."""
    codes = combo_codes(pool)
    if st.best < 0:
        return codes[randbelow(rng, len(codes))]
    allowed = _beats_best(st, pool, codes)
    count = 0
    for ok in allowed:
        if ok:
            count += 1
    left = randbelow(rng, count)  # a single is always playable: count > 0
    for k in range(len(codes)):
        if allowed[k]:
            if left == 0:
                return codes[k]
            left -= 1
    raise AssertionError("unreachable: the draw is below the count")


def _play(pool: list[int], code: int) -> Move:
    move: Move = {"type": "play", "cards": code_cards(pool, code)}
    names = code_names(pool, code)
    if names:
        move["jokers"] = names
    return move


def _two_player_codes(st: DarwinningState, pool: list[int]) -> list[int]:
    """Two players (D-11.2): any combination of ``pool`` (hand and dummy cards) with one
    hand card at least. v2.2: the hand cards now, the dummy cards announced later, so each
    distinct hand part once (as a code of its hand cards only), first seen first."""
    hand_bits = 0
    for i in range(len(pool)):
        if pool[i] not in st.dummy_cards:
            hand_bits |= 1 << i
    codes = combo_codes(pool)
    if st.edition == "1.7":  # DECISION (D-11.2): dummy cards named with the hand cards
        return [code for code in codes if code & hand_bits]
    seen: set[int] = set()
    owns: list[int] = []
    for code in codes:
        own = code & hand_bits
        if own and own not in seen:
            seen.add(own)
            owns.append(own)
    return owns


def _two_player_play(st: DarwinningState, pool: list[int], code: int) -> Move:
    if st.edition != "1.7":
        return {"type": "play", "cards": code_cards(pool, code)}
    every = (1 << len(pool)) - 1
    dummy_bits = 0
    for i in range(len(pool)):
        if pool[i] in st.dummy_cards:
            dummy_bits |= 1 << i
    move: Move = {"type": "play", "cards": code_cards(pool, code & every & ~dummy_bits),
                  "dummy": code_cards(pool, code & dummy_bits)}
    names = code_names(pool, code)
    if names:
        move["jokers"] = names
    return move
