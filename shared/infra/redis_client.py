"""The one place that connects to the match store: a single Redis or a Redis Cluster.

``REDIS_CLUSTER_NODES`` (comma-separated ``host:port`` seed nodes; any few of the cluster's
nodes will do, the client learns the rest) chooses Redis Cluster; otherwise ``REDIS_URL``
names a single Redis. Both clients speak the same commands, so the stores take either: every
multi-key command or script touches the keys of one hash tag (``evo:m:{id}`` and its
suffixes; see ``shared.matches.store.match_key``), which a cluster keeps in one slot.

``RedisClient`` is the one typed interface the stores see: the commands they use, typed as
they reply on a client made by ``connect`` (``decode_responses=True``: strings, never bytes;
synchronous, never awaitables). redis-py types each reply for any client it could be
(``bytes | str``, ``Awaitable``), so ``connect`` casts its client to this Protocol once; the
object is redis-py's own, so a command costs exactly what it did (no proxy, no extra call).
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, TypeAlias, cast

import redis
from redis.backoff import ExponentialBackoff, NoBackoff
from redis.client import PubSub
from redis.cluster import ClusterNode, RedisCluster
from redis.commands.core import Script
from redis.retry import Retry

#: What a value written to Redis may be (redis-py encodes numbers itself).
Value: TypeAlias = str | int | float


class Commands(Protocol):
    """The data commands the stores send, with the replies of a decoding synchronous client
    (a ``redis.Redis`` or ``RedisCluster`` made by ``connect``, or one of their pipelines)."""

    def get(self, name: str) -> str | None: ...
    def getdel(self, name: str) -> str | None: ...
    def mget(self, keys: Sequence[str]) -> list[str | None]: ...
    def set(self, name: str, value: Value, ex: int | None = None, px: int | None = None,
            nx: bool = False, xx: bool = False, keepttl: bool = False) -> bool | None: ...
    def delete(self, *names: str) -> int: ...
    def exists(self, *names: str) -> int: ...
    def pttl(self, name: str) -> int: ...
    def publish(self, channel: str, message: Value) -> int: ...
    def hget(self, name: str, key: str) -> str | None: ...
    def hgetall(self, name: str) -> dict[str, str]: ...
    def hmget(self, name: str, keys: Sequence[str]) -> list[str | None]: ...
    def hset(self, name: str, key: str | None = None, value: Value | None = None,
             mapping: Mapping[str, Value] | None = None) -> int: ...
    def hsetnx(self, name: str, key: str, value: Value) -> int: ...
    def hdel(self, name: str, *keys: str) -> int: ...
    def hincrby(self, name: str, key: str, amount: int = 1) -> int: ...
    def lrange(self, name: str, start: int, end: int) -> list[str]: ...
    def sadd(self, name: str, *values: Value) -> int: ...
    def srem(self, name: str, *values: Value) -> int: ...
    def smembers(self, name: str) -> builtins.set[str]: ...  # ``set`` is the command here
    def zadd(self, name: str, mapping: Mapping[str, float], nx: bool = False,
             xx: bool = False) -> int: ...
    def zrem(self, name: str, *values: str) -> int: ...
    def zcard(self, name: str) -> int: ...
    def zrangebyscore(self, name: str, min: float | str, max: float | str,
                      start: int | None = None, num: int | None = None) -> list[str]: ...
    def zrevrange(self, name: str, start: int, end: int) -> list[str]: ...
    def zrevrangebyscore(self, name: str, max: float | str, min: float | str,
                         start: int | None = None, num: int | None = None,
                         withscores: bool = False) -> list[Any]: ...
    def rpush(self, name: str, *values: Value) -> int: ...
    def ltrim(self, name: str, start: int, end: int) -> bool: ...
    def zremrangebyscore(self, name: str, min: float | str, max: float | str) -> int: ...
    def expire(self, name: str, time: int) -> bool: ...
    def ttl(self, name: str) -> int: ...
    def incr(self, name: str, amount: int = 1) -> int: ...
    def hincrbyfloat(self, name: str, key: str, amount: float = 1.0) -> float: ...


class RedisClient(Commands, Protocol):
    """A client of the store (``connect``): the data commands, pipelines, scripts, pub/sub."""

    def ping(self) -> bool: ...
    def pipeline(self, transaction: bool = True) -> Pipeline: ...
    def register_script(self, script: str) -> Script: ...
    def pubsub(self) -> PubSub: ...


class Pipeline(Commands, Protocol):
    """A pipeline of either client. After ``watch`` and before ``multi`` a command replies at
    once, as typed; otherwise it is queued, and its reply is in the list ``execute`` returns
    (typed ``Any`` there, as by redis-py: each position holds its own command's reply)."""

    def __enter__(self) -> Pipeline: ...
    def __exit__(self, *exc_info: object) -> None: ...
    def watch(self, *names: str) -> bool: ...
    def unwatch(self) -> bool: ...
    def multi(self) -> None: ...
    def execute(self) -> list[Any]: ...


# A failover takes the cluster's node timeout plus an election (a few seconds with the usual
# settings); a command that meets a dead master retries with backoff this many times,
# re-reading the cluster's layout each time, before the caller sees the error (503).
CLUSTER_RETRIES = 8


def parse_nodes(spec: str) -> list[ClusterNode]:
    """``"h1:7000,h2:7001"`` -> seed nodes (a bare host means port 6379)."""
    nodes = []
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        host, _, port = part.rpartition(":") if ":" in part else (part, "", "6379")
        nodes.append(ClusterNode(host, int(port)))
    if not nodes:
        raise ValueError(f"no cluster seed nodes in {spec!r}")
    return nodes


def connect(url: str, cluster_nodes: str = "", max_connections: int = 5000,
            timeout: float | None = None) -> RedisClient:
    """A client of the match store: the cluster named by ``cluster_nodes`` if set, else the
    single Redis at ``url``. Replies are decoded to ``str``. ``timeout``: seconds a connect
    or a reply may take, and no retries (a probe's client); None, the store's: no limit, as
    a long-poll's wait is long, and retries through a failover."""
    client: redis.Redis | RedisCluster
    bounded: dict[str, Any] = {} if timeout is None else {
        "socket_timeout": timeout, "socket_connect_timeout": timeout,
        "retry": Retry(NoBackoff(), 0)}  # redis-py retries 3 times by default
    if cluster_nodes:
        retry = Retry(ExponentialBackoff(cap=1.0, base=0.05), CLUSTER_RETRIES)
        client = RedisCluster(startup_nodes=parse_nodes(cluster_nodes), decode_responses=True,
                              max_connections=max_connections, **{"retry": retry, **bounded})
    else:
        # Each long-poll or event stream holds a subscribed connection while it waits, so the
        # pool must outgrow redis-py's default of 100 (Redis itself allows 10,000 clients).
        client = redis.Redis.from_url(url, decode_responses=True, health_check_interval=30,
                                      max_connections=max_connections, **bounded)
    # The one cast: redis-py's replies typed for this client's settings (module docstring).
    return cast(RedisClient, client)


def is_cluster(client: RedisClient) -> bool:
    return isinstance(client, RedisCluster)


def node_client(client: RedisClient, key: str) -> redis.Redis:
    """The plain client of the node that holds ``key`` (the client itself on a single
    Redis): commands that must share a connection with a write (``WAIT``) go through it."""
    if isinstance(client, RedisCluster):
        return client.get_redis_connection(client.get_node_from_key(key))
    return cast(redis.Redis, client)  # not a cluster: ``connect`` made a ``redis.Redis``


def refresh_layout(client: RedisClient) -> None:
    """Read the cluster's layout again (after a failover); nothing to do on a single Redis."""
    if isinstance(client, RedisCluster):
        client.nodes_manager.initialize()
