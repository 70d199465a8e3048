"""Enqueueing worker tasks by name, so the API never imports worker code.

Two queues: ``bots`` for the turns of people's matches (and the periodic sweeps), and
``tournament`` for tournament matches' turns and their scheduler, so a person's game never
waits behind a tournament's searches (``make run`` starts a worker for each).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from celery import Celery

from shared.bots.catalogue import HINT_QUEUED

BOT_TURN_TASK = "evo.play_bot_turn"
SWEEP_TASK = "evo.sweep_bot_turns"
HINT_TASK = "evo.hint"
BOT_QUEUE = "bots"
TOURNAMENT_QUEUE = "tournament"
MATCH_FINISHED_TASK = "evo.match_finished"
TOURNAMENT_TICK_TASK = "evo.tick_tournament"
TOURNAMENT_SWEEP_TASK = "evo.sweep_tournaments"
DEADLINE_SWEEP_TASK = "evo.sweep_deadlines"
ANALYSIS_TASK = "evo.analyse_match"
NOTIFY_TASK = "evo.deliver_notification"
NOTIFY_SWEEP_TASK = "evo.sweep_notifications"
POOL_SWEEP_TASK = "evo.sweep_pools"
AMQP_SCHEMES = ("amqp://", "amqps://", "pyamqp://")


def celery_config(broker_url: str) -> dict[str, object]:
    """Celery settings shared by the API's sender and the worker."""
    config: dict[str, object] = {
        "broker_url": broker_url,
        "task_ignore_result": True,
        "task_default_queue": BOT_QUEUE,
        # A bot task may be delivered again if its worker dies (late ack); tasks re-check the
        # match version, so a repeat is harmless. The sweep covers a lost one.
        "task_acks_late": True,
        "task_reject_on_worker_lost": True,
        "worker_prefetch_multiplier": 1,
        "broker_connection_retry_on_startup": True,
        "broker_transport_options": {"visibility_timeout": 300},
        "task_serializer": "json",
        "accept_content": ["json"],
    }
    if broker_url.startswith(AMQP_SCHEMES):
        # RabbitMQ: quorum queues, which the nodes of a RabbitMQ cluster replicate (Raft), so
        # a queued bot turn outlives the loss of a node; a send returns once the broker has
        # confirmed the message (for a quorum queue: once a majority of its nodes hold it).
        config.update(task_default_queue_type="quorum",
                      task_create_missing_queue_type="quorum",
                      broker_transport_options={"confirm_publish": True})
    return config


@lru_cache(maxsize=4)
def _sender(broker_url: str) -> Celery:
    app = Celery("evo-sender")
    app.conf.update(celery_config(broker_url))
    return app


def make_enqueue(broker_url: str, queue: str = BOT_QUEUE) -> Callable[[str, int, int], None]:
    """An ``enqueue(match_id, seat, version)`` that sends a bot-turn task by name."""

    def enqueue(match_id: str, seat: int, version: int) -> None:
        _sender(broker_url).send_task(BOT_TURN_TASK, args=[match_id, seat, version],
                                      queue=queue)

    return enqueue


def make_sender(broker_url: str, task: str) -> Callable[[str], None]:
    """A ``send(id)`` for a tournament-queue task taking one id (a match or a tournament)."""

    def send(ident: str) -> None:
        _sender(broker_url).send_task(task, args=[ident], queue=TOURNAMENT_QUEUE)

    return send


def make_notify_sender(broker_url: str) -> Callable[[str, str, int, float], None]:
    """A ``send(account_id, delivery_id, attempt, countdown)`` for a notification's webhook
    delivery (``shared.notifications``), on the queue of people's matches."""

    def send(account_id: str, delivery_id: str, attempt: int, countdown: float) -> None:
        _sender(broker_url).send_task(NOTIFY_TASK, args=[account_id, delivery_id, attempt],
                                      queue=BOT_QUEUE, countdown=countdown or None)

    return send


def broker_reachable(broker_url: str, timeout: int = 2) -> bool:
    try:
        with _sender(broker_url).connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=timeout)
        return True
    except Exception:  # any transport error means "not ready"
        return False


def send_hint(broker_url: str, match_id: str, seat: int, version: int) -> None:
    """Ask a worker, by task name, for ``seat``'s suggested move at ``version``; the answer
    comes back through the match store (``shared.bots.hints``). Unstarted after ``HINT_QUEUED``
    seconds, the task expires: the question's mark has run out by the time anyone asks again."""
    _sender(broker_url).send_task(HINT_TASK, args=[match_id, seat, version], queue=BOT_QUEUE,
                                  expires=HINT_QUEUED)


def send_analysis(broker_url: str, match_id: str, seat: int) -> None:
    """Ask a worker, by task name, for the analysis of ``seat``'s decisions in a finished
    match (``shared.replays``): on the tournament queue, behind nobody's table."""
    _sender(broker_url).send_task(ANALYSIS_TASK, args=[match_id, seat], queue=TOURNAMENT_QUEUE)
