"""Bots: the catalogue of bot kinds and levels (``catalogue``), choosing a move (``choice``),
a bot turn from the queued mark to the commit (``turns``), its budget (``turn_budget``),
move deadlines and the fallback bot (``deadlines``, ``fallback``), webhook bots
(``webhooks``) and hints for people (``hints`` asks, ``hint_search`` answers).
"""
