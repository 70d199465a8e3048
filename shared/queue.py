"""Enqueueing bot turns by task name, so the API never imports worker code."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from celery import Celery

BOT_TURN_TASK = "evo.play_bot_turn"
SWEEP_TASK = "evo.sweep_bot_turns"
BOT_QUEUE = "bots"


def celery_config(broker_url: str) -> dict[str, object]:
    """Celery settings shared by the API's sender and the worker."""
    return {
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


@lru_cache(maxsize=4)
def _sender(broker_url: str) -> Celery:
    app = Celery("evo-sender")
    app.conf.update(celery_config(broker_url))
    return app


def make_enqueue(broker_url: str) -> Callable[[str, int, int], None]:
    """An ``enqueue(match_id, seat, version)`` that sends a bot-turn task by name."""

    def enqueue(match_id: str, seat: int, version: int) -> None:
        _sender(broker_url).send_task(BOT_TURN_TASK, args=[match_id, seat, version],
                                      queue=BOT_QUEUE)

    return enqueue


def broker_reachable(broker_url: str) -> bool:
    try:
        with _sender(broker_url).connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
        return True
    except Exception:  # any transport error means "not ready"
        return False
