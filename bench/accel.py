"""Run a bench with the engine and the search compiled by mypyc: the same moves, ~3x sooner.

Run from the repository root, e.g.::

    .venv/bin/python -m bench.accel bench.strength --game evolution --pairing hard,medium
    .venv/bin/python -m bench.accel --build      # only build; prints the build's folder

The strength figures count simulations, not seconds, so a faster engine changes how long the
200-match plan takes, never a move: ``bench.accel_check`` plays seeded random matches and
seeded searches and ``tests/test_accel.py`` checks that the compiled build gives exactly the
pure-Python fingerprint.

The build is a copy of ``shared/`` and ``worker/`` under ``var/accel/<digest of their
sources>/`` with the ``COMPILED`` modules compiled in place; the launcher puts that folder
first on ``sys.path`` and runs the bench module from this repository. Editing any source gives
a new digest and so a fresh build: a compiled module can never be older than its source.
Nothing else uses the build (the API and the worker import the sources as they are). Builds of
earlier sources are left in place (a few MB each), since a run of hours may still be using one;
``make clean`` removes them with the rest of ``var/``.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import runpy
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("shared", "worker")
#: Modules mypyc compiles (the hot paths of the Evolution engines and the search); the rest
#: stay Python.
COMPILED = (
    "shared/rng.py", "shared/games/evolution/cards.py",
    "shared/games/evolution/model.py", "shared/games/evolution/attack.py",
    "shared/games/evolution/feeding.py", "shared/games/evolution/chain.py",
    "shared/games/evolution/development.py",
    "shared/games/evolution/state.py", "shared/games/evolution/views.py",
    "shared/games/evolution/policy.py",
    "shared/games/evolution_ns/cards.py", "shared/games/evolution_ns/model.py",
    "shared/games/evolution_ns/feeding.py", "shared/games/evolution_ns/play.py",
    "shared/games/evolution_ns/state.py", "shared/games/evolution_ns/views.py",
    "worker/search/ismcts.py", "worker/search/policies.py",
)
_IGNORED = shutil.ignore_patterns("__pycache__", "*.so", "*.pyc")
_SETUP = """
from setuptools import setup
from mypyc.build import mypycify
setup(name="evo-arena-accel", py_modules=[], packages=[],
      ext_modules=mypycify({modules!r}, opt_level="3"),
      script_args=["build_ext", "--inplace"])
"""


def source_digest(root: Path = ROOT) -> str:
    """A digest of every source and data file the build copies, and of the compiled list."""
    digest = hashlib.sha256(repr(COMPILED).encode())
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".so":
                digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def build(root: Path = ROOT, base: Path | None = None, quiet: bool = True) -> Path:
    """The compiled build of the sources as they are now (built unless already there)."""
    base = base or root / "var" / "accel"
    target = base / source_digest(root)
    if (target / ".built").exists():
        return target
    partial = base / (target.name + f".tmp{os.getpid()}")
    shutil.rmtree(partial, ignore_errors=True)
    try:
        for package in PACKAGES:
            shutil.copytree(root / package, partial / package, ignore=_IGNORED)
        subprocess.run([sys.executable, "-c", _SETUP.format(modules=list(COMPILED))],
                       cwd=partial, check=True, stdout=subprocess.DEVNULL if quiet else None)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    shutil.rmtree(partial / "build", ignore_errors=True)
    (partial / ".built").touch()
    try:
        partial.rename(target)
    except OSError:  # another process finished the same build first
        shutil.rmtree(partial, ignore_errors=True)
    return target


def compiled_modules() -> list[str]:
    """The ``COMPILED`` modules this process imported as compiled extensions (empty when it
    runs the plain sources)."""
    found = []
    for path in COMPILED:
        name = path.removesuffix(".py").replace("/", ".")
        module = sys.modules.get(name)
        if module is not None and not str(module.__file__).endswith(".py"):
            found.append(name)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", action="store_true", help="only build; print its folder")
    parser.add_argument("--dir", type=Path, help="where builds are kept (default var/accel)")
    parser.add_argument("module", nargs="?", help="the bench module to run, e.g. bench.strength")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="its arguments")
    options = parser.parse_args()
    if not options.build and not options.module:
        parser.error("name a module to run, or --build")
    if any(name.split(".")[0] in PACKAGES for name in sys.modules):
        raise RuntimeError("bench.accel must run before shared/worker are imported")
    try:
        target = build(base=options.dir, quiet=not options.build)
    except subprocess.CalledProcessError as error:
        sys.exit(f"bench.accel: the mypyc build failed ({error}); it needs a C compiler and "
                 f"the Python headers. `python -m {options.module or 'bench.strength'}` runs "
                 "the same bench on the plain sources.")
    if options.build:
        print(target)
        return
    sys.path.insert(0, str(target))
    sys.argv = [options.module, *options.args]
    runpy.run_module(options.module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
