"""Settings read from environment variables (one place, shared by the API and the worker)."""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    redis_url: str
    broker_url: str
    max_body_bytes: int
    bot_stale_after: float  # seconds a bot turn may wait before the sweep re-enqueues it
    bot_lease_seconds: float  # a bot task holds its turn for its think cap plus this
    idempotency_ttl: int  # seconds an Idempotency-Key's answer is kept
    max_wait_seconds: float  # longest long-poll / SSE wait a client may ask for
    webhook_allow: str = ""  # CIDRs a webhook may target although not public (comma list)
    max_tournament_matches: int = 5000  # the largest tournament one request may create
    max_tournament_entrants: int = 64
    max_tournament_concurrency: int = 32  # matches of one tournament running at once
    accounts_per_minute: int = 20  # per client address
    tournaments_per_minute: int = 10  # per client address
    waiting_expire_seconds: float = 3600  # a match waiting for open seats this long expires
    # Seconds an invited account has to accept a match or tournament naming it before the
    # match or tournament is aborted.
    invitation_seconds: float = 600
    webhook_default_timeout: float = 10  # seconds a webhook may take without a deadline
    webhook_max_answer_bytes: int = 64 * 1024  # a webhook's longer answer is not read on
    # Rate limits a minute (0: unlimited), per client address unless said otherwise.
    matches_per_minute: int = 120
    joins_per_minute: int = 120
    moves_per_minute: int = 600  # per token, and the same per address
    bot_seats_per_client: int = 8  # bot seats one address may have in live matches
    ended_ttl: int = 7 * 86400  # seconds an ended match (state, log, tokens) is kept
    result_ttl: int = 90 * 86400  # seconds its result is kept (at least ended_ttl)
    log_ttl: int = 30 * 86400  # seconds its compacted log is kept (at least ended_ttl)
    stalled_expire_seconds: float = 86400  # a running match with no move this long expires
    cors_origins: str = "*"  # origins whose pages may call the API (comma list; * for any)
    # Seed nodes of a Redis Cluster ("host:port,..."): set, the match store runs on the
    # cluster and ``redis_url`` is unused; the broker then needs a BROKER_URL of its own.
    redis_cluster_nodes: str = ""
    # Replicas a write must reach (WAIT) before it is answered: 1 with replicas, so that a
    # failover loses no accepted move; 0 answers at once (a single Redis without replicas).
    redis_replica_acks: int = 0
    # Proxies in front of the API that append to X-Forwarded-For (1 behind one load
    # balancer); 0 trusts no such header (a client could forge its address).
    proxy_hops: int = 0
    # Niceness a worker process lowers itself to (0: unchanged). The tournament worker runs
    # at 10 by default: on a machine it shares with people's bot workers, its searches then
    # yield the CPU and a person's bot keeps its reply time however long the tournament runs.
    worker_nice: int = 0
    # Seconds the bot decisions between two turns of a person (or program) share in a casual
    # match (shared.bots.turn_budget); 0 leaves every decision its level's own cap.
    turn_budget_seconds: float = 5.0
    # Seconds a finished rated or tournament match may owe its finish handling (rating,
    # tournament tick) before the tournament sweep does it instead of the task sent at its end.
    finish_retry_after: float = 5.0
    # Seconds a hint request waits for the worker's answer before a 202 (ask again).
    hint_wait_seconds: float = 8.0
    # Seconds a finished or cancelled tournament's keys are kept (0: for ever); a running
    # one never expires.
    tournament_ttl: int = 30 * 86400
    # Running tournaments one client address may have (0: no cap); beyond, 429.
    tournaments_per_client: int = 4
    # A tournament's search bounds (shared.tournaments.limits; 0: no bound): simulations its
    # concurrent matches may run at once, and one move of every seat of every planned match.
    max_tournament_search: int = 640_000
    max_tournament_simulations: int = 100_000_000
    # Days an account is kept after its last use (a request with one of its keys, a new seat);
    # 0 keeps accounts for ever.
    account_retention_days: float = 365.0
    # Seconds a person's seat of a casual match may owe a move before it is abandoned (the
    # fallback plays it from then on, or the match ends: shared.matches.resignation); 0: never.
    human_idle_seconds: float = 1800.0
    # A post-match analysis searches each of a seat's decisions with this many simulations,
    # each search capped at ANALYSIS_SECONDS (shared.replays).
    analysis_simulations: int = 300
    analysis_seconds: float = 1.0
    # Notification webhooks (shared.notifications): seconds before the first retry (doubled
    # after each failed attempt, up to the longest wait), attempts before giving up (the
    # defaults: 15 s, 30 s, ... 32 min, about an hour in all), seconds one attempt may take,
    # and notifications kept per account (its event stream's replay and its delivery log).
    notify_retry_base_seconds: float = 15.0
    notify_retry_max_seconds: float = 1920.0
    notify_max_attempts: int = 9
    notify_timeout_seconds: float = 10.0
    notify_keep: int = 1000
    # Quick-play pools (shared.pools): the rating window (OpenSkill mu) two people must be
    # within, its widening a second of waiting and its cap; the wait before a person who
    # chose it gets bots in the empty seats; a waiting ticket nobody polls this long is dropped.
    pool_window: float = 2.0
    pool_widen_per_second: float = 0.25
    pool_max_window: float = 12.5
    pool_bot_fill_seconds: float = 30.0
    pool_idle_seconds: float = 90.0
    # People's sessions (shared.accounts.sessions): an access token's seconds, a refresh
    # token's days; sign-in attempts a minute per name and per client address (0: no limit).
    person_access_seconds: float = 900.0
    person_refresh_days: float = 30.0
    signins_per_name_per_minute: int = 5
    signins_per_address_per_minute: int = 30

    @classmethod
    def from_env(cls) -> Settings:
        redis_url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
        cluster_nodes = os.environ.get("REDIS_CLUSTER_NODES", "").strip()
        if cluster_nodes and not os.environ.get("BROKER_URL"):
            # Celery's Redis transport speaks to one Redis, never a cluster.
            raise ValueError("REDIS_CLUSTER_NODES is set: set BROKER_URL to the broker's own "
                             "Redis (or RabbitMQ)")
        return cls(
            redis_url=redis_url,
            broker_url=os.environ.get("BROKER_URL", redis_url),
            redis_cluster_nodes=cluster_nodes,
            redis_replica_acks=int(os.environ.get("REDIS_REPLICA_ACKS", 0)),
            proxy_hops=int(os.environ.get("PROXY_HOPS", 0)),
            turn_budget_seconds=float(os.environ.get("TURN_BUDGET_SECONDS", 5.0)),
            finish_retry_after=float(os.environ.get("FINISH_RETRY_AFTER", 5.0)),
            max_body_bytes=int(os.environ.get("MAX_BODY_BYTES", 64 * 1024)),
            bot_stale_after=float(os.environ.get("BOT_STALE_AFTER", 5)),
            bot_lease_seconds=float(os.environ.get("BOT_LEASE_SECONDS", 15)),
            idempotency_ttl=int(os.environ.get("IDEMPOTENCY_TTL", 24 * 3600)),
            max_wait_seconds=float(os.environ.get("MAX_WAIT_SECONDS", 30)),
            webhook_allow=os.environ.get("WEBHOOK_ALLOW", ""),
            max_tournament_matches=int(os.environ.get("MAX_TOURNAMENT_MATCHES", 5000)),
            max_tournament_entrants=int(os.environ.get("MAX_TOURNAMENT_ENTRANTS", 64)),
            max_tournament_concurrency=int(os.environ.get("MAX_TOURNAMENT_CONCURRENCY", 32)),
            accounts_per_minute=int(os.environ.get("ACCOUNTS_PER_MINUTE", 20)),
            tournaments_per_minute=int(os.environ.get("TOURNAMENTS_PER_MINUTE", 10)),
            waiting_expire_seconds=float(os.environ.get("WAITING_EXPIRE_SECONDS", 3600)),
            invitation_seconds=float(os.environ.get("INVITATION_SECONDS", 600)),
            webhook_default_timeout=float(os.environ.get("WEBHOOK_DEFAULT_TIMEOUT", 10)),
            webhook_max_answer_bytes=int(os.environ.get("WEBHOOK_MAX_ANSWER_BYTES", 64 * 1024)),
            matches_per_minute=int(os.environ.get("MATCHES_PER_MINUTE", 120)),
            joins_per_minute=int(os.environ.get("JOINS_PER_MINUTE", 120)),
            moves_per_minute=int(os.environ.get("MOVES_PER_MINUTE", 600)),
            bot_seats_per_client=int(os.environ.get("BOT_SEATS_PER_CLIENT", 8)),
            ended_ttl=int(os.environ.get("ENDED_TTL", 7 * 86400)),
            result_ttl=int(os.environ.get("RESULT_TTL", 90 * 86400)),
            log_ttl=int(os.environ.get("LOG_TTL", 30 * 86400)),
            stalled_expire_seconds=float(os.environ.get("STALLED_EXPIRE_SECONDS", 86400)),
            cors_origins=os.environ.get("CORS_ORIGINS", "*"),
            worker_nice=int(os.environ.get("WORKER_NICE", 0)),
            hint_wait_seconds=float(os.environ.get("HINT_WAIT_SECONDS", 8.0)),
            tournament_ttl=int(os.environ.get("TOURNAMENT_TTL", 30 * 86400)),
            tournaments_per_client=int(os.environ.get("TOURNAMENTS_PER_CLIENT", 4)),
            max_tournament_search=int(os.environ.get("MAX_TOURNAMENT_SEARCH", 640_000)),
            max_tournament_simulations=int(os.environ.get("MAX_TOURNAMENT_SIMULATIONS",
                                                          100_000_000)),
            account_retention_days=float(os.environ.get("ACCOUNT_RETENTION_DAYS", 365.0)),
            human_idle_seconds=float(os.environ.get("HUMAN_IDLE_SECONDS", 1800.0)),
            analysis_simulations=int(os.environ.get("ANALYSIS_SIMULATIONS", 300)),
            analysis_seconds=float(os.environ.get("ANALYSIS_SECONDS", 1.0)),
            notify_retry_base_seconds=float(os.environ.get("NOTIFY_RETRY_BASE_SECONDS", 15.0)),
            notify_retry_max_seconds=float(os.environ.get("NOTIFY_RETRY_MAX_SECONDS", 1920.0)),
            notify_max_attempts=int(os.environ.get("NOTIFY_MAX_ATTEMPTS", 9)),
            notify_timeout_seconds=float(os.environ.get("NOTIFY_TIMEOUT_SECONDS", 10.0)),
            notify_keep=int(os.environ.get("NOTIFY_KEEP", 1000)),
            pool_window=float(os.environ.get("POOL_WINDOW", 2.0)),
            pool_widen_per_second=float(os.environ.get("POOL_WIDEN_PER_SECOND", 0.25)),
            pool_max_window=float(os.environ.get("POOL_MAX_WINDOW", 12.5)),
            pool_bot_fill_seconds=float(os.environ.get("POOL_BOT_FILL_SECONDS", 30.0)),
            pool_idle_seconds=float(os.environ.get("POOL_IDLE_SECONDS", 90.0)),
            person_access_seconds=float(os.environ.get("PERSON_ACCESS_SECONDS", 900.0)),
            person_refresh_days=float(os.environ.get("PERSON_REFRESH_DAYS", 30.0)),
            signins_per_name_per_minute=int(os.environ.get("SIGNINS_PER_NAME_PER_MINUTE", 5)),
            signins_per_address_per_minute=int(os.environ.get("SIGNINS_PER_ADDRESS_PER_MINUTE",
                                                              30)),
        )
