"""A seat's legal moves as clients get them: each move's id, its label for people, the move,
and the group a person chooses it under (the card it plays: ``State.move_group``)."""

from __future__ import annotations

from typing import Any

from shared.kernel.protocol import State


def listed_moves(state: State, seat: int, lang: str) -> list[dict[str, Any]]:
    """``seat``'s legal moves in ``state``, labelled in ``lang``; a group's moves together."""
    legal = state.legal_moves(seat)
    listed = [{"id": state.move_id(m), "label": state.move_label(m, lang), "move": m}
              for m in legal]
    if not groups_moves(state):  # a game that groups none: the hot path
        return listed
    return grouped(listed, [state.move_group(m, lang) for m in legal])


def groups_moves(state: State) -> bool:
    """Whether the game of ``state`` names its moves' groups (overrides ``move_group``)."""
    return type(state).move_group is not State.move_group


def grouped(listed: list[dict[str, Any]], groups: list[str | None]) -> list[dict[str, Any]]:
    """``listed`` with each move's group, a group's moves brought together where its first
    move stands (copies of one card may lie apart in a hand); the rest keep their order."""
    first: dict[str, int] = {}
    for index, (entry, group) in enumerate(zip(listed, groups, strict=True)):
        if group is not None:
            entry["group"] = group
            first.setdefault(group, index)
    place = [index if group is None else first[group] for index, group in enumerate(groups)]
    return [listed[i] for i in sorted(range(len(listed)), key=place.__getitem__)]
