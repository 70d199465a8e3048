"""Keeps ``--dist loadgroup`` grouping by ``xdist_group`` marks under pytest 9.2.

pytest-xdist 3.8.0 groups a test by appending ``@<group>`` to its node id (``item._nodeid``),
but pytest 9.2 reads node ids from a structured ``item._id`` instead, so the suffix is lost
and every group is silently spread over all workers (pytest-dev/pytest-xdist#1386): each
worker then starts the group's costly shared fixtures (RabbitMQ, ``make run``'s stack, the
Redis Cluster) for its share of the group. This hook adds the suffix where pytest 9.2 reads
it; it does nothing once xdist has added it, or without ``--dist loadgroup``.
"""

from __future__ import annotations

import pytest

try:
    from _pytest.nodeid import NodeId
except ImportError:  # a pytest without structured node ids: xdist's own suffix works
    NodeId = None  # type: ignore[assignment,misc]


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if NodeId is None or not getattr(config.option, "loadgroup", False):
        return
    for item in items:
        groups = sorted({str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
                         for mark in item.iter_markers("xdist_group")})
        if groups and "@" not in item.nodeid.rpartition("]")[2]:
            item._id = NodeId.parse(f"{item.nodeid}@{'_'.join(groups)}")
