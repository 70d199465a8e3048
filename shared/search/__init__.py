"""ISMCTS over information sets: ``search_move`` from one seat's view with a
:class:`SearchBudget` and a :class:`SearchConfig`, and the playout policies. Pure: no I/O,
games only through the kernel."""

from shared.kernel.budget import SearchBudget
from shared.search.ismcts import SearchConfig, search_move
from shared.search.policies import Policy, policy_for

__all__ = ["Policy", "SearchBudget", "SearchConfig", "policy_for", "search_move"]
