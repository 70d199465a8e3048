"""ISMCTS over information sets: ``search_move`` from one seat's view with a
:class:`SearchBudget`, and the playout policies. Pure: no I/O, games only through the kernel."""

from shared.kernel.budget import SearchBudget
from shared.search.ismcts import search_move
from shared.search.policies import Policy, policy_for

__all__ = ["Policy", "SearchBudget", "policy_for", "search_move"]
