"""The accounts store's lifecycle against a real Redis (single and Cluster): a revoked key is
refused by every store object at once (no per-process memory of keys), idle accounts expire
and a use renews them, accounts from before named keys move over on their key's first use,
and names fold as documented."""

from __future__ import annotations

import json
import time

import pytest

from bench.round_trips import RoundTrips
from shared.accounts import store as account_store
from shared.accounts.names import check_name, folded
from shared.accounts.service import AccountService
from shared.accounts.store import AccountStore
from shared.domain.errors import Conflict, NotFound, Unprocessable
from shared.infra.redis_client import RedisClient, is_cluster
from shared.infra.secrets import hash_secret
from shared.matches.service import MatchService
from shared.matches.store import MatchStore
from tests.shared.test_service import Recorder


def service(client: RedisClient, retention: int = 0) -> AccountService:
    accounts = AccountStore(client, retention)
    return AccountService(accounts, MatchService(MatchStore(client), Recorder(),
                                                accounts=accounts))


def account_keys(client: RedisClient, accounts: AccountService, account_id: str) -> list[str]:
    """Every key of the account's that exists: its data, keys, key entries, name, matches."""
    store = accounts.store
    data = client.hget(store._key(account_id), "data")
    assert data is not None
    hashes = [json.loads(v)["hash"] for v in client.hgetall(store._key(account_id, ":keys"))
              .values()]
    names = [store._key(account_id), store._key(account_id, ":keys"),
             store._name_key(json.loads(data)["name"]), *map(store._key_entry, hashes),
             store._key(account_id, ":matches"), store._key(account_id, ":gen")]
    return [name for name in names if client.exists(name)]


def test_a_revoked_key_is_refused_by_every_store_at_once(store_client: RedisClient) -> None:
    first, second = service(store_client), service(store_client)  # two API processes
    account, key = first.create("Rotor", None)
    assert second.account_id(key) == account["id"]  # the second has used the key
    _, spare = first.add_key(account, "spare")
    first.revoke_key(account["id"], "default")
    for accounts in (first, second):
        assert accounts.store.by_key_hash(hash_secret(key)) is None
        assert accounts.store.by_key_hash(hash_secret(spare)) == account["id"]


def test_an_idle_account_expires_whole(store_client: RedisClient) -> None:
    accounts = service(store_client, retention=1)
    account, key = accounts.create("Sleeper", None)
    mine = account_keys(store_client, accounts, account["id"])
    assert len(mine) >= 4  # data, keys, the key's entry, the name
    assert all(0 < store_client.ttl(k) <= 1 for k in mine), {k: store_client.ttl(k)
                                                               for k in mine}
    time.sleep(1.6)
    assert accounts.store.by_key_hash(hash_secret(key)) is None
    assert accounts.store.load(account["id"]) is None
    accounts.create("sleeper", None)  # the name is free again


def test_using_a_key_renews_the_account_its_name_and_that_key(
        store_client: RedisClient, monkeypatch: pytest.MonkeyPatch) -> None:
    accounts = service(store_client, retention=100)
    account, key = accounts.create("Waker", None)
    _, idle_key = accounts.add_key(account, "idle")
    accounts.store.add_match(account["id"], "m1")
    mine = account_keys(store_client, accounts, account["id"])
    idle = accounts.store._key_entry(hash_secret(idle_key))
    assert len(mine) == 7 and idle in mine  # data, keys, two key entries, name, matches, gen
    for name in mine:
        store_client.expire(name, 5)
    with RoundTrips() as within:
        accounts.account_id(key)  # within the minute: no write, the expiry stays
    assert within.count == 1 and all(store_client.ttl(k) <= 5 for k in mine)
    monkeypatch.setattr(account_store, "USED_EVERY", 0.0)
    with RoundTrips() as noted:
        accounts.account_id(key)
    assert noted.count == 2 or is_cluster(store_client)  # the read, then one pipeline
    assert all(store_client.ttl(k) > 90 for k in mine if k != idle), {
        k: store_client.ttl(k) for k in mine}
    assert store_client.ttl(idle) <= 5  # a key unused for the retention expires alone
    store_client.delete(idle)
    assert [k["name"] for k in accounts.keys(account["id"])] == ["default"]
    with pytest.raises(Conflict, match="last key"):
        accounts.revoke_key(account["id"], "default")


