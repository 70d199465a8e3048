"""The OpenAPI contract (``/openapi.yaml``) and a human-readable page rendered from it (``/docs``).

The page is server-rendered from the spec (parsed once and cached); its stylesheet is served by
the app's own static route, so nothing is fetched from the internet.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from flask import Blueprint, Response, render_template
from flask_swagger_ui import get_swaggerui_blueprint
from markupsafe import Markup, escape

bp = Blueprint("docs", __name__)
TRY_IT_PREFIX = "/docs/try"
# Swagger UI ("try it out") from the files its wheel ships, reading the contract served here.
try_it = get_swaggerui_blueprint(TRY_IT_PREFIX, "/openapi.yaml", blueprint_name="try_it",
                                 config={"app_name": "Evo Arena API: try it out"})
SPEC_PATH = Path(__file__).resolve().parent.parent / "openapi.yaml"
METHODS = ("get", "put", "post", "patch", "delete")
_INLINE = re.compile(r"`([^`]+)`|\*\*([^*]+)\*\*")


@bp.get("/openapi.yaml")
def openapi_yaml() -> Response:
    """The contract as YAML."""
    return Response(spec_text(), mimetype="application/yaml")


@bp.get("/docs")
def docs_page() -> str:
    """The contract as an HTML page."""
    return render_template("docs.html", **page_model())


@lru_cache(maxsize=1)
def spec_text() -> str:
    return SPEC_PATH.read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def spec() -> dict[str, Any]:
    """The parsed contract (read once per process). libyaml's loader when there is one: the
    per-game schemas make the spec long, and the pure-Python loader takes about a second."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    parsed: dict[str, Any] = yaml.load(spec_text(), Loader=loader)
    return parsed


# -- a very small Markdown subset: headings, lists, paragraphs, code blocks, `code`, **bold** --

def _inline(text: str) -> Markup:
    out, pos = Markup(), 0
    for match in _INLINE.finditer(text):
        out += escape(text[pos:match.start()])
        if match.group(1) is not None:
            out += Markup("<code>%s</code>") % match.group(1)
        else:
            out += Markup("<strong>%s</strong>") % match.group(2)
        pos = match.end()
    return out + escape(text[pos:])


def markdown(text: str | None) -> Markup:
    """Render the Markdown subset used in the spec's descriptions as safe HTML."""
    if not text:
        return Markup()
    html: list[Markup] = []
    blocks = re.split(r"\n\s*\n", text.strip("\n"))
    for block in blocks:
        lines = block.split("\n")
        if all(line.startswith("    ") for line in lines):
            code = "\n".join(line[4:] for line in lines)
            if html and html[-1].startswith("<pre>"):  # a code block with blank lines inside
                html[-1] = Markup(html[-1][:-len("</code></pre>")]) + escape("\n\n" + code) \
                    + Markup("</code></pre>")
            else:
                html.append(Markup("<pre><code>%s</code></pre>") % code)
            continue
        heading = re.match(r"(#{1,4}) (.*)", lines[0])
        if heading:
            level = len(heading.group(1)) + 1
            html.append(Markup(f"<h{level}>") + _inline(heading.group(2))
                        + Markup(f"</h{level}>"))
            lines = lines[1:]
            if not lines:
                continue
        numbered = re.match(r"\d+\. ", lines[0])
        if numbered or lines[0].startswith("- "):
            items: list[str] = []
            for line in lines:
                if re.match(r"\d+\. |- ", line):
                    items.append(re.sub(r"^(\d+\. |- )", "", line))
                elif items:
                    items[-1] += " " + line.strip()
            tag = "ol" if numbered else "ul"
            html.append(Markup(f"<{tag}>") + Markup("").join(
                Markup("<li>") + _inline(item) + Markup("</li>") for item in items)
                + Markup(f"</{tag}>"))
            continue
        html.append(Markup("<p>") + _inline(" ".join(line.strip() for line in lines))
                    + Markup("</p>"))
    return Markup("\n").join(html)


# -- the view model of the page ------------------------------------------------------------

def _ref_name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1]


def _resolve(node: dict[str, Any]) -> dict[str, Any]:
    """Follow a local ``$ref`` (parameters, responses) to its target."""
    while "$ref" in node:
        target: Any = spec()
        for part in node["$ref"].lstrip("#/").split("/"):
            target = target[part]
        node = target
    return node


