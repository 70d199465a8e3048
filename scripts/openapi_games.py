"""Write openapi.yaml's per-game schemas from each game's ``Game.schemas()``.

Every registered game gets its view (``<Game>View``), one schema per move type
(``<Game><Type>Move``), their union discriminated on ``type`` (``<Game>Move``), its legal-move
list (``<Game>LegalMoves``) and its shared definitions (``<Game><Name>``). ``View`` and
``LegalMoves`` are unions discriminated on ``game``; ``Move`` is any game's move, a flat
``oneOf`` of every game's move schemas (move types repeat across games, so it has no
discriminator: where the game is known, ``<Game>Move`` has one). Nothing here names a game:
the list comes from the catalogue.

``python -m scripts.openapi_games`` rewrites the block between the markers in openapi.yaml;
``--check`` only says whether it is up to date (``tests/api/test_openapi_games.py`` runs it).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

import yaml

from shared.domain.types import MatchStatus
from shared.games import all_games
from shared.kernel.protocol import Game
from shared.matches import listing

SPEC = Path(__file__).resolve().parents[1] / "openapi.yaml"
BEGIN = ("    # >>> per-game schemas, written by `python -m scripts.openapi_games` from each "
         "game's Game.schemas();\n    # do not edit by hand: tests/api/test_openapi_games.py "
         "fails when they are out of date.\n")
END = "    # <<< end of the per-game schemas\n"
REF = "#/components/schemas/"
STATUSES = [status.value for status in MatchStatus]


def pascal(name: str) -> str:
    """``evolution-ns`` → ``EvolutionNs``, ``play_animal`` → ``PlayAnimal``."""
    return "".join(part[:1].upper() + part[1:] for part in name.replace("-", "_").split("_"))


def _for_the_contract(node: Any, prefix: str) -> Any:
    """A game's schema as the contract states it: ``#/$defs/Name`` references point at the
    ``<prefix>Name`` components, and a tuple (``prefixItems``) becomes a fixed-length array of
    any of its item schemas. Generators mistype tuples (openapi-fetch's response types turn
    them into plain arrays that a tuple type then refuses; openapi-python-client reads only
    ``items``), so the contract is a little looser there than the game's own schema, which
    the server and the tests check against."""
    if isinstance(node, list):
        return [_for_the_contract(value, prefix) for value in node]
    if not isinstance(node, dict):
        return node
    out = {key: (f"{REF}{prefix}{value.removeprefix('#/$defs/')}"
                 if key == "$ref" and isinstance(value, str) else _for_the_contract(value, prefix))
           for key, value in node.items() if key != "prefixItems"}
    if "prefixItems" in node:
        kinds: list[Any] = []
        for item in _for_the_contract(node["prefixItems"], prefix):
            if item not in kinds:
                kinds.append(item)
        out["items"] = kinds[0] if len(kinds) == 1 else {"anyOf": kinds}
    return out


def groups_moves(game: Game) -> bool:
    """Whether ``game``'s states name their moves' groups (``State.move_group``)."""
    return listing.groups_moves(
        game.new_state(game.min_players, game.resolve_options({}), random.Random(0)))


def game_components(game: Game) -> dict[str, Any]:
    """The components of one game, by name."""
    prefix = pascal(game.id)
    schemas = _for_the_contract(game.schemas(), prefix)
    out: dict[str, Any] = {f"{prefix}View": schemas["view"]}
    moves = {kind: f"{prefix}{pascal(kind)}Move" for kind in sorted(schemas["moves"])}
    for kind, name in moves.items():
        out[name] = schemas["moves"][kind]
    out[f"{prefix}Move"] = {
        "description": f"A move of `{game.id}`: its `type` says which.",
        "oneOf": [{"$ref": REF + name} for name in moves.values()],
        "discriminator": {"propertyName": "type",
                          "mapping": {kind: REF + name for kind, name in moves.items()}}}
    legal: dict[str, Any] = {
        "id": {"type": "string", "description": "A short stable id; submit it as `move_id`."},
        "label": {"type": "string", "description": "The move in words, for a person."}}
    if groups_moves(game):
        legal["group"] = {"type": "string", "description": (
            "The card the move plays, takes or discards, for a person choosing from a long "
            "list; a group's moves come together (see `LegalMove`).")}
    out[f"{prefix}LegalMove"] = {
        "type": "object", "required": ["id", "label", "move"],
        "properties": {**legal, "move": {"$ref": f"{REF}{prefix}Move"}},
        "additionalProperties": False}
    out[f"{prefix}LegalMoves"] = {
        "type": "object", "description": f"The legal moves of a seat in a `{game.id}` match.",
        "required": ["game", "version", "seat", "status", "to_move", "moves"],
        "properties": {
            "game": {"type": "string", "const": game.id},
            "version": {"type": "integer", "minimum": 1,
                        "description": "Submit your move with this version."},
            "seat": {"type": "integer", "minimum": 0},
            "status": {"type": "string", "enum": STATUSES},
            "to_move": {"type": "array", "items": {"type": "integer", "minimum": 0}},
            "moves": {"type": "array", "items": {"$ref": f"{REF}{prefix}LegalMove"}}},
        "additionalProperties": False}
    for name, schema in schemas.get("$defs", {}).items():
        out[f"{prefix}{name}"] = schema
    return out


def _distinct_moves(schemas: dict[str, Any], games: list[Game]) -> list[str]:
    """Every game's move schemas by name, one of each shape: a flat ``oneOf`` (a union of the
    games' unions, or an ``anyOf``, is what generators misread) needs no value to match two
    members, and the same move in two games (Evolution's and North Star's ``pass``) would."""
    names: list[str] = []
    shapes: list[Any] = []
    for game in games:
        union = schemas[f"{pascal(game.id)}Move"]
        for ref in union["discriminator"]["mapping"].values():
            name = ref.removeprefix(REF)
            shape = {k: v for k, v in schemas[name].items() if k != "description"}
            if shape not in shapes:
                names.append(name)
                shapes.append(shape)
    return names


def components(games: list[Game]) -> dict[str, Any]:
    """Every game's components, then ``View``, ``Move`` and ``LegalMoves`` over all games."""
    out: dict[str, Any] = {}
    for game in games:
        out.update(game_components(game))
    prefixes = {game.id: pascal(game.id) for game in games}
    out["View"] = {
        "description": (
            "What the caller may know of the match: the view of its game (`game`), for its "
            "seat (`seat`; null for a spectator). Hidden information (other hands, the deck "
            "order, others' secret choices) is never included."),
        "oneOf": [{"$ref": f"{REF}{p}View"} for p in prefixes.values()],
        "discriminator": {"propertyName": "game",
                          "mapping": {g: f"{REF}{p}View" for g, p in prefixes.items()}}}
    out["Move"] = {
        "description": (
            "A move in its canonical form: `type` names it, the rest are its parameters. Any "
            "game's move, one of every game's move schemas (a move two games spell alike is "
            "listed once); move types repeat across games, so there is no discriminator: where "
            "the game is known use its own union (e.g. the `move` of a game's `LegalMoves`), "
            "discriminated on `type`."),
        "oneOf": [{"$ref": REF + name} for name in _distinct_moves(out, games)]}
    out["LegalMoves"] = {
        "description": "A seat's legal moves now, typed by the match's game (`game`).",
        "oneOf": [{"$ref": f"{REF}{p}LegalMoves"} for p in prefixes.values()],
        "discriminator": {"propertyName": "game",
                          "mapping": {g: f"{REF}{p}LegalMoves" for g, p in prefixes.items()}}}
    return out


def render(schemas: dict[str, Any]) -> str:
    """The components as YAML lines indented under ``components: schemas:``."""
    # Through JSON first so that YAML gets plain dicts and lists, in the games' own order.
    text = yaml.safe_dump(json.loads(json.dumps(schemas)), sort_keys=False, width=88,
                          allow_unicode=True, default_flow_style=None)
    blocks = ["\n" if not line else f"    {line}\n" for line in text.splitlines()]
    return "".join(blocks)


def updated(spec_text: str, games: list[Game]) -> str:
    """``spec_text`` with its per-game block rewritten."""
    start, end = spec_text.find(BEGIN), spec_text.find(END)
    if start < 0 or end < start:
        raise ValueError("openapi.yaml has no per-game block markers")
    return spec_text[:start] + BEGIN + render(components(games)) + spec_text[end:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if openapi.yaml's per-game schemas are out of date")
    args = parser.parse_args(argv)
    current = SPEC.read_text(encoding="utf-8")
    wanted = updated(current, all_games())
    if args.check:
        if wanted != current:
            print("openapi.yaml is out of date: run `python -m scripts.openapi_games`",
                  file=sys.stderr)
            return 1
        return 0
    if wanted != current:
        SPEC.write_text(wanted, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
