"""A move quoting an older version is applied when nothing since is visible to its seat."""

from __future__ import annotations

import copy
import json
import threading
from typing import Any

import pytest
import redis

from shared.domain.errors import Conflict
from shared.games import get_game
from shared.matches.record import MatchRecord
from shared.matches.service import MatchService
from shared.matches.store import MatchStore
from shared.services import match_service
from tests.shared.test_service import Recorder


@pytest.fixture
def service(redis_client: redis.Redis) -> MatchService:
    return match_service(MatchStore(redis_client), Recorder())


def humans(n: int) -> list[dict[str, Any]]:
    return [{"kind": "human"} for _ in range(n)]


def test_a_secret_pick_since_does_not_refuse_the_move(service: MatchService) -> None:
    record, _ = service.create_match("savanna", {}, 11, humans(3))
    quoted = record.version
    assert record.to_move == [0, 1, 2]  # the draft: every seat picks face down at once
    pick_1 = service.legal_moves(record, 1)[0]["id"]
    pick_0 = service.legal_moves(record, 0)[-1]["id"]
    first = service.submit_move(record.id, 1, quoted, pick_1)
    assert first["applied_at"] == quoted
    answer = service.submit_move(record.id, 0, quoted, pick_0)
    assert answer["applied_at"] == quoted + 1 and answer["version"] == quoted + 2
    entries = service.store.log(record.id)
    assert [(e["seat"], e["version"]) for e in entries] == [(1, quoted + 1), (0, quoted + 2)]


def test_the_seat_own_move_since_refuses_it(service: MatchService) -> None:
    record, _ = service.create_match("savanna", {}, 12, humans(3))
    quoted = record.version
    moves = service.legal_moves(record, 0)
    service.submit_move(record.id, 0, quoted, moves[0]["id"])
    service.submit_move(record.id, 1, quoted + 1, service.legal_moves(
        service.load(record.id), 1)[0]["id"])
    # Seat 0 owes nothing now: quoting the old version must not play it twice.
    with pytest.raises(Conflict):
        service.submit_move(record.id, 0, quoted, moves[1]["id"])
    assert service.load(record.id).version == quoted + 2


def test_a_visible_change_refuses_it(service: MatchService) -> None:
    """Once the draft round ends the hands pass: the question changed, so 409."""
    record, _ = service.create_match("savanna", {}, 13, humans(2))
    quoted = record.version
    service.submit_move(record.id, 0, quoted, service.legal_moves(record, 0)[0]["id"])
    service.submit_move(record.id, 1, quoted + 1, service.legal_moves(
        service.load(record.id), 1)[0]["id"])
    current = service.load(record.id)
    assert current.version == quoted + 2 and 0 in current.to_move
    stale_move = service.legal_moves(current, 0)[0]["id"]
    with pytest.raises(Conflict, match="stale"):
        service.submit_move(record.id, 0, quoted + 1, stale_move)


def test_replay_rebuilds_every_version(service: MatchService) -> None:
    """The state replayed from the seed and the log is the stored state, version by version."""
    record, _ = service.create_match("savanna", {}, 14, humans(2))
    game = get_game("savanna")
    for _ in range(12):
        record = service.load(record.id)
        if record.status != "running":
            break
        seat = record.to_move[0]
        service.submit_move(record.id, seat, record.version,
                            service.legal_moves(record, seat)[0]["id"])
        latest = service.load(record.id)
        replayed = service.state_at(latest, game, latest.version).to_json()
        assert replayed == json.loads(latest.state)


def test_a_move_judged_on_an_overtaken_read_is_judged_again(service: MatchService) -> None:
    """The API passes the record its request read; another move lands before the commit.
    The move is then judged on the match as it is now, exactly as without the record."""
    record, _ = service.create_match("savanna", {}, 14, humans(3))
    quoted = record.version
    read_by_request = service.load(record.id)
    service.submit_move(record.id, 1, quoted, service.legal_moves(record, 1)[0]["id"])
    answer = service.submit_move(record.id, 0, quoted, service.legal_moves(record, 0)[-1]["id"],
                                 record=copy.deepcopy(read_by_request))
    assert answer["applied_at"] == quoted + 1 and answer["version"] == quoted + 2
    # Its own move since: refused, and nothing applied twice.
    stale = service.load(record.id)
    with pytest.raises(Conflict):
        service.submit_move(record.id, 0, quoted, service.legal_moves(record, 0)[0]["id"],
                            record=copy.deepcopy(read_by_request))
    assert service.load(record.id).version == stale.version
    assert [e["seat"] for e in service.store.log(record.id)] == [1, 0]


