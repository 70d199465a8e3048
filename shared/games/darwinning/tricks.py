"""Trick play (docs/rules/darwinning.md D-3.4, D-4, D-5.1, D-5.2, D-11.2-D-11.4).

``st.trick`` lists the plays of the current trick in play order, each a dict ``{"seat",
"cards" (hand cards), "dummy" (the dummy's face-up cards used, two players), "jokers" (the
colours named, in joker-id order), "rank", "sum"}``; in a two-player v2.2 game the dummy cards
and joker names are announced after both played (D-11.2), until then ``rank`` is ``None``.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from shared.protocol import Event, Move
from shared.rng import randbelow

from .cards import CHAIN, JOKERS
from .combos import SINGLE, Combo, beats, classify, enumerate_combos, plain_codes
from .model import move_on_chain

if TYPE_CHECKING:
    from .state import DarwinningState


def _move(cards: tuple[int, ...], names: tuple[int, ...], dummy: tuple[int, ...] | None,
          hand_part: tuple[int, ...]) -> Move:
    move: Move = {"type": "play", "cards": list(hand_part)}
    if dummy is not None:
        move["dummy"] = list(dummy)
    if names:
        move["jokers"] = list(names)
    return move


def _playable(st: DarwinningState, seat: int) -> list[Combo]:
    """D-4.1 (three or more players): the combinations of ``seat``'s hand it may play now."""
    combos = enumerate_combos(st.hands[seat])
    if st.best < 0:
        return combos
    best = st.trick[st.best]
    best_rank: int = best["rank"]
    best_sum: int = best["sum"]
    # ``beats`` inlined: a single, a higher rank, or the same rank with an equal or higher sum
    return [combo for combo in combos
            if combo[2] == SINGLE or combo[2] > best_rank
            or (combo[2] == best_rank and combo[3] >= best_sum)]


def _play_move(combo: Combo) -> Move:
    move: Move = {"type": "play", "cards": list(combo[0])}
    if combo[1]:
        move["jokers"] = list(combo[1])
    return move


def random_play(st: DarwinningState, seat: int, rng: random.Random) -> Move:
    """``play_moves(st, seat)[randbelow(rng, n)]``, building one move instead of all of them
    (playouts spend most of their steps here); without a joker, from ``plain_codes``."""
    if st.num_players > 2:
        pool = sorted(st.hands[seat])
        if not _has_joker(pool):
            return {"type": "play", "cards": _cards_of(pool, _random_code(st, pool, rng))}
        playable = _playable(st, seat)
        return _play_move(playable[randbelow(rng, len(playable))])
    if st.edition != "1.7":
        pool = sorted(st.hands[seat] + st.dummy_cards)
        if not _has_joker(pool):
            owns = _hand_parts(pool, st.dummy_cards)
            return {"type": "play", "cards": _cards_of(pool, owns[randbelow(rng, len(owns))])}
    plays = _two_player(st, seat)
    return _two_player_move(st, plays[randbelow(rng, len(plays))])


def _random_code(st: DarwinningState, pool: list[int], rng: random.Random) -> int:
    """D-4.1: the ``randbelow``-th playable combination of ``plain_codes(pool)``, counted
    first, then found (no list of the playable ones)."""
    codes = plain_codes(pool)
    if st.best < 0:
        return codes[randbelow(rng, len(codes))]
    best = st.trick[st.best]
    best_rank: int = best["rank"]
    best_sum: int = best["sum"]
    rank_at, total_at = len(pool), len(pool) + 3
    count = 0
    for code in codes:
        rank = (code >> rank_at) & 7
        if rank == SINGLE or rank > best_rank or (rank == best_rank
                                                  and code >> total_at >= best_sum):
            count += 1
    left = randbelow(rng, count)  # singles are always playable: count > 0
    for code in codes:
        rank = (code >> rank_at) & 7
        if rank == SINGLE or rank > best_rank or (rank == best_rank
                                                  and code >> total_at >= best_sum):
            if left == 0:
                return code
            left -= 1
    raise AssertionError("unreachable: the draw is below the count")


def _has_joker(pool: list[int]) -> bool:
    return not JOKERS.isdisjoint(pool)


def _cards_of(pool: list[int], mask: int) -> list[int]:
    """The cards of ``pool`` whose bits are set in ``mask`` (sorted, as the pool)."""
    return [pool[i] for i in range(len(pool)) if (mask >> i) & 1]


