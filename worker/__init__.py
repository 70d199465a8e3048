"""The Celery worker: bot turns and the sweep that re-enqueues forgotten ones."""
