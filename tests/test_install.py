"""A regular (not editable) install, used from another directory: the built-in problems travel
inside the package, and problem discovery follows its documented order."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, built_in_problems

SKIP = shutil.ignore_patterns(".git", "build", "*.egg-info", "__pycache__", ".judge", ".hypothesis",
                              ".pytest_cache", "gradescope")


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The judge installed from a copy of this checkout into a folder of its own."""
    base = tmp_path_factory.mktemp("install")
    source = base / "source"
    shutil.copytree(ROOT, source, ignore=SKIP)
    target = base / "site"
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                           "--target", str(target), str(source)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    shutil.rmtree(source)  # nothing may depend on the checkout it came from
    return target


def judge(installed: Path, *args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess:
    environment = {key: value for key, value in os.environ.items() if key not in ("JUDGE_PROBLEMS", "JUDGE_ROOT")}
    environment.update(PYTHONPATH=str(installed), **env)
    return subprocess.run([sys.executable, "-m", "judge", *args], capture_output=True, text=True, cwd=cwd,
                          env=environment, check=False, timeout=300)


def test_a_regular_install_carries_the_built_in_problems(installed, tmp_path):
    listing = judge(installed, "list", cwd=tmp_path)
    assert listing.returncode == 0, listing.stderr
    for problem_id in built_in_problems():
        assert problem_id in listing.stdout
    solution = tmp_path / "mine.py"
    solution.write_text((ROOT / "solutions/stones/accepted/game_dp.py").read_text())
    run = judge(installed, "run", "stones", str(solution), "--no-record", cwd=tmp_path)
    assert run.returncode == 0 and "22/22 cases passed" in run.stdout, run.stdout + run.stderr


def test_an_empty_cases_folder_does_not_hide_the_built_in_problems(installed, tmp_path):
    (tmp_path / "cases").mkdir()
    listing = judge(installed, "list", cwd=tmp_path)
    assert listing.returncode == 0 and "stones" in listing.stdout


def test_no_problems_is_an_error_everywhere(installed, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    for args in (["list"], ["test"], ["grade", str(empty)], ["run", "stones", __file__]):
        done = judge(installed, *args, "--problems", str(empty), cwd=tmp_path)
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert "no problems found" in done.stderr or "unknown problem" in done.stderr, (args, done.stderr)
        assert "Traceback" not in done.stderr


def test_the_working_directory_problems_come_first_then_the_built_in_ones(installed, tmp_path):
    (tmp_path / "cases").mkdir()
    suite = (ROOT / "cases/stones.yaml").read_text().replace("id: stones", "id: pebbles")
    (tmp_path / "cases/pebbles.yaml").write_text(suite)
    listing = judge(installed, "list", cwd=tmp_path)
    assert "pebbles" in listing.stdout and "sokoban" in listing.stdout
    only = judge(installed, "list", cwd=tmp_path, JUDGE_PROBLEMS=str(tmp_path))
    assert "pebbles" in only.stdout and "sokoban" not in only.stdout


def test_stress_save_leaves_an_installed_built_in_suite_alone(installed, tmp_path):
    wrong = tmp_path / "wrong.py"
    wrong.write_text((ROOT / "solutions/stones/wrong_answer/even_wins.py").read_text())
    suite = installed / "judge/_builtin/cases/stones.yaml"
    before = suite.read_bytes()
    done = judge(installed, "stress", "stones", str(wrong), "--save", "--examples", "20", cwd=tmp_path)
    assert done.returncode == 2 and "built-in problem of the installed judge" in done.stderr, done.stderr
    assert suite.read_bytes() == before


def test_a_regular_install_holds_the_bytecode_of_every_module(installed):
    """pip compiles the package when it installs it, so that a start reads bytecode even where
    none may be written (a read-only install, PYTHONDONTWRITEBYTECODE as some CI images set):
    compiling the modules a one-case run imports costs it about half its time again."""
    import importlib.util

    # (the built-in problems' files are data: one of their solutions is a syntax error on purpose)
    modules = [path for path in (installed / "judge").rglob("*.py") if not {"templates", "_builtin"} & set(path.parts)]
    missing = [str(path.relative_to(installed)) for path in modules
               if not Path(importlib.util.cache_from_source(str(path))).is_file()]
    assert len(modules) > 100 and not missing, missing[:10]
