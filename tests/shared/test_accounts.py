"""Bot accounts against a real Redis: hashed keys, webhook targets, the turns an account owes
and its key playing its seats."""

from __future__ import annotations

import ipaddress
import json

import pytest

from shared.accounts.service import AccountService, check_webhook_url, parse_networks
from shared.domain.errors import Forbidden, Unauthorized, Unprocessable
from shared.infra.redis_client import RedisClient
from shared.infra.secrets import hash_secret
from shared.matches.service import MatchService
from shared.matches.store import MatchStore, match_key
from shared.services import match_service
from tests.shared.test_service import Recorder


@pytest.fixture
def services(store_client: RedisClient) -> tuple[MatchService, AccountService]:
    matches = match_service(MatchStore(store_client), Recorder())
    return matches, AccountService(matches.accounts, matches,
                                   parse_networks("127.0.0.0/8"))


@pytest.mark.parametrize("url", ["http://127.0.0.1:9/x", "http://10.1.2.3/", "http://[::1]/",
                                 "http://169.254.169.254/latest", "http://192.168.0.1/",
                                 "ftp://example.com/", "http:///nohost", "http://0.0.0.0/"])
def test_webhooks_to_non_public_addresses_are_refused_by_default(url: str) -> None:
    with pytest.raises(ValueError):
        check_webhook_url(url, [])


def test_the_allow_list_admits_a_network_and_public_addresses_pass() -> None:
    check_webhook_url("http://127.0.0.1:8080/bot", parse_networks("127.0.0.0/8"))
    check_webhook_url("https://93.184.215.14/bot", [])
    with pytest.raises(ValueError):
        check_webhook_url("http://10.0.0.1/", parse_networks("127.0.0.0/8"))
    assert parse_networks(" 10.0.0.0/8, ::1/128 ") == [ipaddress.ip_network("10.0.0.0/8"),
                                                       ipaddress.ip_network("::1/128")]


def test_keys_are_stored_hashed_and_authenticate(
        services: tuple[MatchService, AccountService], store_client: RedisClient) -> None:
    _, accounts = services
    account, key = accounts.create("Bender", "http://127.0.0.1:9/hook")
    dump = json.dumps({k: store_client.hgetall(k) if store_client.type(k) == "hash"
                       else store_client.get(k) for k in store_client.scan_iter("evo:a*")})
    assert key not in dump and hash_secret(key) in dump
    assert accounts.authenticate(key) == account
    with pytest.raises(Unauthorized):
        accounts.authenticate("evk_wrong")
    with pytest.raises(Unauthorized):
        accounts.authenticate(None)
    with pytest.raises(Unprocessable, match="non-public"):
        accounts.create("Sneaky", "http://10.0.0.1/")


def test_an_account_key_plays_its_seats_and_lists_its_owed_turns(
        services: tuple[MatchService, AccountService]) -> None:
    matches, accounts = services
    puller, key = accounts.create("Puller", None)
    other, other_key = accounts.create("Other", None)
    record, tokens = matches.create_match("savanna", {}, 5, [
        {"kind": "account", "account": puller["id"]}, {"kind": "human"}], move_deadline=30,
        accepted=[puller["id"]])
    assert tokens.keys() == {1} and record.seats[0]["name"] == "Puller"
    assert record.owed_since.keys() == {0, 1}  # a pull bot's seat is clocked
    turns = accounts.wait_for_turns(puller["id"], 0)
    # Each turn carries what a bot needs to answer it: the seat's view and legal moves.
    assert turns == [{"match": record.id, "seat": 0, "version": record.version,
                      "game": "savanna", "deadline_at": record.deadline_at(),
                      "view": matches.describe(record, 0)["view"],
                      "moves": matches.legal_moves(record, 0)}]
    assert turns[0]["moves"] and turns[0]["view"]["game"] == "savanna"
    assert accounts.owed_turns(other["id"]) == []
    assert matches.authenticate(record.id, key, required=True) == 0
    with pytest.raises(Forbidden):
        matches.authenticate(record.id, other_key, required=True)
    move = matches.legal_moves(record, 0)[0]
    matches.submit_move(record.id, 0, record.version, move["move"])
    assert accounts.owed_turns(puller["id"]) == []
    with pytest.raises(Unprocessable, match="no account"):
        matches.create_match("savanna", {}, 5, [{"kind": "account", "account": "nope"},
                                                {"kind": "human"}])
    with pytest.raises(Unprocessable, match="rated"):
        matches.create_match("savanna", {}, 5, [{"kind": "account", "account": other["id"]},
                                                {"kind": "human"}], rated=True)


def test_a_match_under_retired_rules_lists_no_turn_until_its_rules_are_played_again(
        services: tuple[MatchService, AccountService], store_client: RedisClient) -> None:
    """Every route of a match stored under retired rules is a 410, so its turn is not offered;
    the match stays noted, so a server that only lagged an upgrade lists it again."""
    from tests.worker.test_retired_rules import store_as_savanna_1

    matches, accounts = services
    puller, _ = accounts.create("Puller", None)
    old, _ = matches.create_match("savanna", {}, 5, [
        {"kind": "account", "account": puller["id"]}, {"kind": "human"}],
        accepted=[puller["id"]])
    playable, _ = matches.create_match("savanna", {}, 6, [
        {"kind": "account", "account": puller["id"]}, {"kind": "human"}],
        accepted=[puller["id"]])
    assert {t["match"] for t in accounts.owed_turns(puller["id"])} == {old.id, playable.id}
    stored = store_client.hgetall(match_key(old.id))
    store_as_savanna_1(store_client, old.id)
    assert [t["match"] for t in accounts.owed_turns(puller["id"])] == [playable.id]
    assert [t["match"] for t in accounts.wait_for_turns(puller["id"], 0)] == [playable.id]
    assert accounts.store.matches(puller["id"]) == sorted([old.id, playable.id])

    store_client.hset(match_key(old.id), mapping=stored)  # this server plays its rules again
    assert {t["match"] for t in accounts.owed_turns(puller["id"])} == {old.id, playable.id}


def test_a_keys_account_is_read_every_time_in_one_round_trip(
        services: tuple[MatchService, AccountService]) -> None:
    """A key's account is never remembered by the process (a revoked key must be refused at
    once, by every process): one round trip each time; an unknown key two (the index of
    keys from before named keys is asked too)."""
    from bench.round_trips import RoundTrips

    _, accounts = services
    account, key = accounts.create("Remembered", None)
    for _ in range(2):
        with RoundTrips() as trips:
            assert accounts.account_id(key) == account["id"]
        assert trips.count == 1
    for _ in range(2):
        with RoundTrips() as unknown, pytest.raises(Unauthorized):
            accounts.account_id("evk_not-yet")
        assert unknown.count == 2


def test_an_owed_turn_under_a_time_control_names_its_clocks_deadline(
        services: tuple[MatchService, AccountService]) -> None:
    matches, accounts = services
    puller, _ = accounts.create("Clocked", None)
    record, _ = matches.create_match("savanna", {}, 5, [
        {"kind": "account", "account": puller["id"]}, {"kind": "human"}],
        accepted=[puller["id"]], time_control={"kind": "turn_based", "per_move": 7200})
    turns = accounts.wait_for_turns(puller["id"], 0)
    assert turns[0]["deadline_at"] == pytest.approx(record.owed_since[0] + 7200)
