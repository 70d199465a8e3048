"""The domain's vocabularies (shared/domain/types.py) are the contract's, and fit what is stored."""

from __future__ import annotations

import json
from typing import Any, get_args

import pytest
from redis.connection import Encoder

from api.docs import spec
from shared.domain.types import (
    ENDED,
    LIVE,
    BotKind,
    BotLevel,
    BotSpec,
    LevelName,
    MatchStatus,
    SeatBot,
    SeatKind,
    SeatRecord,
    SeatSpec,
    SlotStatus,
    TournamentFormat,
    TournamentStatus,
)
from shared.infra.redis_client import RedisClient
from shared.matches.store import MatchStore, match_key
from shared.services import match_service


def _schema(name: str) -> dict[str, Any]:
    found: dict[str, Any] = spec()["components"]["schemas"][name]
    return found


def _members(name: str) -> list[dict[str, Any]]:
    """A schema's objects: itself, or each member of its ``oneOf`` (a union by ``kind``)."""
    schema = _schema(name)
    return [_schema(m["$ref"].rsplit("/", 1)[1]) for m in schema["oneOf"]] \
        if "oneOf" in schema else [schema]


def _enum(schema: str, field: str) -> list[Any]:
    """A field's values: its enum, or across a union's members, each member's constant (in
    the members' order)."""
    values: list[Any] = []
    for member in _members(schema):
        prop = member["properties"][field]
        prop = _schema(prop["$ref"].rsplit("/", 1)[1]) if "$ref" in prop else prop
        values += prop["enum"] if "enum" in prop else [prop["const"]]
    return values


def _shape(schema: str) -> tuple[set[str], set[str]]:
    """The keys a schema (or any member of its union) shows, and those every member
    requires."""
    members = _members(schema)
    shown = set().union(*(m["properties"] for m in members))
    required = set.intersection(*(set(m.get("required", [])) for m in members))
    return shown, required


def _list_query_statuses() -> list[str]:
    params = spec()["paths"]["/v1/matches"]["get"]["parameters"]
    values: list[str] = next(p for p in params if p.get("name") == "status")["schema"]["enum"]
    return values


def test_statuses_and_seat_kinds_are_the_contracts_in_its_order() -> None:
    assert list(MatchStatus) == _enum("MatchFields", "status")
    assert sorted(ENDED) == sorted(_enum("EndEvent", "status"))
    assert sorted(LIVE) == sorted(_list_query_statuses())
    assert set(MatchStatus) == ENDED | LIVE and not ENDED & LIVE
    assert list(SeatKind) == _enum("Seat", "kind") == _enum("SeatSpec", "kind")


def test_literals_are_the_contracts() -> None:
    assert list(get_args(BotKind)) == _enum("SeatBot", "kind") == _enum("BotSpec", "kind")
    assert list(get_args(BotLevel)) == _enum("SeatBot", "level")
    assert list(get_args(LevelName)) == _enum("SearchBotSpec", "level")
    assert list(get_args(TournamentStatus)) == _enum("TournamentFields", "status")
    assert list(get_args(SlotStatus)) == _enum("TournamentMatch", "status")
    assert list(get_args(TournamentFormat)) == _enum("CreateTournament", "format")


@pytest.mark.parametrize(("record", "schema", "hidden"), [
    (SeatRecord, "Seat", {"webhook"}), (SeatBot, "SeatBot", set()),
    (SeatSpec, "SeatSpec", set()), (BotSpec, "BotSpec", set())])
def test_record_shapes_are_the_contracts(record: Any, schema: str, hidden: set[str]) -> None:
    """Every key the contract shows and no other (but what is kept from clients), required
    where the contract requires it."""
    shown, required = _shape(schema)
    assert set(record.__annotations__) - hidden == shown
    assert record.__required_keys__ == required


def test_members_are_their_strings() -> None:
    """What makes adopting them change nothing: stored and compared as the plain strings."""
    assert MatchStatus.RUNNING == "running" and hash(SeatKind.BOT) == hash("bot")
    assert json.dumps({"status": MatchStatus.FINISHED}) == '{"status": "finished"}'
    assert Encoder("utf-8", "strict", False).encode(MatchStatus.ABORTED) == b"aborted"  # redis
    assert "expired" in ENDED and "waiting" in LIVE and "running" not in ENDED
    assert f"{SeatKind.ACCOUNT}-1" == "account-1"


def test_stored_seats_fit_the_seat_record(store_client: RedisClient) -> None:
    service = match_service(MatchStore(store_client), lambda *_: None)
    record, _ = service.create_match("savanna", {}, 1, [
        {"kind": "human"}, {"kind": "open"},
        {"kind": "bot", "bot": {"kind": "ismcts", "simulations": 50}}], match_id="ab" * 8)
    stored = service.load(record.id).seats
    assert [seat["kind"] for seat in stored] == [SeatKind.HUMAN, SeatKind.OPEN, SeatKind.BOT]
    for seat in stored:
        assert SeatRecord.__required_keys__ <= set(seat) <= set(SeatRecord.__annotations__)
    assert set(stored[2]["bot"]) <= set(SeatBot.__annotations__)
    assert stored[2]["bot"]["level"] in get_args(BotLevel)


def test_a_record_reads_back_members_and_stores_plain_strings(
        store_client: RedisClient) -> None:
    """``MatchRecord.status`` is a member once loaded; what Redis and the API's JSON hold is
    the plain text, as before the enums."""
    service = match_service(MatchStore(store_client), lambda *_: None)
    record, _ = service.create_match("savanna", {}, 1, [{"kind": "human"}, {"kind": "open"}],
                                     match_id="cd" * 8)
    loaded = service.load(record.id)
    assert type(loaded.status) is MatchStatus and loaded.status == "waiting"
    raw = store_client.hgetall(match_key(record.id))
    assert raw["status"] == "waiting"
    assert [seat["kind"] for seat in json.loads(raw["seats"])] == ["human", "open"]
    shown = json.loads(json.dumps(service.describe(loaded, None)))
    assert shown["status"] == "waiting" and shown["seats"][1]["kind"] == "open"
