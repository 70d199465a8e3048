"""One door per store: only a feature's own package reaches that feature's store.

A feature is a package of ``shared/`` with a ``store.py`` (matches, accounts, tournaments,
ratings); its service (``shared/<feature>/service.py``) is the door to its keys. The sources
of ``api/``, ``worker/`` and ``shared/`` are parsed (no import, no Redis) and two things fail:

* an attribute chain reaching a service's store from outside that service's package, e.g.
  ``service.store.load(...)`` with ``service: MatchService`` in ``shared/bots``,
  ``self.matches.store``, ``matches.accounts`` (the match service's accounts store), or any
  ``<x>.store`` (``x`` not ``self``) outside every feature package;
* a module outside a feature importing that feature's store module; the composition root
  ``shared/services.py`` builds the stores and is the one exception.

A service's store attributes are read from its ``__init__`` (``self.<name> = ...`` built from
a ``*Store``), and what a name stands for from the annotations of the enclosing functions or
its conventional name (``matches``, ``accounts``, ``tournaments``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("api", "worker", "shared")
COMPOSITION_ROOT = "shared/services.py"
#: Features without a service of their own, and the feature whose service is their door.
SERVED_BY = {"ratings": "tournaments"}
#: Store imports still crossing a feature, each with why; each must still exist (a fixed one
#: is taken off this list, so it cannot come back unnoticed).
KNOWN_IMPORTS: dict[tuple[str, str], str] = {}
#: Protocols a feature's store is handed in as where importing it would cross features (the
#: match service's accounts: ``shared/matches/accounts_port.py``): attributes set from them
#: are store attributes as much as a ``*Store``'s.
STORE_PORTS = {"AccountDirectory"}


@dataclass
class Layout:
    """The features, their services and each service's store attributes."""
    features: set[str]
    services: dict[str, str] = field(default_factory=dict)  # class name -> feature
    store_attrs: dict[str, set[str]] = field(default_factory=dict)  # class name -> attrs
    named: dict[str, str] = field(default_factory=dict)  # conventional name -> class name


def layout(root: Path = ROOT) -> Layout:
    features = {p.parent.name for p in (root / "shared").glob("*/store.py")}
    found = Layout(features)
    for feature in sorted(features):
        path = root / "shared" / feature / "service.py"
        if not path.exists():
            continue
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.ClassDef) and node.name.endswith("Service"):
                found.services[node.name] = feature
                found.store_attrs[node.name] = _store_attrs(node)
                found.named[feature] = node.name
    return found


def _store_attrs(cls: ast.ClassDef) -> set[str]:
    """The attributes ``__init__`` sets from a store (a ``*Store`` call or parameter)."""
    init = next((n for n in cls.body if isinstance(n, ast.FunctionDef)
                 and n.name == "__init__"), None)
    if init is None:
        return set()
    stores = {a.arg for a in init.args.args + init.args.kwonlyargs
              if a.annotation is not None and any(n.endswith("Store") or n in STORE_PORTS
                                                  for n in _names(a.annotation))}
    attrs = set()
    for node in ast.walk(init):
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            if (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                    and target.value.id == "self"
                    and any(n in stores or n.endswith("Store") for n in _names(node.value))):
                attrs.add(target.attr)
    return attrs


def _names(node: ast.AST) -> Iterator[str]:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            yield sub.id
        elif isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            yield from sub.value.replace("|", " ").split()  # a quoted annotation


def feature_of(path: str, known: Layout) -> str | None:
    """The feature whose package holds ``path`` (relative, with slashes), if any."""
    parts = path.split("/")
    if len(parts) > 2 and parts[0] == "shared" and parts[1] in known.features:
        return parts[1]
    return None


class _Reaches(ast.NodeVisitor):
    """Collects the store reaches of one module that its feature may not make."""

    def __init__(self, path: str, known: Layout) -> None:
        self.path, self.known = path, known
        self.feature = feature_of(path, known)
        self.scopes: list[dict[str, str]] = [{}]  # name -> service class, per function
        self.found: list[str] = []

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        typed = dict(self.scopes[-1])
        for arg in node.args.args + node.args.kwonlyargs + node.args.posonlyargs:
            service = next((n for n in _names(arg.annotation) if n in self.known.services),
                           None) if arg.annotation is not None else None
            if service is not None:
                typed[arg.arg] = service
        self.scopes.append(typed)
        self.generic_visit(node)
        self.scopes.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def _service(self, node: ast.expr) -> str | None:
        """The service class ``node`` stands for, as far as its name tells."""
        if isinstance(node, ast.Name):
            return self.scopes[-1].get(node.id) or self.known.named.get(node.id)
        if isinstance(node, ast.Attribute):
            return self.known.named.get(node.attr)
        return None

    def visit_Attribute(self, node: ast.Attribute) -> None:
        owner = node.value
        if not (isinstance(owner, ast.Name) and owner.id == "self"):
            service = self._service(owner)
            where = f"{self.path}:{node.lineno}: {ast.unparse(node)}"
            if service is not None:
                home = self.known.services[service]
                if node.attr in self.known.store_attrs[service] and self.feature != home:
                    self.found.append(f"{where} (the store of {service}, outside "
                                      f"shared/{home}/)")
            elif node.attr == "store" and self.feature is None:
                self.found.append(f"{where} (a store, outside every feature package)")
        self.generic_visit(node)


