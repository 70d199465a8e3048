"""Move matches and ratings stored before hash tags to their hash-tagged keys, all at once.

``python -m scripts.migrate_keys`` (with the same ``REDIS_URL`` as the API) renames every
``evo:m:<id>`` match and every ``evo:r:<game>`` rating set of a single Redis; run it once
after upgrading, before copying the data to a Redis Cluster. It is safe while the API runs
(each rename is RENAMENX, and the API renames a match it reads first in the same way) and
safe to run again (it then finds nothing to do).
"""

from __future__ import annotations

import re

from shared.infra.config import Settings
from shared.infra.redis_client import RedisClient, connect, is_cluster
from shared.matches.store import MatchStore
from shared.ratings.store import RatingStore

# A match's own hash or a game's ratings hash in the old layout: no braces, no suffix.
LEGACY_MATCH = re.compile(r"^evo:m:([^{}:]+)$")
LEGACY_RATINGS = re.compile(r"^evo:r:([^{}:]+)$")


def migrate(client: RedisClient) -> tuple[int, int]:
    """(matches, games) moved to hash-tagged keys."""
    if is_cluster(client):
        return 0, 0  # the old layout could never be written to a cluster
    store, ratings = MatchStore(client), RatingStore(client)
    matches = games = 0
    for key in client.scan_iter(match="evo:m:*", count=1000):
        found = LEGACY_MATCH.match(key)
        if found and store.migrate_legacy(found.group(1)):
            matches += 1
    for key in client.scan_iter(match="evo:r:*", count=1000):
        found = LEGACY_RATINGS.match(key)
        if found:
            ratings.migrate_legacy(found.group(1))
            games += 1
    return matches, games


def main() -> None:
    settings = Settings.from_env()
    matches, games = migrate(connect(settings.redis_url, settings.redis_cluster_nodes))
    print(f"moved {matches} match(es) and the ratings of {games} game(s) to hash-tagged keys")


if __name__ == "__main__":
    main()
