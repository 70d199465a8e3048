"""The store and the service against a real Redis server: CAS, tokens, idempotency, redaction."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest

from shared.domain.errors import Conflict, Forbidden, NotFound, Unauthorized, Unprocessable
from shared.infra.redis_client import RedisClient
from shared.infra.secrets import hash_secret
from shared.matches.service import MatchService
from shared.matches.store import MatchStore, match_key
from shared.services import match_service


class Recorder:
    """Collects enqueued bot turns (the queue itself is tested in the integration tests)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int, int]] = []

    def __call__(self, match_id: str, seat: int, version: int) -> None:
        self.calls.append((match_id, seat, version))


@pytest.fixture
def service(store_client: RedisClient) -> MatchService:
    return match_service(MatchStore(store_client), Recorder())


def humans(n: int) -> list[dict[str, Any]]:
    return [{"kind": "human"} for _ in range(n)]


def test_tokens_are_stored_hashed(service: MatchService, store_client: RedisClient) -> None:
    record, tokens = service.create_match("savanna", {}, 1, humans(2))
    stored = store_client.hgetall(match_key(record.id, ":tok"))
    assert set(stored) == {hash_secret(t) for t in tokens.values()}
    dump = json.dumps({k: store_client.hgetall(k) for k in store_client.scan_iter("evo:m:*")
                       if store_client.type(k) == "hash"})
    assert record.id in dump  # the scan found the match's keys (on every node of a cluster)
    assert not any(token in dump for token in tokens.values())


def test_authentication(service: MatchService) -> None:
    record, tokens = service.create_match("savanna", {}, 1, humans(2))
    assert service.authenticate(record.id, tokens[1], required=True) == 1
    assert service.authenticate(record.id, None, required=False) is None
    with pytest.raises(Unauthorized):
        service.authenticate(record.id, None, required=True)
    with pytest.raises(Forbidden):
        service.authenticate(record.id, "not-a-token", required=False)


def test_random_state_never_exposed(service: MatchService) -> None:
    record, _ = service.create_match("savanna", {}, 42, humans(2))
    for seat in (None, 0, 1):
        described = json.dumps(service.describe(record, seat))
        assert record.rng not in described and '"rng"' not in described
        assert service.describe(record, seat)["seed"] is None  # hidden until the end


def test_stale_version_and_illegal_move(service: MatchService) -> None:
    record, _ = service.create_match("savanna", {}, 3, humans(2))
    move = service.legal_moves(record, 0)[0]["move"]
    with pytest.raises(Conflict, match="stale"):
        service.submit_move(record.id, 0, record.version + 5, move)
    with pytest.raises(Unprocessable, match="malformed move: pick: card: 'unicorn'"):
        service.submit_move(record.id, 0, record.version, {"type": "pick", "card": "unicorn"})
    with pytest.raises(Unprocessable, match="illegal"):  # the right shape, not legal now
        service.submit_move(record.id, 0, record.version, {"type": "place", "row": 0, "col": 0})
    with pytest.raises(NotFound):
        service.submit_move("nope", 0, 1, move)
    assert service.load(record.id).version == record.version  # nothing half-applied
    assert service.store.log(record.id) == []


def test_idempotency_key_returns_first_answer(service: MatchService) -> None:
    record, _ = service.create_match("savanna", {}, 4, humans(2))
    move = service.legal_moves(record, 0)[0]["id"]
    first = service.submit_move(record.id, 0, record.version, move, idempotency_key="k1")
    again = service.submit_move(record.id, 0, record.version, move, idempotency_key="k1")
    assert again == first
    assert len(service.store.log(record.id)) == 1
    with pytest.raises(Unprocessable, match="Idempotency-Key"):
        service.submit_move(record.id, 0, record.version, "other", idempotency_key="k1")


def test_twenty_threads_compete_for_one_turn(service: MatchService) -> None:
    """Exactly one of 20 concurrent submissions for the same turn wins; the rest get 409."""
    record, _ = service.create_match("savanna", {}, 5, humans(2))
    moves = [m["move"] for m in service.legal_moves(record, 0)]
    barrier = threading.Barrier(20)
    outcomes: list[str] = []
    lock = threading.Lock()

    def submit(i: int) -> None:
        barrier.wait()
        try:
            service.submit_move(record.id, 0, record.version, moves[i % len(moves)])
            outcome = "ok"
        except Conflict:
            outcome = "409"
        with lock:
            outcomes.append(outcome)

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["409"] * 19 + ["ok"]
    log = service.store.log(record.id)
    assert len(log) == 1 and log[0]["version"] == record.version + 1
    assert service.load(record.id).version == record.version + 1


def test_log_is_redacted_while_running(service: MatchService) -> None:
    record, _ = service.create_match("savanna", {}, 6, humans(2))
    move = service.legal_moves(record, 0)[0]["move"]
    service.submit_move(record.id, 0, record.version, move)
    record = service.load(record.id)
    mine, theirs, public = (service.events(record, s) for s in (0, 1, None))
    assert mine[0]["move"] == move
    # The picker reads its pick once (the private event), the others the public news once.
    assert [e for e in mine[0]["events"] if e["type"] == "picked"] == [
        {"type": "picked", "seat": 0, "card": move["card"], "audience": [0]}]
    assert [e["type"] for e in theirs[0]["events"]] == ["picked"]
    assert "move" not in theirs[0] and "move" not in public[0]
    assert json.dumps(move["card"]) not in json.dumps(theirs)  # the pick stays secret


def test_open_seat_join_starts_match_and_enqueues_bots(service: MatchService) -> None:
    record, tokens = service.create_match(
        "savanna", {}, 7, [{"kind": "open"}, {"kind": "bot", "bot": {"kind": "random"}}])
    assert record.status == "waiting" and tokens == {}
    assert service.enqueue.calls == []
    with pytest.raises(Conflict, match="waiting"):
        service.submit_move(record.id, 0, record.version, "x")
    record, seat, token = service.join(record.id, None, "Ada")
    assert seat == 0 and record.status == "running"
    assert service.authenticate(record.id, token, required=True) == 0
    assert service.enqueue.calls == [(record.id, 1, record.version)]
    with pytest.raises(Conflict, match="no open seat"):
        service.join(record.id, None, None)


@pytest.mark.parametrize("seats,fragment", [
    (humans(1), "seats"),
    (humans(7), "seats"),
    ([{"kind": "bot", "bot": {"kind": "nope"}}, *humans(1)], "unknown bot kind"),
    ([{"kind": "bot", "bot": {"kind": "ismcts", "level": "godlike"}}, *humans(1)], "level"),
    ([{"kind": "bot", "bot": {"kind": "random", "level": "easy"}}, *humans(1)], "no levels"),
])
def test_create_rejects_bad_seats(service: MatchService, seats: list[dict[str, Any]],
                                  fragment: str) -> None:
    with pytest.raises(Unprocessable, match=fragment):
        service.create_match("savanna", {}, None, seats)


def test_unknown_game_and_option(service: MatchService) -> None:
    with pytest.raises(Unprocessable, match="unknown game"):
        service.create_match("chess", {}, None, humans(2))
    with pytest.raises(Unprocessable, match="unknown option"):
        service.create_match("savanna", {"speed": 2}, None, humans(2))


def test_same_seed_same_match(service: MatchService) -> None:
    a, _ = service.create_match("savanna", {}, 99, humans(3))
    b, _ = service.create_match("savanna", {}, 99, humans(3))
    assert a.state == b.state and a.rng == b.rng
