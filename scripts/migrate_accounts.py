"""Move the bot accounts registered before named keys to named keys, all at once.

An account registered before named keys has its one key in the index ``evo:akeys``; it moves
by itself on its key's first use (the key becomes its ``default`` key, its name is indexed
and its expiry, ``ACCOUNT_RETENTION_DAYS``, starts). This moves the others too, so that an
account never used again expires like the rest. Safe to run twice, and while the API runs.

Run: ``.venv/bin/python -m scripts.migrate_accounts`` with the API's environment
(``REDIS_URL`` or ``REDIS_CLUSTER_NODES``, ``ACCOUNT_RETENTION_DAYS``).
"""

from __future__ import annotations

import sys

from shared import services
from shared.infra.config import Settings


def main() -> int:
    moved = services.build(Settings.from_env()).accounts.migrate_legacy()
    print(f"{moved} account key(s) moved to named keys")
    return 0


if __name__ == "__main__":
    sys.exit(main())
