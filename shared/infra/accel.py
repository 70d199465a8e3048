"""The compiled build: the engines and the search compiled by mypyc, the same moves ~3x sooner.

``python -m shared.infra.accel build`` copies ``shared/`` and ``worker/`` to
``var/accel/<digest>/`` and compiles the hot modules there in place: the search core
(:data:`CORE_MODULES`) and every registered game's ``Game.compiled_modules()``, so a game
added to the catalogue is compiled without naming it here. The digest covers every file of
the two packages, the interpreter's ABI and the machine, so editing any source gives a fresh
build and a compiled module is never older than its source; a finished build is reused.

:func:`activate` (the worker calls it as it boots, ``bench.accel`` for the benches) puts an
existing build of the current sources first on the import path and imports its compiled
modules; its caller logs one line: which build runs, or why the plain sources run instead
(no build for these sources, or it did not load). ``make test`` and the Docker image build it
first; ``make run`` builds it in the background while the stack serves on the plain sources,
then restarts the workers on it (``scripts/run.py``). ``tests/test_accel.py`` proves that the
build plays exactly the sources' moves.

This module uses the standard library alone at import time: it must run before any engine
module is imported.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("shared", "worker")
#: The game-independent hot path: the search, the random draws every engine makes and the
#: ``State`` base (an engine's state is a native class only if its base is one).
CORE_MODULES = ("shared.kernel.state", "shared.kernel.rng", "shared.search.ismcts",
                "shared.search.policies")
#: Written last into a finished build: the JSON list of the modules compiled there.
MANIFEST = ".built"
#: ``EVO_COMPILED=0`` in a worker's environment makes it run the plain sources (benches
#: compare the two; an operator may want to rule the build out).
SWITCH = "EVO_COMPILED"
#: Where builds are kept, if not ``var/accel/`` (an operator's choice; the tests keep theirs
#: apart). The builder and the workers read it alike.
DIR_VARIABLE = "EVO_ACCEL_DIR"
_IGNORED = shutil.ignore_patterns("__pycache__", "*.so", "*.pyc")
_SETUP = """
from setuptools import setup
from mypyc.build import mypycify
setup(name="evo-arena-accel", py_modules=[], packages=[],
      ext_modules=mypycify({paths!r}, opt_level="3"),
      script_args=["build_ext", "--inplace"])
"""

class BuildFailed(RuntimeError):
    """mypyc or the C compiler refused the sources; the message ends with their output."""


def source_digest(root: Path = ROOT) -> str:
    """A digest of every file the build copies, of the interpreter's ABI and of the machine."""
    digest = hashlib.sha256(f"{sys.implementation.cache_tag}:{platform.machine()}".encode())
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".so":
                digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def build_dir(root: Path = ROOT, base: Path | None = None) -> Path:
    """Where the build of ``root``'s current sources lives (built or not)."""
    default = os.environ.get(DIR_VARIABLE) or root / "var" / "accel"
    return Path(base or default) / source_digest(root)


def modules_to_compile() -> list[str]:
    """The core modules and every registered game's ``compiled_modules()``, without repeats."""
    from shared.games import all_games  # imported here: activation must not load engines

    names = list(CORE_MODULES)
    for game in all_games():
        names += [name for name in game.compiled_modules() if name not in names]
    return names


def build(root: Path = ROOT, base: Path | None = None, quiet: bool = True,
          modules: list[str] | None = None) -> Path:
    """The compiled build of the sources as they are now (built unless already there).

    Raises :class:`BuildFailed` when mypyc or the C compiler fails (a module mypy rejects
    is named in its message); a failed build leaves nothing behind.
    """
    target = build_dir(root, base)
    if (target / MANIFEST).exists():
        return target
    modules = modules if modules is not None else _modules_to_compile_in_child(root)
    partial = target.parent / f"{target.name}.tmp{os.getpid()}"
    shutil.rmtree(partial, ignore_errors=True)
    try:
        for package in PACKAGES:
            shutil.copytree(root / package, partial / package, ignore=_IGNORED)
        paths = [name.replace(".", "/") + ".py" for name in modules]
        done = subprocess.run([sys.executable, "-c", _SETUP.format(paths=paths)], cwd=partial,
                              stdout=subprocess.PIPE if quiet else None,
                              stderr=subprocess.STDOUT if quiet else None, text=True)
        if done.returncode != 0:
            tail = "\n".join((done.stdout or "").strip().splitlines()[-15:])
            raise BuildFailed(f"the mypyc build failed (exit {done.returncode})\n{tail}")
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    shutil.rmtree(partial / "build", ignore_errors=True)
    (partial / MANIFEST).write_text(json.dumps(modules))
    try:
        partial.rename(target)
    except OSError:  # another process finished the same build first
        shutil.rmtree(partial, ignore_errors=True)
    return target


def _modules_to_compile_in_child(root: Path) -> list[str]:
    """:func:`modules_to_compile`, asked of a child process.

    Listing the modules imports every engine; done here, it would leave this process unable
    to :func:`activate` the build it has just made (``bench.accel`` builds, then activates).
    """
    code = ("import json; from shared.infra import accel; "
            "print(json.dumps(accel.modules_to_compile()))")
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True,
                          text=True)
    if done.returncode != 0:
        raise BuildFailed(f"listing the modules to compile failed\n{done.stderr[-2000:]}")
    return list(json.loads(done.stdout))


