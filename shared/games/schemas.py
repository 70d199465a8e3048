"""Each game's JSON Schemas (``Game.schemas()``) as validators, for any game.

A game's schema file holds its view, one object schema per move type and shared ``$defs``;
here they become standalone 2020-12 schemas (the ``$defs`` attached) and cached validators.
The API checks submitted moves with them (``shared.matches.moves``); the tests check every view and
legal move of random play against them; ``scripts/openapi_games.py`` copies them into the
contract.

A submitted move is checked by ``jsonschema_rs`` (compiled, under a microsecond a move against
~40-80 µs for ``jsonschema``: ``bench/bench_move_check.py``); only a move it refuses is checked
again by ``jsonschema``, whose ``best_match`` names the field that is wrong. The two agree on
every move (``tests/shared/test_move_check.py``).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import jsonschema_rs
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from shared.games import get_game

DIALECT = "https://json-schema.org/draft/2020-12/schema"


def standalone(schemas: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` (a part of a game's schemas) with the game's ``$defs``, ready to validate."""
    return {"$schema": DIALECT, **schema, "$defs": schemas.get("$defs", {})}


def move_union(schemas: dict[str, Any]) -> dict[str, Any]:
    """One schema for any move of the game: exactly one of its move types."""
    return {"oneOf": [schemas["moves"][kind] for kind in sorted(schemas["moves"])]}


@cache
def view_validator(game_id: str) -> Draft202012Validator:
    schemas = get_game(game_id).schemas()
    return Draft202012Validator(standalone(schemas, schemas["view"]))


@cache
def move_validators(game_id: str) -> dict[str, Draft202012Validator]:
    """A validator per move type of ``game_id``."""
    schemas = get_game(game_id).schemas()
    return {kind: Draft202012Validator(standalone(schemas, schema))
            for kind, schema in schemas["moves"].items()}


def problem(validator: Draft202012Validator, instance: Any) -> str | None:
    """The most relevant reason ``instance`` fails ``validator``, with where; None if valid."""
    error = best_match(validator.iter_errors(instance))
    if error is None:
        return None
    where = "/".join(str(part) for part in error.absolute_path)
    return f"{where}: {error.message}" if where else error.message


def view_problem(game_id: str, view: Any) -> str | None:
    """Why ``view`` is not a view of ``game_id``; None if it is one."""
    return problem(view_validator(game_id), view)


@cache
def fast_move_validators(game_id: str) -> dict[str, jsonschema_rs.Validator]:
    """A compiled validator per move type of ``game_id`` (the same schemas)."""
    schemas = get_game(game_id).schemas()
    return {kind: jsonschema_rs.Draft202012Validator(standalone(schemas, schema))
            for kind, schema in schemas["moves"].items()}


def move_type_problem(game_id: str, move: dict[str, Any]) -> str | None:
    """Why ``move`` (already of the generic shape) is not of one of the game's move types."""
    fast = fast_move_validators(game_id).get(move["type"])
    if fast is None:
        return (f"{game_id} has no move type {move['type']!r} "
                f"(its types: {', '.join(sorted(fast_move_validators(game_id)))})")
    if fast.is_valid(move):
        return None  # every move a seat plays: the compiled check alone
    found = problem(move_validators(game_id)[move["type"]], move)
    return None if found is None else f"{move['type']}: {found}"


def component_refs(schemas: dict[str, Any], instance: Any,
                   schema: dict[str, Any] | None = None) -> set[tuple[str, Any]]:
    """Every ``(category, key)`` of the game's component catalogue that ``instance`` (a view,
    or of ``schema``: a move's) names, read from the ``x-component`` marks of the game's
    schemas: a marked value is a key of that category; a negative integer is the key
    ``-value`` of ``x-component-negative`` where a field marks one (a slot holding ``-n``
    for a printed ability)."""
    found: set[tuple[str, Any]] = set()
    _refs(schemas, schemas["view"] if schema is None else schema, instance, found)
    return found


def _refs(schemas: dict[str, Any], schema: dict[str, Any], instance: Any,
          found: set[tuple[str, Any]]) -> None:
    if "$ref" in schema:
        _refs(schemas, schemas["$defs"][schema["$ref"].removeprefix("#/$defs/")], instance, found)
    category = schema.get("x-component")
    if category is not None and isinstance(instance, int | str) and not isinstance(
            instance, bool):
        negative = schema.get("x-component-negative")
        if negative is not None and isinstance(instance, int) and instance < 0:
            found.add((negative, -instance))
        else:
            found.add((category, instance))
    for alternative in schema.get("anyOf", []) + schema.get("oneOf", []):
        _refs(schemas, alternative, instance, found)
    if isinstance(instance, dict):
        for name, sub in schema.get("properties", {}).items():
            if name in instance:
                _refs(schemas, sub, instance[name], found)
    elif isinstance(instance, list):
        fixed = schema.get("prefixItems", [])
        for index, item in enumerate(instance):
            sub = fixed[index] if index < len(fixed) else schema.get("items")
            if isinstance(sub, dict):
                _refs(schemas, sub, item, found)