def _hand_parts(pool: list[int], dummy_cards: list[int]) -> list[int]:
    """v2.2, two players (D-11.2), a sorted pool of hand and dummy cards without a joker:
    the distinct hand parts of its combinations as bit masks over ``pool``, in the order
    ``_two_player_plays`` lists them (a combination of dummy cards only is no play)."""
    hand_bits = 0
    for i in range(len(pool)):
        if pool[i] not in dummy_cards:
            hand_bits |= 1 << i
    seen: set[int] = set()
    owns: list[int] = []
    for code in plain_codes(pool):
        own = code & hand_bits
        if own and own not in seen:
            seen.add(own)
            owns.append(own)
    return owns


def play_moves(st: DarwinningState, seat: int) -> list[Move]:
    """D-4.1 / D-11.2: the combinations ``seat`` may play now."""
    if st.num_players > 2:
        return [_play_move(combo) for combo in _playable(st, seat)]
    if st.edition != "1.7":
        pool = sorted(st.hands[seat] + st.dummy_cards)
        if not _has_joker(pool):
            return [{"type": "play", "cards": _cards_of(pool, own)}
                    for own in _hand_parts(pool, st.dummy_cards)]
    return [_two_player_move(st, play) for play in _two_player(st, seat)]


def _two_player(st: DarwinningState, seat: int
                ) -> list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]]:
    """Two players (D-11.2): any combination, dummy cards allowed with one hand card at least."""
    hand = st.hands[seat]
    return _two_player_plays(hand, st.dummy_cards, st.edition)


def _two_player_move(st: DarwinningState,
                     play: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]) -> Move:
    own, used, names = play
    if st.edition != "1.7":
        return {"type": "play", "cards": list(own)}
    move: Move = {"type": "play", "cards": list(own), "dummy": list(used)}
    if names:
        move["jokers"] = list(names)
    return move


def _two_player_plays(hand: list[int], dummy_cards: list[int], edition: str
                      ) -> list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]]:
    """(hand part, dummy part, joker names) of every two-player play (not cached, as
    ``enumerate_combos``: playouts seldom meet a hand twice)."""
    dummy = set(dummy_cards)
    plays = []
    seen: set[tuple[int, ...]] = set()
    for cards, names, _rank, _total in enumerate_combos(hand + dummy_cards):
        own = tuple(c for c in cards if c not in dummy)
        if not own:
            continue
        if edition == "1.7":  # DECISION (D-11.2): dummy cards named with the hand cards
            plays.append((own, tuple(c for c in cards if c in dummy), names))
        elif own not in seen:  # v2.2: hand cards now, dummy cards announced later
            seen.add(own)
            plays.append((own, (), ()))
    return plays


def announce_moves(st: DarwinningState, seat: int) -> list[Move]:
    """v2.2 two players (D-11.2): the dummy cards (and joker names) that complete the play."""
    play = next(p for p in st.trick if p["seat"] == seat)
    own: list[int] = play["cards"]
    pool = sorted(own + st.dummy_cards)
    if not _has_joker(pool):
        return _plain_announces(pool, own)
    dummy = set(st.dummy_cards)
    moves = []
    for cards, names, _rank, _total in enumerate_combos(own + st.dummy_cards):
        # Every hand card played, completed by dummy cards (a loop, not a set per combination).
        if len(cards) >= len(own) and all(c in cards for c in own):
            move: Move = {"type": "announce", "dummy": [c for c in cards if c in dummy]}
            if names:
                move["jokers"] = list(names)
            moves.append(move)
    return moves


def _plain_announces(pool: list[int], own: list[int]) -> list[Move]:
    """``announce_moves`` for a pool without jokers, from ``plain_codes``: every combination
    holding all the hand cards played; its other cards are the dummy's."""
    own_bits = 0
    for i in range(len(pool)):
        if pool[i] in own:
            own_bits |= 1 << i
    every = (1 << len(pool)) - 1
    moves: list[Move] = []
    for code in plain_codes(pool):
        mask = code & every
        if mask & own_bits == own_bits:
            moves.append({"type": "announce", "dummy": _cards_of(pool, mask & ~own_bits)})
    return moves


def lead_moves(st: DarwinningState) -> list[Move]:
    return [{"type": "lead", "seat": s} for s in range(st.num_players)]


def start_trick(st: DarwinningState, leader: int, events: list[Event]) -> None:
    st.phase = "trick"
    st.leader = leader
    st.trick = []
    st.best = -1
    st.turn = leader
    events.append({"type": "trick_started", "leader": leader})


