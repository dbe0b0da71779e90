"""The wheel carries every shipped data file, and Parlor installed from it plays with
every brain from any directory; a data file missing from an installation is one clear
error line, never a weaker opponent.

The wheel is built offline from a copy of the tree (``pip wheel --no-build-isolation``,
with the setuptools of the dev extras), installed with ``pip install --target`` into a
folder, and run with only that folder on ``PYTHONPATH`` from an empty working directory,
so nothing can come from the source tree.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from importlib.metadata import version
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("pyproject.toml", "README.md", "engine", "brains", "tui", "saved")
"""What the build needs from the tree (tests, docs and benchmarks are not shipped)."""
DATA = {"saved/models": "*", "saved/games": "*.pgn", "saved/ratings": "*.json",
        "brains/data": "connect4-book*"}
"""Shipped data folders and the files in each that the wheel must carry."""
SETUPTOOLS_FLOOR = 77
"""The build backend's floor in pyproject.toml (SPDX ``license``, built-in bdist_wheel)."""


def _shipped_data() -> set[str]:
    """Every shipped data file of the source tree, as a path inside the wheel."""
    return {p.relative_to(ROOT).as_posix() for folder, pattern in DATA.items()
            for p in (ROOT / folder).glob(pattern) if p.is_file()}


def _pip(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PIP_NO_INDEX": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    return subprocess.run([sys.executable, "-m", "pip", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built from a copy of the tree."""
    have = version("setuptools")
    assert int(have.split(".")[0]) >= SETUPTOOLS_FLOOR, (
        f"setuptools {have} cannot build Parlor offline: the dev extras bring "
        f">={SETUPTOOLS_FLOOR} (make test, or pip install -e '.[dev]')")
    base = tmp_path_factory.mktemp("wheel")
    src = base / "src"
    src.mkdir()
    junk = shutil.ignore_patterns("__pycache__", "*.pyc", "build", "*.egg-info")
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, src / name, ignore=junk)
        else:
            shutil.copy2(ROOT / name, src / name)
    built = _pip("wheel", "--no-deps", "--no-build-isolation", "-w", base / "dist", ".",
                 cwd=src)
    assert built.returncode == 0, (
        "building the wheel offline failed (it needs the dev extras' setuptools: "
        f"pip install -e '.[dev]'):\n{built.stdout[-2000:]}\n{built.stderr[-2000:]}")
    (found,) = (base / "dist").glob("parlor-*.whl")
    return found


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder Parlor was installed into from the wheel (``pip install --target``)."""
    target = tmp_path_factory.mktemp("site")
    done = _pip("install", "--no-deps", "--target", target, wheel, cwd=target)
    assert done.returncode == 0, done.stderr[-2000:]
    return target


def _run_parlor(target: Path, code_or_args: list[str],
                cwd: Path) -> subprocess.CompletedProcess[str]:
    """Python with only ``target`` importable (besides the installed dependencies)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(PYTHONPATH=str(target), XDG_DATA_HOME=str(cwd / "data"))
    cwd.mkdir(exist_ok=True)
    return subprocess.run([sys.executable, *code_or_args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def test_wheel_carries_models_manifest_book_and_examples(wheel: Path):
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = _shipped_data()
    manifest = json.loads((ROOT / "saved/models/manifest.json").read_text(encoding="utf-8"))
    assert "saved/models/manifest.json" in expected
    assert {f"saved/models/{name}" for name in manifest["models"]} <= expected
    assert "brains/data/connect4-book.txt" in expected
    assert any(name.startswith("saved/games/") for name in expected)
    missing = expected - names
    assert not missing, f"shipped data missing from the wheel: {sorted(missing)}"
    assert "saved/__init__.py" in names and "tui/app/parlor.tcss" in names


CHECK_DATA = """
import sys
from pathlib import Path
target = Path(sys.argv[1]).resolve()
import brains, engine, saved, tui
for module in (brains, engine, saved, tui):
    assert Path(module.__file__).resolve().is_relative_to(target), module.__file__
from brains import c4book
from brains.registry import make_brain
from engine.formats import load_records
from engine.registry import new_game
from tui.player import paths
book = c4book.book()
assert len(book) > 0 and c4book.BOOK_PATH.resolve().is_relative_to(target)
state = new_game("connect4")
assert make_brain("mlp", "connect4", seed=1).choose(state) in state.legal_moves()
examples = sorted(paths.examples_dir().glob("*.pgn"))
assert examples and paths.examples_dir().resolve().is_relative_to(target)
games = {r.game for path in examples for r in load_records(path)}
print(len(book), "book positions;", len(examples), "examples of", sorted(games))
"""


@pytest.mark.slow  # a fresh virtual environment and an install: make bench runs it
def test_installed_wheel_plays_from_another_directory(installed: Path, tmp_path: Path):
    checked = _run_parlor(installed, ["-c", CHECK_DATA, str(installed)], tmp_path / "a")
    assert checked.returncode == 0, checked.stderr[-2000:]
    assert "connect4" in checked.stdout and "book positions" in checked.stdout
    played = _run_parlor(installed, ["-m", "tui.cli", "match", "connect4", "mlp",
                                     "alphabeta:easy", "--games", "1", "--seed", "1"],
                         tmp_path / "b")
    assert played.returncode == 0, played.stderr[-2000:]
    assert "Elo difference (mlp - alphabeta:easy)" in played.stdout


@pytest.mark.parametrize("data, spec", [
    ("brains/data/connect4-book.txt", "alphabeta:hard"),
    ("saved/models/connect4-mlp.joblib", "mlp"),
])
def test_missing_data_file_is_one_clear_error(installed: Path, tmp_path: Path, data: str,
                                              spec: str):
    target = tmp_path / "site"
    shutil.copytree(installed, target)
    (target / data).unlink()
    run = _run_parlor(target, ["-m", "tui.cli", "match", "connect4", spec, "random",
                               "--games", "1", "--seed", "1"], tmp_path / "run")
    assert run.returncode != 0
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in run.stderr, run.stderr[-2000:]
    assert Path(data).name in lines[0] and "missing" in lines[0]


def test_pyproject_build_floor_and_license():
    """The build backend and the dev extras agree on the setuptools the offline build
    uses, and the license is an SPDX string (the table form makes setuptools warn)."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    floor = f"setuptools>={SETUPTOOLS_FLOOR}"
    assert project["build-system"]["requires"] == [floor]
    assert floor in project["project"]["optional-dependencies"]["dev"]
    assert project["project"]["license"] == "MIT"