def type_of(schema: dict[str, Any] | None) -> Markup:
    """A one-line HTML description of a schema's type, linking named schemas."""
    if not schema:
        return Markup("any")
    if "$ref" in schema:
        name = _ref_name(schema["$ref"])
        return Markup('<a href="#schema-%s">%s</a>') % (name, name)
    for key in ("oneOf", "anyOf", "allOf"):
        if key in schema:
            joiner = Markup(" | ") if key != "allOf" else Markup(" &amp; ")
            parts = [type_of(s) for s in schema[key] if "required" not in s or len(s) > 1]
            if parts:
                return joiner.join(parts)
    if "const" in schema:
        return Markup("<code>%s</code>") % json.dumps(schema["const"])
    kind = schema.get("type", "object" if "properties" in schema else "any")
    kinds = kind if isinstance(kind, list) else [kind]
    out = []
    for one in kinds:
        if one == "array":
            out.append(Markup("array of ") + type_of(schema.get("items")))
        else:
            out.append(escape(one))
    text = Markup(" | ").join(out)
    if "enum" in schema:
        text += Markup(": ") + Markup(", ").join(
            Markup("<code>%s</code>") % json.dumps(v) for v in schema["enum"])
    return text


def constraints(schema: dict[str, Any]) -> str:
    """Bounds and defaults of a schema, e.g. ``0 ≤ x ≤ 60; default 0``."""
    parts = []
    for key, label in (("minimum", "min"), ("maximum", "max"), ("minLength", "min length"),
                       ("maxLength", "max length"), ("minItems", "min items"),
                       ("maxItems", "max items"), ("pattern", "pattern")):
        if key in schema:
            parts.append(f"{label} {schema[key]}")
    if "default" in schema:
        parts.append(f"default {json.dumps(schema['default'])}")
    return "; ".join(parts)


def properties_of(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """The rows of a schema's property table (own and ``allOf`` properties)."""
    rows = []
    for part in [schema, *schema.get("allOf", [])]:
        part = _resolve(part) if "$ref" in part else part
        required = set(part.get("required", []))
        for name, prop in part.get("properties", {}).items():
            rows.append({"name": name, "type": type_of(prop), "required": name in required,
                         "constraints": constraints(prop),
                         "description": markdown(prop.get("description"))})
    return rows


def _example(media: dict[str, Any]) -> list[dict[str, str]]:
    if "example" in media:
        examples = {"": {"value": media["example"]}}
    else:
        examples = media.get("examples", {})
    out = []
    for name, example in examples.items():
        value = example.get("value")
        text = value if isinstance(value, str) else json.dumps(value, indent=2)
        out.append({"name": example.get("summary") or name, "text": text})
    return out


def _content(content: dict[str, Any] | None) -> list[dict[str, Any]]:
    return [{"type": media_type, "schema": type_of(media.get("schema")),
             "examples": _example(media)} for media_type, media in (content or {}).items()]


def _operation(path: str, method: str, op: dict[str, Any], shared: list[Any]
               ) -> dict[str, Any]:
    params = [_resolve(p) for p in [*shared, *op.get("parameters", [])]]
    security = op.get("security", spec().get("security", []))
    names = [name for req in security for name in req]
    auth = ("bearer seat token required" if names and {} not in security
            else "bearer seat token optional" if names else "")
    body = op.get("requestBody")
    responses = []
    for status, response in op.get("responses", {}).items():
        response = _resolve(response)
        responses.append({"status": status, "description": markdown(response.get("description")),
                          "content": _content(response.get("content"))})
    return {
        "anchor": f"op-{op.get('operationId', method + path)}", "method": method.upper(),
        "path": path, "summary": op.get("summary", ""),
        "description": markdown(op.get("description")), "auth": auth,
        "parameters": [{"name": p["name"], "in": p["in"], "required": p.get("required", False),
                        "type": type_of(p.get("schema")),
                        "constraints": constraints(p.get("schema", {})),
                        "description": markdown(p.get("description"))} for p in params],
        "body": None if body is None else {"required": body.get("required", False),
                                           "content": _content(body.get("content"))},
        "responses": responses,
    }


@lru_cache(maxsize=1)
def page_model() -> dict[str, Any]:
    """Everything the template needs, computed once from the spec."""
    doc = spec()
    operations = []
    for path, item in doc.get("paths", {}).items():
        for method in METHODS:
            if method in item:
                operations.append(_operation(path, method, item[method],
                                             item.get("parameters", [])))
    # The spec keeps no fields beside a union (tests/api/spec_rules.py), so a schema's own
    # oneOf/anyOf/allOf is its type: its members, linked.
    schemas = [{"name": name, "type": type_of(schema),
                "description": markdown(schema.get("description")),
                "closed": schema.get("additionalProperties") is False
                or schema.get("unevaluatedProperties") is False,
                "properties": properties_of(schema)}
               for name, schema in doc.get("components", {}).get("schemas", {}).items()]
    info = doc.get("info", {})
    return {"title": info.get("title", "API"), "version": info.get("version", ""),
            "intro": markdown(info.get("description")), "operations": operations,
            "schemas": schemas}
