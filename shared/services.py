"""Building the services from the settings, the same way in the API and the worker.

The composition root: the only place that hands one Redis client to the stores and helpers
that share it, so routes and tasks reach Redis only through what is built here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from shared.accounts.invitations import InvitationService
from shared.accounts.service import AccountService, parse_networks
from shared.accounts.sessions import SessionService
from shared.accounts.store import AccountStore
from shared.bots.signing import new_secret
from shared.infra.config import Settings
from shared.infra.monitoring import PROBE_TIMEOUT, Monitoring
from shared.infra.queue import (
    MATCH_FINISHED_TASK,
    TOURNAMENT_QUEUE,
    TOURNAMENT_TICK_TASK,
    make_enqueue,
    make_notify_sender,
    make_sender,
    send_analysis,
)
from shared.infra.rate_limit import RateLimiter
from shared.infra.redis_client import RedisClient, connect
from shared.infra.stats import WorkerStats
from shared.kernel.budget import SearchBudget
from shared.matches.bot_cap import BotWorkCap
from shared.matches.service import Enqueue, MatchService
from shared.matches.store import MatchStore
from shared.notifications.delivery import DeliveryPolicy
from shared.notifications.service import NotificationService
from shared.notifications.store import NotificationStore
from shared.pools.service import PoolService, PoolSettings
from shared.pools.store import PoolStore
from shared.ratings.store import RatingStore
from shared.replays.service import ReplayService
from shared.replays.store import AnalysisStore
from shared.tournaments.limits import TournamentLimits
from shared.tournaments.service import TournamentService
from shared.tournaments.store import TournamentStore


@dataclass(frozen=True)
class Services:
    matches: MatchService
    accounts: AccountService
    invitations: InvitationService  # an account's invitations to matches and tournaments
    tournaments: TournamentService
    monitoring: Monitoring  # readiness, queue lengths, the worker's counters
    limiter: RateLimiter  # the API's per-address and per-token limits
    bot_cap: BotWorkCap  # the bot seats one address may have in live matches
    replays: ReplayService  # replays and analyses of finished matches
    notifications: NotificationService  # an account's notifications (stream and webhook)
    pools: PoolService  # quick play


def match_service(store: MatchStore, enqueue: Enqueue, **options: Any) -> MatchService:
    """A match service on ``store`` with the accounts' store of the same Redis beside it
    (for tests and benches that build a match service alone; :func:`build` wires the real
    one from the settings)."""
    return MatchService(store, enqueue, accounts=AccountStore(store.redis), **options)


def build(settings: Settings) -> Services:
    store = MatchStore.from_url(settings.redis_url, settings.ended_ttl,
                                result_ttl=settings.result_ttl, log_ttl=settings.log_ttl,
                                cluster_nodes=settings.redis_cluster_nodes,
                                replica_acks=settings.redis_replica_acks)
    client = store.redis  # one pool for every key space on the store's Redis
    stats = WorkerStats(client)
    account_store = AccountStore(client, round(settings.account_retention_days * 86400),
                                 history=settings.result_ttl + 30 * 86400)
    matches = MatchService(store, make_enqueue(settings.broker_url), settings.idempotency_ttl,
                           background=make_enqueue(settings.broker_url, TOURNAMENT_QUEUE),
                           on_finish=make_sender(settings.broker_url, MATCH_FINISHED_TASK),
                           stats=stats, accounts=account_store,
                           invitation_ttl=settings.invitation_seconds,
                           human_idle_seconds=settings.human_idle_seconds or None)
    sessions = SessionService(account_store, settings.person_access_seconds,
                              settings.person_refresh_days * 86400)
    accounts = AccountService(account_store, matches, parse_networks(settings.webhook_allow),
                              sessions)
    notifications = _notifications(settings, client, accounts)
    limits = TournamentLimits(settings.tournaments_per_client, settings.max_tournament_search,
                              settings.max_tournament_simulations)
    tournaments = TournamentService(matches, TournamentStore(client, settings.tournament_ttl),
                                    RatingStore(client),
                                    settings.max_tournament_matches,
                                    settings.max_tournament_entrants,
                                    settings.max_tournament_concurrency,
                                    start=make_sender(settings.broker_url, TOURNAMENT_TICK_TASK),
                                    limits=limits,
                                    invite=_inviting(account_store, notifications),
                                    invitation_ttl=settings.invitation_seconds)
    accounts.forgetters.append(tournaments.forget_account)  # a deleted account's ratings
    accounts.holders.append(tournaments.running_with_account)
    invitations = InvitationService(account_store, matches, tournaments, accounts)
    broker_is_store = (settings.broker_url == settings.redis_url
                       and not settings.redis_cluster_nodes)
    monitoring = Monitoring(client, stats, settings.broker_url, broker_is_store,
                            probe=lambda: connect(settings.redis_url,
                                                  settings.redis_cluster_nodes,
                                                  max_connections=50, timeout=PROBE_TIMEOUT))
    replays = ReplayService(
        matches, AnalysisStore(client, settings.log_ttl),
        lambda match_id, seat: send_analysis(settings.broker_url, match_id, seat),
        SearchBudget(settings.analysis_simulations, settings.analysis_seconds))
    pools = PoolService(PoolStore(client), matches, RatingStore(client).ratings, PoolSettings(
        settings.pool_window, settings.pool_widen_per_second, settings.pool_max_window,
        settings.pool_bot_fill_seconds, settings.pool_idle_seconds))
    pools.found.append(lambda account_id, match_id, game: notifications.notify(
        account_id, "match_found", {"match": match_id, "game": game}, key=f"found:{match_id}"))
    return Services(matches, accounts, invitations, tournaments, monitoring, RateLimiter(client),
                    BotWorkCap(store), replays, notifications, pools)


def _inviting(store: AccountStore, notifications: NotificationService
              ) -> Callable[[str, dict[str, Any]], None]:
    """A tournament's invitation: noted for the account, and a ``challenge`` notification."""

    def invite(account_id: str, invitation: dict[str, Any]) -> None:
        store.add_invitation(account_id, invitation)
        notifications.challenge(account_id, invitation)

    return invite


def _notifications(settings: Settings, client: RedisClient, accounts: AccountService
                   ) -> NotificationService:
    """The notifications, told by the match service of its commits and invitations, and by
    the accounts service of a deletion; account streams wait for them too."""
    policy = DeliveryPolicy(parse_networks(settings.webhook_allow),
                            settings.notify_timeout_seconds, settings.notify_retry_base_seconds,
                            settings.notify_retry_max_seconds, settings.notify_max_attempts)
    notifications = NotificationService(
        NotificationStore(client, settings.notify_keep,
                          round(settings.account_retention_days * 86400)),
        make_notify_sender(settings.broker_url),
        lambda account_id: accounts.matches.webhook_secret(account_id, new_secret()),
        policy, accounts.check_webhook)
    accounts.matches.committed.append(notifications.on_commit)
    accounts.matches.invited.append(notifications.challenge)
    accounts.forgetters.append(notifications.forget_account)
    accounts.news.append(notifications.news)
    return notifications
