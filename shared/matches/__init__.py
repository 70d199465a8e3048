"""Matches: the service every move goes through (``service``), its Redis store (``store``,
the only code that touches ``evo:m:*`` keys) and the stored record (``record``), the move
check (``moves``), the match's random source (``randomness``), what a question survives
(``carryover``), a bot's turn from its queued mark to its commit and hand-on (``bot_turns``)
and the cap on a client's bot seats (``bot_cap``).
"""
