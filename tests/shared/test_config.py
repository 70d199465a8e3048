"""Settings of a scaled-out deployment: the cluster needs a broker of its own, and the broker
may be a Redis or RabbitMQ; the defaults of a few others."""

from __future__ import annotations

import pytest
import redis

from shared.infra.config import Settings
from shared.infra.redis_client import connect, parse_nodes


def test_a_cluster_store_needs_a_broker_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REDIS_CLUSTER_NODES", "10.0.0.1:7000,10.0.0.2")
    monkeypatch.delenv("BROKER_URL", raising=False)
    with pytest.raises(ValueError, match="BROKER_URL"):
        Settings.from_env()
    monkeypatch.setenv("BROKER_URL", "amqp://guest@rabbit//")
    monkeypatch.setenv("REDIS_REPLICA_ACKS", "1")
    settings = Settings.from_env()
    assert settings.redis_cluster_nodes == "10.0.0.1:7000,10.0.0.2"
    assert settings.redis_replica_acks == 1 and settings.broker_url == "amqp://guest@rabbit//"
    assert [(n.host, n.port) for n in parse_nodes(settings.redis_cluster_nodes)] == [
        ("10.0.0.1", 7000), ("10.0.0.2", 6379)]


def test_the_typed_client_is_redis_pys_own_decoding_client() -> None:
    """``RedisClient`` types replies as ``str``: true only of a decoding client; and it is a
    cast, not a proxy, so a command costs what redis-py's own does (no connection is made)."""
    client = connect("redis://127.0.0.1:1/0")
    assert type(client) is redis.Redis
    assert client.get_encoder().decode_responses


def test_a_hint_waits_eight_seconds_for_its_answer_unless_set(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REDIS_CLUSTER_NODES", raising=False)
    monkeypatch.delenv("HINT_WAIT_SECONDS", raising=False)
    assert Settings.from_env().hint_wait_seconds == 8.0
    monkeypatch.setenv("HINT_WAIT_SECONDS", "2.5")
    assert Settings.from_env().hint_wait_seconds == 2.5


def test_the_turn_budget_is_five_seconds_unless_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REDIS_CLUSTER_NODES", raising=False)
    monkeypatch.delenv("TURN_BUDGET_SECONDS", raising=False)
    assert Settings.from_env().turn_budget_seconds == 5.0
    monkeypatch.setenv("TURN_BUDGET_SECONDS", "0")  # off: every decision its level's cap
    assert Settings.from_env().turn_budget_seconds == 0.0
