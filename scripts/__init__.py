"""Developer scripts: starting a local Redis and the whole stack (``make run``)."""
