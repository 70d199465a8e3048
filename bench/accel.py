"""Run a bench on the compiled build (``shared/infra/accel.py``): the same moves, ~3x sooner.

Run from the repository root, e.g.::

    .venv/bin/python -m bench.accel bench.strength --game evolution --pairing hard,medium
    .venv/bin/python -m bench.accel --build      # only build; prints the build's folder

The strength figures count simulations, not seconds, so a faster engine changes how long the
200-match plan takes, never a move: ``bench.accel_check`` plays seeded random matches and
seeded searches of every game and ``tests/test_accel.py`` checks that the compiled build gives
exactly the pure-Python fingerprint. The build is the worker's (``var/accel/<digest>/``,
shared by every process of the same sources); this launcher builds it if needed, activates it
and runs the bench module from this repository.
"""

from __future__ import annotations

import argparse
import runpy
import sys
from pathlib import Path

from shared.infra import accel


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", action="store_true", help="only build; print its folder")
    parser.add_argument("--dir", type=Path, help="where builds are kept (default var/accel)")
    parser.add_argument("module", nargs="?", help="the bench module to run, e.g. bench.strength")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="its arguments")
    options = parser.parse_args()
    if not options.build and not options.module:
        parser.error("name a module to run, or --build")
    try:
        target = accel.build(base=options.dir, quiet=not options.build)
    except accel.BuildFailed as error:
        sys.exit(f"bench.accel: {error}\nIt needs a C compiler and the Python headers. "
                 f"`python -m {options.module or 'bench.strength'}` runs the same bench on "
                 "the plain sources.")
    if options.build:
        print(target)
        return
    activation = accel.activate(base=options.dir)
    print(f"bench.accel: {activation.message}", file=sys.stderr)
    if activation.build is None:
        sys.exit(1)
    sys.argv = [options.module, *options.args]
    runpy.run_module(options.module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
