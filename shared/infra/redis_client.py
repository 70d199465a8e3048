"""The one place that connects to the match store: a single Redis or a Redis Cluster.

``REDIS_CLUSTER_NODES`` (comma-separated ``host:port`` seed nodes; any few of the cluster's
nodes will do, the client learns the rest) chooses Redis Cluster; otherwise ``REDIS_URL``
names a single Redis. Both clients speak the same commands, so the stores take either: every
multi-key command or script touches the keys of one hash tag (``evo:m:{id}`` and its
suffixes; see ``shared.matches.store.match_key``), which a cluster keeps in one slot.
"""

from __future__ import annotations

from typing import TypeAlias

import redis
from redis.backoff import ExponentialBackoff
from redis.cluster import ClusterNode, RedisCluster
from redis.retry import Retry

RedisClient: TypeAlias = redis.Redis | RedisCluster

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


def connect(url: str, cluster_nodes: str = "", max_connections: int = 5000) -> RedisClient:
    """A client of the match store: the cluster named by ``cluster_nodes`` if set, else the
    single Redis at ``url``. Replies are decoded to ``str``."""
    if cluster_nodes:
        return RedisCluster(startup_nodes=parse_nodes(cluster_nodes), decode_responses=True,
                            max_connections=max_connections,
                            retry=Retry(ExponentialBackoff(cap=1.0, base=0.05),
                                        CLUSTER_RETRIES))
    # Each long-poll or event stream holds a subscribed connection while it waits, so the
    # pool must outgrow redis-py's default of 100 (Redis itself allows 10,000 clients).
    return redis.Redis.from_url(url, decode_responses=True, health_check_interval=30,
                                max_connections=max_connections)


def is_cluster(client: RedisClient) -> bool:
    return isinstance(client, RedisCluster)


def node_client(client: RedisClient, key: str) -> redis.Redis:
    """The plain client of the node that holds ``key`` (the client itself on a single
    Redis): commands that must share a connection with a write (``WAIT``) go through it."""
    if isinstance(client, RedisCluster):
        return client.get_redis_connection(client.get_node_from_key(key))
    return client
