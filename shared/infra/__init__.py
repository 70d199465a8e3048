"""Infrastructure: configuration from the environment (``config``), the Redis client
(``redis_client``) and its pub/sub hub (``notifier``), the Celery queue names and sends
(``queue``), rate limits (``rate_limit``), counters (``stats``), secrets kept as hashes
(``secrets``), retrying store errors (``store_retry``) and the compiled build (``accel``).
"""
