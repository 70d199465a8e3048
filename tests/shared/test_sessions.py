"""People's sessions on either store (one Redis, or a Redis Cluster): a family's rotation is
a script on its one key; the tokens act through the key lookup."""

from __future__ import annotations

import pytest

from shared.accounts.sessions import SessionService
from shared.accounts.store import AccountStore
from shared.domain.errors import Unauthorized
from shared.infra.redis_client import RedisClient
from shared.infra.secrets import hash_secret


def test_sign_in_refresh_and_reuse_on_either_store(store_client: RedisClient) -> None:
    accounts = AccountStore(store_client, retention=3600)
    sessions = SessionService(accounts, access_seconds=60)
    account, first = sessions.sign_up("Ada Cluster", "correct horse battery")
    assert accounts.by_key_hash(hash_secret(first["access_token"])) == account["id"]
    second = sessions.refresh(first["refresh_token"])
    assert accounts.by_key_hash(hash_secret(second["access_token"])) == account["id"]
    with pytest.raises(Unauthorized, match="used already"):
        sessions.refresh(first["refresh_token"])
    for tokens in (first, second):
        assert accounts.by_key_hash(hash_secret(tokens["access_token"])) is None
    _, again = sessions.sign_in("ada cluster", "correct horse battery")
    assert sessions.sign_out_everywhere(account["id"]) == 1
    assert accounts.by_key_hash(hash_secret(again["access_token"])) is None