def store_reaches(path: str, source: str, known: Layout) -> list[str]:
    visitor = _Reaches(path, known)
    visitor.visit(ast.parse(source))
    return visitor.found


def store_imports(path: str, source: str, known: Layout) -> list[tuple[str, str]]:
    """(line, feature) for each import of another feature's store module by ``path``."""
    if path == COMPOSITION_ROOT:
        return []
    mine = feature_of(path, known)
    found = []
    for node in ast.walk(ast.parse(source)):
        modules: list[str] = []
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        for module in modules:
            parts = module.split(".")
            if (len(parts) == 3 and parts[0] == "shared" and parts[2] == "store"
                    and parts[1] in known.features and parts[1] != mine
                    and (mine is None or SERVED_BY.get(parts[1]) != mine)):
                found.append((f"{path}:{node.lineno}: imports shared.{parts[1]}.store",
                              parts[1]))
    return found


def sources(root: Path = ROOT) -> Iterator[tuple[str, str]]:
    for top in SOURCES:
        for path in sorted((root / top).rglob("*.py")):
            yield path.relative_to(root).as_posix(), path.read_text()


def violations(root: Path = ROOT) -> tuple[list[str], set[tuple[str, str]]]:
    """The store reaches and imports found (known imports apart), and the known ones seen."""
    known = layout(root)
    found: list[str] = []
    seen: set[tuple[str, str]] = set()
    for path, source in sources(root):
        found += store_reaches(path, source, known)
        for where, feature in store_imports(path, source, known):
            if (path, feature) in KNOWN_IMPORTS:
                seen.add((path, feature))
            else:
                found.append(where)
    return found, seen


def test_only_a_features_own_package_reaches_its_store() -> None:
    found, seen = violations()
    assert found == [], "\n".join(found)
    assert seen == set(KNOWN_IMPORTS), f"fixed, take off KNOWN_IMPORTS: {set(KNOWN_IMPORTS) - seen}"


def test_the_layout_names_the_services_and_their_stores() -> None:
    """What the guard rests on: if it read nothing, it would pass on anything."""
    known = layout()
    assert {"matches", "accounts", "tournaments", "ratings"} <= known.features
    assert {"store", "accounts"} <= known.store_attrs["MatchService"]
    assert {"store", "ratings"} <= known.store_attrs["TournamentService"]
    assert "store" in known.store_attrs["AccountService"]


# What the guard caught before the services had a door for each (as the code read then).
OLD_REACHES = {
    "shared/bots/deadlines.py": (
        "from shared.matches.service import MatchService\n"
        "def sweep(service: MatchService, now: float) -> None:\n"
        "    for match_id in service.store.due_deadlines(now):\n"
        "        pass\n"),
    "shared/bots/hints.py": (
        "def hint(service: MatchService) -> None:\n"
        "    store = service.store\n"),
    "shared/bots/webhooks.py": (
        "def ask(service: MatchService, record) -> None:\n"
        "    account = service.accounts.load(record.seats[0]['account'])\n"),
    "shared/tournaments/service.py": (
        "class TournamentService:\n"
        "    def __init__(self, matches: MatchService) -> None:\n"
        "        self.store = TournamentStore(matches.store.redis)\n"
        "    def kept(self, match_id: str) -> None:\n"
        "        return self.matches.store.kept_result(match_id)\n"),
    "api/tournaments.py": (
        "def wait(seconds: float) -> None:\n"
        "    service = tournaments()\n"
        "    service.store.wait_for_change('t', 1, seconds)\n"),
    "shared/services.py": (
        "def build(settings) -> None:\n"
        "    accounts = AccountService(matches.accounts, matches)\n"),
}


def test_the_guard_catches_each_reach_the_code_once_made() -> None:
    known = layout()
    for path, source in OLD_REACHES.items():
        assert store_reaches(path, source, known), path
    # The same chains in the feature's own package are its own business.
    own = "def f(service: MatchService) -> None:\n    service.store.load('m')\n"
    assert store_reaches("shared/matches/bot_turns.py", own, known) == []
    assert store_reaches("shared/bots/turns.py", own, known) != []


def test_the_guard_catches_a_store_imported_across_features() -> None:
    known = layout()
    line = "from shared.matches.store import MatchStore\n"
    assert store_imports("shared/bots/deadlines.py", line, known)
    assert store_imports("shared/tournaments/service.py", line, known)
    assert store_imports("api/matches.py", "import shared.accounts.store\n", known)
    assert store_imports("shared/accounts/service.py",
                         "from shared.accounts import store\n", known) == []
    assert store_imports(COMPOSITION_ROOT, line, known) == []
