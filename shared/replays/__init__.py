"""Replays and post-match analysis of finished matches (``service``: the replay of a match
step by step from any seat's point of view, and the analysis of a seat's decisions by the
hint's search; ``analysis``: that search; ``store``: the analyses kept)."""
