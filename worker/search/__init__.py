"""ISMCTS search bots: ``search_move`` with a level's or a custom :class:`SearchBudget`."""

from worker.search.ismcts import search_move
from worker.search.levels import LEVELS, MAX_SIMULATIONS, SearchBudget
from worker.search.policies import Policy, policy_for

__all__ = ["LEVELS", "MAX_SIMULATIONS", "Policy", "SearchBudget", "policy_for", "search_move"]
