"""Constructs of an OpenAPI document that common client generators misread, found by walking it.

Each rule is one a generator's maintainers document, an issue of theirs shows, or we saw
openapi-python-client 0.29.1 (requirements-dev.txt) do to this spec:

- ``mixed``: ``properties``/``type``/``enum``/``required``… beside a ``oneOf``/``anyOf``/``allOf``
  (an object and a union in one schema). openapi-python-client typed such a ``BotSpec`` as
  ``Any`` and parsed ``CreatedAccount`` (``allOf`` plus ``properties``) as its base model,
  the key left untyped; TypeScript generators keep the union and drop the properties and
  their enums (openapi-generator#21878 for typescript-fetch, json-schema-to-typescript#203,
  spec2ts#4, hey-api/openapi-ts#713). Extend by an ``allOf`` of the base and an object.
- ``nested``: a union one of whose members is itself a union (``anyOf`` of ``oneOf``s, a
  ``oneOf`` inside an ``allOf``). typescript-fetch types the inner union as a plain ``object``
  (openapi-generator#20155) and openapi-python-client ignores a ``oneOf`` inside an ``allOf``
  (openapi-python-client#1328). A union with ``{type: "null"}`` and one other member is how
  3.1 spells "nullable" and counts as that member.
- ``anyOf``: an ``anyOf`` of objects. openapi-generator's TypeScript generators read it like
  an ``allOf``: one interface with every member's fields (openapi-generator#14803), so a
  cross-game ``Move`` became one interface with every field required. Use ``oneOf``.
- ``inline``: an object member of a union written inline instead of a ``$ref``. Generators
  name it themselves (openapi-python-client made ``TimeControlType0``; typescript-fetch's
  invented names clash, openapi-generator#15212), an inline enum in it goes with it, and a
  discriminator's mapping can only name components.
- ``discriminator``: a ``oneOf`` of objects that all require one property with a constant
  value, distinct per member, must say so with a ``discriminator`` mapping every value (else
  typescript-fetch and openapi-python-client try each member in turn and the first that
  parses wins; the mapping is the workaround of openapi-generator#14763); one without such a
  property must have members no value can match twice (a constant that differs, or a field
  one requires and the other refuses), so that trying them in turn finds the one.
- ``nullable-enum``: an ``enum`` of a ``type`` list with ``"null"`` (``[string, "null"]``).
  openapi-python-client made three identical enum classes of ``JoinPool.bot_fill``
  (``JoinPoolBotFillType1``, ``…Type2Type1``…); a named enum or null (a ``oneOf``) is one.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

UNIONS = ("oneOf", "anyOf")
COMPOSITIONS = (*UNIONS, "allOf")
#: Keywords that make a schema an object, array or scalar of its own: not beside a union.
SHAPE = ("type", "properties", "required", "enum", "const", "items", "additionalProperties",
         "patternProperties")


def _resolve(spec: dict[str, Any], node: Any) -> Any:
    while isinstance(node, dict) and isinstance(node.get("$ref"), str):
        target: Any = spec
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        node = target
    return node


def _schemas(node: Any, path: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every dict under ``node`` (schemas and others) with its JSON pointer."""
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            if key not in ("example", "examples", "default", "const", "enum"):
                yield from _schemas(value, f"{path}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _schemas(value, f"{path}/{index}")


def _is_null(member: Any) -> bool:
    return isinstance(member, dict) and member.get("type") == "null" and len(member) == 1


def _members(node: dict[str, Any], keyword: str) -> list[Any]:
    """The members of ``node[keyword]`` but ``{type: "null"}`` (a nullable union's null)."""
    return [m for m in node[keyword] if not _is_null(m)]


def _is_union(spec: dict[str, Any], node: Any) -> bool:
    """``node`` is a union of two or more (non-null) members, through ``$ref``s."""
    node = _resolve(spec, node)
    return isinstance(node, dict) and any(
        len(_members(node, k)) > 1 or (len(_members(node, k)) == 1
                                       and _is_union(spec, _members(node, k)[0]))
        for k in UNIONS if k in node)


def _is_object(spec: dict[str, Any], node: Any) -> bool:
    node = _resolve(spec, node)
    return isinstance(node, dict) and ("properties" in node or node.get("type") == "object")


def _constant(schema: dict[str, Any]) -> Any:
    """The one value a property schema allows, or ``None``."""
    if "const" in schema:
        return schema["const"]
    enum = schema.get("enum")
    return enum[0] if isinstance(enum, list) and len(enum) == 1 else None


def _disjoint(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """No value is valid for both objects: a required constant differs, or one requires a
    field the other refuses."""
    pa, pb = a.get("properties", {}), b.get("properties", {})
    for name in set(a.get("required", [])) & set(b.get("required", [])):
        ca, cb = _constant(pa.get(name, {})), _constant(pb.get(name, {}))
        if ca is not None and cb is not None and ca != cb:
            return True
    for x, y in ((a, b), (b, a)):
        refused = y.get("additionalProperties") is False
        if refused and set(x.get("required", [])) - set(y.get("properties", {})):
            return True
    return False


def _tag(members: list[dict[str, Any]]) -> str | None:
    """The property every member requires with a constant of its own, distinct per member."""
    common: set[str] = set.intersection(*(set(m.get("required", [])) for m in members))
    for name in sorted(common):
        values = [_constant(m.get("properties", {}).get(name, {})) for m in members]
        if None not in values and len(set(map(repr, values))) == len(values):
            return name
    return None


def _union_hazards(spec: dict[str, Any], path: str, node: dict[str, Any],
                   keyword: str) -> Iterator[str]:
    members = _members(node, keyword)
    if len(members) < 2:
        return  # a nullable X is X: its member is checked where it is defined
    for index, member in enumerate(members):
        if _is_union(spec, member):
            yield f"nested: {path}/{keyword}/{index} is a union inside a union"
        if _is_object(spec, member) and "$ref" not in member:
            yield f"inline: {path}/{keyword}/{index} is an object not named as a component"
    objects = [_resolve(spec, m) for m in members if _is_object(spec, m)]
    if len(objects) < 2:
        return
    if keyword == "anyOf":
        yield f"anyOf: {path} is an anyOf of objects (read as allOf): make it a oneOf"
        return
    tag = _tag(objects)
    if tag is not None:
        mapping = node.get("discriminator", {}).get("mapping", {})
        wanted = {str(_constant(o["properties"][tag])): m["$ref"]
                  for o, m in zip(objects, members, strict=True) if "$ref" in m}
        if node.get("discriminator", {}).get("propertyName") != tag or mapping != wanted:
            yield f"discriminator: {path} needs discriminator {tag!r} mapping {wanted}"
        return
    for i, a in enumerate(objects):
        for j in range(i + 1, len(objects)):
            if not _disjoint(a, objects[j]):
                yield f"discriminator: {path} members {i} and {j} can match the same value"


def hazards(spec: dict[str, Any]) -> list[str]:
    """Every construct of the rules above found in ``spec``, as ``rule: where: what``."""
    out: list[str] = []
    for path, node in _schemas(spec, "#"):
        kinds = node.get("type")
        if isinstance(kinds, list) and "null" in kinds and "enum" in node:
            out.append(f"nullable-enum: {path} is an enum of {kinds}: name it, oneOf it with null")
        composed = [k for k in COMPOSITIONS if isinstance(node.get(k), list)]
        if not composed:
            continue
        beside = [k for k in SHAPE if k in node]
        if beside:
            out.append(f"mixed: {path} has {', '.join(beside)} beside {', '.join(composed)}")
        for keyword in composed:
            if keyword == "allOf":
                out.extend(f"nested: {path}/allOf/{i} is a union inside an allOf"
                           for i, m in enumerate(node["allOf"]) if _is_union(spec, m))
            else:
                out.extend(_union_hazards(spec, path, node, keyword))
    return out