def test_a_visible_choice_of_the_same_step_does_not_refuse_it(service: MatchService) -> None:
    """Placements are seen by all, yet made at once: another seat's placement since leaves
    the question open while this seat's legal moves are the same (a bot that posts the move
    for the turn it was handed is not refused), and the move is applied after it."""
    record, _ = service.create_match("savanna", {}, 15, humans(2))
    game = get_game("savanna")

    def seen_apart(record: MatchRecord) -> int:  # seat 1's choices as seat 0 tells them apart
        state = game.state_from_json(json.loads(record.state))
        return len({seen for seen, _ in state.observed_moves(1, 0)})

    while not (record.to_move == [0, 1] and seen_apart(record) > 1):  # a visible step
        seat = record.to_move[0]
        service.submit_move(record.id, seat, record.version,
                            service.legal_moves(record, seat)[0]["id"])
        record = service.load(record.id)
    quoted, mine = record.version, service.legal_moves(record, 0)
    service.submit_move(record.id, 1, quoted, service.legal_moves(record, 1)[-1]["id"])
    assert service.legal_moves(service.load(record.id), 0) == mine
    answer = service.submit_move(record.id, 0, quoted, mine[-1]["id"])
    assert answer["applied_at"] == quoted + 1 and answer["version"] == quoted + 2


def test_seats_moving_at_once_are_never_refused(service: MatchService) -> None:
    """Issue 39: people of a simultaneous step posting at the same moment, each quoting the
    version it read (the API hands its read record on): a commit that loses the race to one
    seat, then to another, is judged again each time, and none is refused. Four seats, every
    step of the first rounds (secret picks and visible placements), threads on the real
    Redis, released together."""
    record, _ = service.create_match("savanna", {}, 21, humans(4))
    for _ in range(12):
        record = service.load(record.id)
        seats = list(record.to_move)
        assert record.status == "running" and len(seats) == 4
        choices = {seat: service.legal_moves(record, seat)[-1]["id"] for seat in seats}
        start = threading.Barrier(len(seats))
        answers: dict[int, Any] = {}

        def post(seat: int, read: MatchRecord = record, choices: dict[int, str] = choices,
                 start: threading.Barrier = start, answers: dict[int, Any] = answers) -> None:
            start.wait()
            try:
                answers[seat] = service.submit_move(read.id, seat, read.version,
                                                    choices[seat], record=copy.deepcopy(read))
            except Conflict as refused:
                answers[seat] = refused

        threads = [threading.Thread(target=post, args=(seat,)) for seat in seats]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert all(isinstance(a, dict) for a in answers.values()), answers
        after = service.load(record.id)
        assert after.version == record.version + len(seats)
        log = service.store.log(record.id)[-len(seats):]
        assert sorted(e["seat"] for e in log) == sorted(seats)


def test_a_change_to_the_seat_own_options_since_still_refuses(service: MatchService) -> None:
    """The old protection holds for people moving at once: a move quoting a version after
    which the seat's own legal moves changed (the step ended: the hands passed) is a 409."""
    record, _ = service.create_match("savanna", {}, 22, humans(3))
    quoted = record.version
    mine = service.legal_moves(record, 0)
    for seat in (0, 1, 2):
        current = service.load(record.id)
        service.submit_move(record.id, seat, current.version,
                            service.legal_moves(current, seat)[0]["id"])
    after = service.load(record.id)
    assert 0 in after.to_move and service.legal_moves(after, 0) != mine
    with pytest.raises(Conflict, match="stale"):
        service.submit_move(record.id, 0, quoted + 1, service.legal_moves(after, 0)[0]["id"])
    assert service.load(record.id).version == after.version
