"""Bots: the catalogue of bot kinds and levels (``catalogue``), choosing a move (``choice``),
how a bot turn's move is chosen (``turns``; the turn itself is
``shared.matches.bot_turns``), its budget (``turn_budget``),
move deadlines and the fallback bot (``deadlines``, ``fallback``), webhook bots
(``webhooks``) and hints for people (``hints`` asks, ``hint_search`` answers).
"""
