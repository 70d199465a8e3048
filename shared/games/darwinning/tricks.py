"""Trick play (docs/rules/darwinning.md D-3.4, D-4, D-5.1, D-5.2, D-11.2-D-11.4).

``st.trick`` lists the plays of the current trick in play order, each a dict ``{"seat",
"cards" (hand cards), "dummy" (the dummy's face-up cards used, two players), "jokers" (the
colours named, in joker-id order), "rank", "sum"}``; in a two-player v2.2 game the dummy cards
and joker names are announced after both played (D-11.2), until then ``rank`` is ``None``.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from shared.kernel.protocol import Event, Move

from .cards import CHAIN
from .combos import beats, classify
from .model import move_on_chain

if TYPE_CHECKING:
    from .state import DarwinningState


def lead_moves(st: DarwinningState) -> list[Move]:
    return [{"type": "lead", "seat": s} for s in range(st.num_players)]


def start_trick(st: DarwinningState, leader: int, events: list[Event] | None) -> None:
    st.phase = "trick"
    st.leader = leader
    st.trick = []
    st.best = -1
    st.turn = leader
    if events is not None:
        events.append({"type": "trick_started", "leader": leader})


def apply_play(st: DarwinningState, seat: int, move: Move, rng: random.Random,
               events: list[Event] | None) -> None:
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
    if events is not None:
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
                   events: list[Event] | None) -> None:
    index = next(i for i, p in enumerate(st.trick) if p["seat"] == seat)
    play = st.trick[index]
    play["dummy"] = list(move["dummy"])
    play["jokers"] = list(move.get("jokers", []))
    _score_play(st, play)
    if st.best < 0 or beats(play["rank"], play["sum"], st.trick[st.best]["rank"],
                            st.trick[st.best]["sum"]):
        st.best = index
    if events is not None:
        events.append({"type": "announced", "seat": seat, "dummy": play["dummy"],
                       "jokers": play["jokers"], "rank": play["rank"], "sum": play["sum"]})
    if index + 1 < len(st.trick):
        st.turn = st.trick[index + 1]["seat"]
        return
    resolve(st, rng, events)


def _score_play(st: DarwinningState, play: dict[str, Any]) -> None:
    cards = tuple(sorted(play["cards"] + play["dummy"]))
    rank_sum = classify(cards, tuple(play["jokers"]))
    assert rank_sum is not None
    play["rank"], play["sum"] = rank_sum
    if st.num_players > 2 or st.edition == "1.7":
        best = st.trick[st.best] if st.best >= 0 else None
        if best is None or beats(rank_sum[0], rank_sum[1], best["rank"], best["sum"]):
            st.best = len(st.trick)  # the play being appended (D-4.3: a later equal sum wins)


def resolve(st: DarwinningState, rng: random.Random, events: list[Event] | None) -> None:
    """D-4.4 / D-5.2 / D-11.3 / D-11.4: the winner, the dummy's climb, the upgrades."""
    winner_play = st.trick[st.best]
    winner = winner_play["seat"]
    st.winner = winner
    emptied = [s for s in range(st.num_players) if not st.hands[s]]
    st.last_trick = bool(emptied)
    if events is not None:
        events.append({"type": "trick_won", "seat": winner, "rank": winner_play["rank"],
                       "sum": winner_play["sum"], "last": st.last_trick})
    if st.num_players == 2:
        if not any(p["dummy"] for p in st.trick):
            climb = sum(CHAIN[c] for c in st.dummy_cards)
            if climb and st.dummy_pos is not None:  # D-11.4, moved by D-8 (D-8.4)
                occupied = {b.position for b in st.boards}
                old = st.dummy_pos
                st.dummy_pos = move_on_chain(old, climb, occupied)
                if events is not None:
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