def apply_play(st: DarwinningState, seat: int, move: Move, rng: random.Random,
               events: list[Event]) -> None:
    cards = list(move["cards"])
    hand = st.hands[seat]
    for c in cards:
        hand.remove(c)
    st.played[seat] += len(cards)
    used = list(move.get("dummy", []))
    names = list(move.get("jokers", []))
    play = {"seat": seat, "cards": cards, "dummy": used, "jokers": names,
            "rank": None, "sum": None}
    if st.num_players == 2 and st.edition != "1.7":
        play["dummy"] = []
    else:
        _score_play(st, play)
    st.trick.append(play)
    events.append({"type": "played", "seat": seat, "cards": cards, "dummy": play["dummy"],
                   "jokers": names, "rank": play["rank"], "sum": play["sum"]})
    if len(st.trick) < st.num_players:
        st.turn = (seat + 1) % st.num_players
        return
    if st.num_players == 2 and st.edition != "1.7":
        st.phase = "announce"
        st.turn = st.trick[0]["seat"]
        return
    resolve(st, rng, events)


def apply_announce(st: DarwinningState, seat: int, move: Move, rng: random.Random,
                   events: list[Event]) -> None:
    index = next(i for i, p in enumerate(st.trick) if p["seat"] == seat)
    play = st.trick[index]
    play["dummy"] = list(move["dummy"])
    play["jokers"] = list(move.get("jokers", []))
    _score_play(st, play)
    if st.best < 0 or beats(play["rank"], play["sum"], st.trick[st.best]["rank"],
                            st.trick[st.best]["sum"]):
        st.best = index
    events.append({"type": "announced", "seat": seat, "dummy": play["dummy"],
                   "jokers": play["jokers"], "rank": play["rank"], "sum": play["sum"]})
    if index + 1 < len(st.trick):
        st.turn = st.trick[index + 1]["seat"]
        return
    resolve(st, rng, events)


def _score_play(st: DarwinningState, play: dict) -> None:
    cards = tuple(sorted(play["cards"] + play["dummy"]))
    rank_sum = classify(cards, tuple(play["jokers"]))
    assert rank_sum is not None
    play["rank"], play["sum"] = rank_sum
    if st.num_players > 2 or st.edition == "1.7":
        best = st.trick[st.best] if st.best >= 0 else None
        if best is None or beats(rank_sum[0], rank_sum[1], best["rank"], best["sum"]):
            st.best = len(st.trick)  # the play being appended (D-4.3: a later equal sum wins)


def resolve(st: DarwinningState, rng: random.Random, events: list[Event]) -> None:
    """D-4.4 / D-5.2 / D-11.3 / D-11.4: the winner, the dummy's climb, the upgrades."""
    winner_play = st.trick[st.best]
    winner = winner_play["seat"]
    st.winner = winner
    emptied = [s for s in range(st.num_players) if not st.hands[s]]
    st.last_trick = bool(emptied)
    events.append({"type": "trick_won", "seat": winner, "rank": winner_play["rank"],
                   "sum": winner_play["sum"], "last": st.last_trick})
    if st.num_players == 2:
        if not any(p["dummy"] for p in st.trick):
            climb = sum(CHAIN[c] for c in st.dummy_cards)
            if climb and st.dummy_pos is not None:  # D-11.4, moved by D-8 (D-8.4)
                occupied = {b.position for b in st.boards}
                old = st.dummy_pos
                st.dummy_pos = move_on_chain(old, climb, occupied)
                events.append({"type": "dummy_climbed", "from": old, "to": st.dummy_pos,
                               "points": climb})
        # D-11.3: the winner takes the dummy cards used; a loser's stay with the dummy.
        for c in winner_play["dummy"]:
            st.dummy_cards.remove(c)
    if not st.last_trick:
        st.queue.append({"kind": "upgrade", "seat": winner,
                         "cards": winner_play["cards"] + winner_play["dummy"]})
        st.stage = "trick"
    else:
        st.emptied = emptied
        for k in range(1, st.num_players):  # D-5.2: clockwise from the winner
            seat = (winner + k) % st.num_players
            play = next(p for p in st.trick if p["seat"] == seat)
            st.queue.append({"kind": "upgrade", "seat": seat, "cards": list(play["cards"])})
        st.stage = "last"
    st.run_queue(rng, events)


def cleanup(st: DarwinningState) -> None:
    """Every played card not used for an upgrade goes to the discard pile (D-4.4, D-11.3)."""
    for play in st.trick:
        st.discard.extend(play["cards"])
        if play["seat"] == st.winner:
            st.discard.extend(play["dummy"])
    st.trick = []
    st.best = -1
