"""The compiled build (``shared/infra/accel.py``) plays exactly the sources' moves, every game."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from shared.games import all_games
from shared.infra import accel

# Not in `make test-fast`: the build takes a minute or more of CPU and its check plays seeded
# matches on the build and on the sources.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
CHECK = ["bench.accel_check", "--matches", "60", "--searches", "2", "--simulations", "150"]


def _run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=600, env=env)


def _check(*args: str) -> dict[str, object]:
    done = _run(*args)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_every_game_declares_modules_the_build_compiles() -> None:
    wanted = accel.modules_to_compile()
    assert set(accel.CORE_MODULES) <= set(wanted)
    for game in all_games():
        assert game.compiled_modules(), f"{game.id} compiles nothing"
        assert set(game.compiled_modules()) <= set(wanted)


def test_compiled_build_plays_the_same_moves_as_the_sources(compiled_build: Path) -> None:
    plain = _check(*CHECK)
    compiled = _check("bench.accel", *CHECK)
    assert plain["compiled"] == []
    # Every module of the build's list really ran compiled, so equal digests are not two
    # plain runs; the list covers every registered game.
    manifest = json.loads((compiled_build / accel.MANIFEST).read_text())
    assert sorted(compiled["compiled"]) == sorted(manifest) == sorted(accel.modules_to_compile())
    assert set(plain["games"]) == {game.id for game in all_games()}
    assert compiled["games"] == plain["games"]


def test_any_source_edit_gives_a_new_build(tmp_path: Path) -> None:
    for package in accel.PACKAGES:
        (tmp_path / package).mkdir()
        (tmp_path / package / "module.py").write_text("X = 1\n")
    before = accel.source_digest(tmp_path)
    (tmp_path / "worker" / "module.py").write_text("X = 2\n")
    edited = accel.source_digest(tmp_path)
    assert edited != before
    # Byte code is not source: it must not force a rebuild.
    (tmp_path / "shared" / "__pycache__").mkdir()
    (tmp_path / "shared" / "__pycache__" / "module.cpython-311.pyc").write_bytes(b"\0")
    assert accel.source_digest(tmp_path) == edited


def test_a_failed_build_says_how_to_run_plain_and_leaves_no_build(tmp_path: Path) -> None:
    env = {**os.environ, "CC": "false"}  # a C compiler that always fails
    done = _run("bench.accel", "--dir", str(tmp_path), "bench.accel_check", env=env)
    assert done.returncode == 1
    assert "the mypyc build failed" in done.stderr
    assert "python -m bench.accel_check" in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_without_a_build_the_plain_sources_run_with_one_line(tmp_path: Path) -> None:
    code = ("import json, sys; from pathlib import Path; from shared.infra import accel; "
            f"a = accel.activate(base=Path({str(tmp_path)!r})); "
            "from shared.search import ismcts; "
            "print(json.dumps([a.build is None, a.message, ismcts.__file__]))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    unbuilt, message, search_file = json.loads(done.stdout)
    assert unbuilt and search_file.endswith(".py")
    assert "running the plain sources" in message and str(tmp_path) in message


def test_a_build_that_does_not_load_is_undone(tmp_path: Path) -> None:
    # A manifest naming a module the build did not compile: activation must not half-apply.
    target = accel.build_dir(ROOT, tmp_path)
    target.mkdir(parents=True)
    (target / accel.MANIFEST).write_text(json.dumps(["shared.kernel.rng"]))
    code = ("import json, sys; from pathlib import Path; from shared.infra import accel; "
            f"a = accel.activate(base=Path({str(tmp_path)!r})); "
            "from shared.kernel import rng; "
            "print(json.dumps([a.build is None, a.message, rng.__file__, sys.path[0]]))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    undone, message, rng_file, first_path = json.loads(done.stdout)
    assert undone and "did not load" in message
    assert rng_file == str(ROOT / "shared" / "kernel" / "rng.py")
    assert first_path != str(target)


def test_the_switch_turns_the_build_off(compiled_build: Path) -> None:
    code = ("import json; from shared.infra import accel; a = accel.activate(); "
            "from shared.search import ismcts; "
            "print(json.dumps([a.build is None, a.message, ismcts.__file__]))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env={**os.environ, accel.SWITCH: "0"})
    assert done.returncode == 0, done.stderr
    off, message, search_file = json.loads(done.stdout)
    assert off and "off" in message and search_file.endswith(".py")


_NATIVE_PROBE = """
import json, random, sys
from shared.infra import accel
activation = accel.activate()
from shared.games import all_games
from tests.worker.toygame import TOY
from shared.search import SearchBudget, SearchConfig, search_move
states = {}
for game in all_games():
    state = game.new_state(game.min_players, game.resolve_options({}), random.Random(0))
    states[game.id] = [type(state).__name__, hasattr(state, "__dict__")]
toy = TOY.new_state(3, {}, random.Random(1))
seat = toy.to_move()[0]
toy_moves = []
stats = {}
move = search_move(TOY, toy.view(seat), seat, SearchBudget(60, 60.0), random.Random(2),
                   stats=stats, config=SearchConfig(stop_when_decided=False))
toy_moves.append([move, stats["visits"]])
print(json.dumps({"build": activation.build is not None, "states": states, "toy": toy_moves}))
"""


def _probe(env: dict[str, str]) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", _NATIVE_PROBE], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_engine_states_are_native_classes_in_the_build(compiled_build: Path) -> None:
    # A native class keeps its attributes in fixed slots: its instances have no __dict__.
    # A state deriving from an interpreted base (as from abc.ABC before) would have one.
    compiled = _probe(dict(os.environ))
    plain = _probe({**os.environ, accel.SWITCH: "0"})
    assert compiled["build"] and not plain["build"]
    assert set(compiled["states"]) == {game.id for game in all_games()}  # type: ignore[arg-type]
    for game_id, (name, has_dict) in compiled["states"].items():  # type: ignore[attr-defined]
        assert not has_dict, f"{game_id}: {name} is not a native class in the build"
    # An interpreted engine (the tests' toy game) still derives from the compiled State, and
    # both searches play it exactly as on the plain sources.
    assert compiled["toy"] == plain["toy"]


def test_a_process_that_builds_can_then_activate_the_build(tmp_path: Path) -> None:
    # bench.accel builds, then activates, in one process: building must not import the
    # engines it compiles (activation refuses a module already imported from the sources).
    # The setup script is replaced by one that compiles nothing, so the "build" is instant
    # and activation then fails on its first module for a different, stated reason.
    code = ("import json, sys; from pathlib import Path; from shared.infra import accel; "
            "accel._SETUP = 'print({paths!r})'; "
            f"target = accel.build(base=Path({str(tmp_path)!r})); "
            "engines = sorted(m for m in sys.modules if m.startswith('shared.games')); "
            f"a = accel.activate(base=Path({str(tmp_path)!r})); "
            "print(json.dumps([engines, a.message, "
            "json.loads((target / accel.MANIFEST).read_text())]))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    engines, message, manifest = json.loads(done.stdout.strip().splitlines()[-1])
    assert engines == []
    assert "already imported" not in message and "did not load" in message
    assert manifest == accel.modules_to_compile()
