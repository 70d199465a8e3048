"""Ecosystem: Savanna — the engine for Evo Arena.

Rules: docs/rules/savanna.md (rule ids S-x.y). Modules: ``game`` (the draft and its state),
``scoring`` (S-3.x, and the deck and grass table it reads from ``components.json``),
``policy`` (a playout heuristic the search may use). ``schemas.json`` is the contract of its
views and moves, ``board.js`` the match page's board.
"""

from __future__ import annotations

from shared.games import register

from .game import FULL_DECK, STEPS_PER_PHASE, SavannaGame, SavannaState

__all__ = ["FULL_DECK", "STEPS_PER_PHASE", "SavannaGame", "SavannaState"]

register(SavannaGame())
