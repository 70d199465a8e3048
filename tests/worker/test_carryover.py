"""When a search begun at an older version still answers its seat's question (toy game)."""

from __future__ import annotations

import random
from typing import Any

from shared.kernel.protocol import State
from shared.matches.carryover import Question, ask, legal_digest, still_open
from tests.worker.toygame import TOY


def _round_start(players: int = 3) -> State:
    return TOY.state_from_json({"players": players, "deck": 12,
                                "hands": [[1, 5, 9], [2, 6, 10], [3, 7, 11]][:players],
                                "picks": [None] * players, "prize": 2, "prizes": [1, 3],
                                "revealed": [], "scores": [0] * players, "gambler": None})


def _play(state: State, log: list[dict[str, Any]], seat: int, move: dict[str, Any]) -> None:
    state.apply(seat, move, random.Random(0))
    log.append({"version": len(log) + 1, "seat": seat, "move": move, "events": []})


def test_other_seats_secret_picks_leave_the_question_open() -> None:
    state, log = _round_start(), []
    question = ask(state, 0, 0)
    assert question.unseen == {1, 2}  # both owe a face-down pick
    _play(state, log, 1, {"type": "pick", "card": 6})
    assert still_open(question, 0, state, 1, log)
    _play(state, log, 2, {"type": "pick", "card": 3})
    assert still_open(question, 0, state, 2, log)
    older = [{"version": 0, "seat": 0, "move": {}, "events": []}]
    assert still_open(question, 0, state, 2, older + log)  # entries up to the question count not
    assert not still_open(question, 0, state, 2, log[1:])  # but the tail must reach back


def test_own_move_a_visible_move_or_a_gap_closes_it() -> None:
    state, log = _round_start(2), []
    question = ask(state, 1, 0)
    _play(state, log, 0, {"type": "pick", "card": 9})
    assert still_open(question, 1, state, 1, log)
    _play(state, log, 1, {"type": "pick", "card": 2})  # its own move: the round resolves
    assert not still_open(question, 1, state, 2, log)
    # The round's winner now owes a public bank/double, visible to everyone.
    gambler = state.to_move()
    assert gambler == [0] and ask(state, 1, 2).unseen == frozenset()
    assert ask(state, 0, 2).unseen == frozenset()
    # A version with no move behind it (a join, say) closes the question too.
    fresh = _round_start(2)
    joined = [{"version": 1, "seat": 1, "at": 0.0, "events": []}]
    assert not still_open(ask(fresh, 0, 0), 0, fresh, 1, joined)
    assert not still_open(ask(fresh, 0, 0), 0, fresh, 2, [])  # the log does not reach back


def test_a_seat_moving_twice_or_changed_legal_moves_close_it() -> None:
    state = _round_start()
    question = ask(state, 0, 0)
    twice = [{"version": 1, "seat": 1, "move": {}, "events": []},
             {"version": 2, "seat": 1, "move": {}, "events": []}]
    assert not still_open(question, 0, state, 2, twice)
    once = twice[:1]
    assert still_open(question, 0, state, 1, once)
    other = Question(0, question.unseen, legal_digest(_round_start(2), 1))
    assert not still_open(other, 0, state, 1, once)
    assert not still_open(question, 0, state, 0, [])  # no newer version: nothing to carry


def test_question_round_trips_through_its_lease_note() -> None:
    question = ask(_round_start(), 2, 7)
    assert Question.from_json(question.to_json()) == question
    assert Question.from_json("1") is None  # a lease taken without a question
    assert Question.from_json('{"version": 1}') is None
