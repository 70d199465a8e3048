"""The store's failures by kind, for the layers that must not import a Redis client.

Routes turn them into 503/507 answers; tasks retry them. Each name is the redis-py class it
stands for, so ``except StoreError`` catches exactly what the client raises.
"""

from __future__ import annotations

from redis.exceptions import ConnectionError as StoreUnreachable
from redis.exceptions import OutOfMemoryError as StoreFull
from redis.exceptions import RedisError as StoreError
from redis.exceptions import TimeoutError as StoreTimeout

__all__ = ["StoreError", "StoreFull", "StoreTimeout", "StoreUnreachable"]