@dataclass(frozen=True)
class Activation:
    """What :func:`activate` did: the build now running (``None``: the plain sources run)
    and the one line to log about it."""

    build: Path | None
    message: str


def activate(root: Path = ROOT, base: Path | None = None) -> Activation:
    """Run the compiled build of the current sources from now on, if there is one.

    Must be called before any compiled module is imported (the packages themselves and
    modules outside the build may be). It imports the build's compiled modules at once and
    undoes everything if one fails to load, so a process runs either the build or the plain
    sources, never a mix. It logs nothing: the caller logs the returned line once its
    logging is set up.
    """
    target = build_dir(root, base)
    manifest = target / MANIFEST
    if os.environ.get(SWITCH, "1") == "0":
        return Activation(None, f"compiled build: off ({SWITCH}=0); running the plain sources")
    if not manifest.exists():
        return Activation(None, f"compiled build: none for these sources ({target}); running "
                                "the plain sources (`python -m shared.infra.accel build` makes it)")
    modules: list[str] = json.loads(manifest.read_text())
    early = [name for name in modules if name in sys.modules]
    if early:
        return Activation(None, f"compiled build: not used, {', '.join(early)} already "
                                "imported from the sources; running the plain sources")
    before = set(sys.modules)
    saved_path = list(sys.path)
    # Every package of the two already imported (``shared``, and e.g. ``shared.kernel`` that
    # the worker's settings import) would look for its modules in the sources only: a
    # compiled engine would then meet an interpreted ``State`` base and crash the process.
    saved_package_paths = {name: list(module.__path__)
                           for name, module in list(sys.modules.items())
                           if name.split(".")[0] in PACKAGES and hasattr(module, "__path__")}
    sys.path.insert(0, str(target))
    for name in saved_package_paths:
        sys.modules[name].__path__.insert(0, str(target.joinpath(*name.split("."))))
    try:
        plain = [name for name in modules if not _is_compiled(importlib.import_module(name))]
        if plain:
            raise ImportError(f"{', '.join(plain)} imported as Python, not compiled")
    except Exception as error:  # any failure means: undo and run the plain sources
        sys.path[:] = saved_path
        for name, paths in saved_package_paths.items():
            sys.modules[name].__path__[:] = paths
        for name in set(sys.modules) - before:
            if name.split(".")[0] in PACKAGES or name.endswith("__mypyc"):
                del sys.modules[name]
        return Activation(None, f"compiled build: {target} did not load ({error}); running "
                                "the plain sources")
    return Activation(target, f"compiled build: running {target} ({len(modules)} compiled "
                              "modules)")


def _is_compiled(module: object) -> bool:
    return not str(getattr(module, "__file__", "")).endswith(".py")


def compiled_modules() -> list[str]:
    """The modules of a finished build's list that this process runs compiled (empty when it
    runs the plain sources)."""
    return sorted(name for name, module in list(sys.modules.items())
                  if name.split(".")[0] in PACKAGES and module is not None
                  and getattr(module, "__file__", None) and _is_compiled(module)
                  and not str(module.__file__).endswith("__init__.py"))


def lower_priority(nice: int) -> None:
    """Run this process and its children (mypyc, the C compiler) at niceness ``nice``.

    ``make run`` builds in the background while the stack serves: the build takes only the CPU
    nobody else wants. Where the kernel groups processes by session (autogroups), niceness
    ranks processes only within a session, so a session leader lowers its autogroup as well
    (as the worker does, ``worker/celery_app.py``); any refusal leaves the priority as it is.
    """
    if nice > os.getpriority(os.PRIO_PROCESS, 0):
        os.setpriority(os.PRIO_PROCESS, 0, nice)
    if os.getsid(0) != os.getpid():
        return
    autogroup = Path("/proc/self/autogroup")
    for _ in range(20):
        try:
            if int(autogroup.read_text().split()[-1]) < nice:
                autogroup.write_text(f"{nice}\n")
            return
        except BlockingIOError:  # EAGAIN: one unprivileged change per 0.1 s machine-wide
            time.sleep(0.11)
        except (OSError, ValueError):  # no autogroups, or not allowed: the niceness must do
            return


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["build", "where"],
                        help="build: build unless built, print its folder; where: print the "
                             "folder a build of these sources has (built or not)")
    parser.add_argument("--dir", type=Path,
                        help=f"where builds are kept (default ${DIR_VARIABLE}, else var/accel)")
    parser.add_argument("--verbose", action="store_true", help="show the compiler's output")
    parser.add_argument("--nice", type=int, default=0,
                        help="build at this niceness (make run builds in the background at 19)")
    options = parser.parse_args()
    if options.nice:
        lower_priority(options.nice)
    if options.command == "where":
        print(build_dir(base=options.dir))
        return
    try:
        print(build(base=options.dir, quiet=not options.verbose))
    except BuildFailed as error:
        sys.exit(f"shared.infra.accel: {error}\nIt needs a C compiler, the Python headers "
                 "and mypy; everything runs on the plain sources without it.")


if __name__ == "__main__":
    main()