def test_a_renamed_accounts_new_name_is_renewed_by_a_use(
        store_client: RedisClient, monkeypatch: pytest.MonkeyPatch) -> None:
    accounts = service(store_client, retention=100)
    account, key = accounts.create("Before", None)
    accounts.update(account, name="After")
    new_name = accounts.store._name_key("After")
    assert store_client.get(new_name) == account["id"]
    assert not store_client.exists(accounts.store._name_key("Before"))
    store_client.expire(new_name, 5)
    monkeypatch.setattr(account_store, "USED_EVERY", 0.0)
    accounts.account_id(key)
    assert store_client.ttl(new_name) > 90


def test_a_change_never_writes_back_a_deleted_account(store_client: RedisClient) -> None:
    accounts = service(store_client, retention=100)
    account, _ = accounts.create("Ghost", None)
    accounts.delete(account)
    with pytest.raises(NotFound):
        accounts.update(account, name="Poltergeist")
    assert accounts.store.load(account["id"]) is None
    assert not store_client.exists(accounts.store._key(account["id"]))
    accounts.create("Poltergeist", None)  # the name it claimed was let go


def test_a_seat_renews_an_account_that_never_sends_its_key(store_client: RedisClient) -> None:
    accounts = service(store_client, retention=100)
    account, _ = accounts.create("Pusher", None)
    mine = account_keys(store_client, accounts, account["id"])
    for name in mine:
        store_client.expire(name, 5)
    accounts.store.add_match(account["id"], "m2")
    assert all(store_client.ttl(k) > 90 for k in mine)


def test_an_account_from_before_named_keys_moves_on_first_use(
        store_client: RedisClient) -> None:
    accounts = service(store_client, retention=100)
    key, key_hash = "evk_old", hash_secret("evk_old")
    old = {"id": "0123456789abcdef", "name": "Veteran", "webhook": None, "created_at": 5.0}
    store_client.hset("evo:a:0123456789abcdef", mapping={"data": json.dumps(old),
                                                         "key_hash": key_hash})
    store_client.hset("evo:akeys", key_hash, old["id"])
    assert accounts.account_id(key) == old["id"]
    assert store_client.hget("evo:akeys", key_hash) is None
    assert [k["name"] for k in accounts.keys(old["id"])] == ["default"]
    assert accounts.account_id(key) == old["id"]  # now from its named key
    with pytest.raises(Conflict, match="taken"):
        accounts.create("VETERAN", None)
    assert store_client.ttl("evo:a:0123456789abcdef") > 90


def test_the_migration_moves_every_account_from_before_named_keys(
        store_client: RedisClient) -> None:
    accounts = service(store_client, retention=100)
    for index in range(3):
        old = {"id": f"{index:016x}", "name": f"Old {index}", "webhook": None,
               "created_at": 5.0}
        store_client.hset(f"evo:a:{old['id']}", mapping={"data": json.dumps(old),
                                                         "key_hash": hash_secret(f"k{index}")})
        store_client.hset("evo:akeys", hash_secret(f"k{index}"), old["id"])
    store_client.hset("evo:akeys", hash_secret("orphan"), "no-such-account")
    assert accounts.migrate_legacy() == 3
    assert store_client.hgetall("evo:akeys") == {hash_secret("orphan"): "no-such-account"}
    for index in range(3):
        assert accounts.account_id(f"k{index}") == f"{index:016x}"
        assert 0 < store_client.ttl(f"evo:a:{index:016x}") <= 100
    assert accounts.migrate_legacy() == 0


def test_names_fold_and_refuse_invisible_characters() -> None:
    assert folded("Straße") == folded("STRASSE") == folded("strasse")
    assert folded("\uff22ender") == folded("bender")  # full-width B
    assert folded("\u212b") == folded("\u00e5")  # the angstrom sign is the letter
    for bad in ("a\u202eb", "a\u200db", "a\u0000", "a\ufeff", " a", "a\u3000", ""):
        with pytest.raises(Unprocessable):
            check_name(bad)
    assert check_name("Ünïcödé bot 2") == "Ünïcödé bot 2"
