"""Quick play: matchmaking pools (``store``: the pools in Redis; ``service``: join, poll,
leave, match)."""
