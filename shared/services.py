"""Building the services from the settings, the same way in the API and the worker."""

from __future__ import annotations

from dataclasses import dataclass

from shared.accounts.service import AccountService, parse_networks
from shared.infra.config import Settings
from shared.infra.queue import (
    MATCH_FINISHED_TASK,
    TOURNAMENT_QUEUE,
    TOURNAMENT_TICK_TASK,
    make_enqueue,
    make_sender,
)
from shared.matches.service import MatchService
from shared.matches.store import MatchStore
from shared.tournaments.service import TournamentService


@dataclass(frozen=True)
class Services:
    matches: MatchService
    accounts: AccountService
    tournaments: TournamentService


def build(settings: Settings) -> Services:
    store = MatchStore.from_url(settings.redis_url, settings.ended_ttl,
                                result_ttl=settings.result_ttl, log_ttl=settings.log_ttl,
                                cluster_nodes=settings.redis_cluster_nodes,
                                replica_acks=settings.redis_replica_acks)
    matches = MatchService(store, make_enqueue(settings.broker_url), settings.idempotency_ttl,
                           background=make_enqueue(settings.broker_url, TOURNAMENT_QUEUE),
                           on_finish=make_sender(settings.broker_url, MATCH_FINISHED_TASK))
    accounts = AccountService(matches.accounts, matches, parse_networks(settings.webhook_allow))
    tournaments = TournamentService(matches, settings.max_tournament_matches,
                                    settings.max_tournament_entrants,
                                    settings.max_tournament_concurrency,
                                    start=make_sender(settings.broker_url, TOURNAMENT_TICK_TASK))
    return Services(matches, accounts, tournaments)
