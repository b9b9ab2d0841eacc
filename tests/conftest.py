"""Shared helpers: the project root, a runner for the `judge` CLI, and small test programs."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# The suite also runs with a weaker tier forced (JUDGE_SANDBOX=...), where `judge grade` refuses
# unless allowed; tests of that refusal clear this.
if os.environ.get("JUDGE_SANDBOX") == "none":
    os.environ.setdefault("JUDGE_ALLOW_WEAK_SANDBOX", "1")
# `judge run` searches up to 10 s for a counterexample whenever a hidden case fails; the tests of
# that search ask for it (--explain), the others judge without it.
os.environ.setdefault("JUDGE_EXPLAIN_SECONDS", "0")
# Every command in its own process, unless a test (tests/test_resident.py) or the person running
# the suite asks for the resident judge.
os.environ.setdefault("JUDGE_RESIDENT", "0")
PROGRAMS = Path(__file__).resolve().parent / "programs"

# The test modules that hold on every system: pure logic, and the judge as the system it runs on
# offers it. Every other module runs programs in Linux's sandbox tiers, reads /proc or starts
# Linux's own tools: on Windows and macOS it is not imported, and its one item is skipped with
# LINUX_ONLY_REASON. A test of a module here that needs Linux is marked ``linux_only``.
RUN_EVERYWHERE = {"test_catalog", "test_ci_files", "test_hypothesis_search", "test_icpc_default_validator",
                  "test_other_systems", "test_returned_value", "test_this_system", "test_vocabulary"}
LINUX_ONLY_REASON = ("needs Linux: runs programs in the sandbox's namespaced tiers or reads /proc "
                     "(tests/test_other_systems.py simulates Windows and macOS there)")
ON_LINUX = sys.platform.startswith("linux")


class LinuxOnlyModule(pytest.File):
    """A Linux-only test module where this is not Linux: not imported (it may import what the
    system lacks), one item that says why it does not run."""

    def collect(self):
        item = LinuxOnlySkipped.from_parent(self, name=self.path.stem)
        item.add_marker(pytest.mark.skip(reason=LINUX_ONLY_REASON))
        yield item


class LinuxOnlySkipped(pytest.Item):
    def runtest(self):
        pass  # skipped by its marker

    def reportinfo(self):
        return self.path, 0, f"{self.path.name}: Linux only"


def pytest_pycollect_makemodule(module_path, parent):
    if not ON_LINUX and module_path.stem not in RUN_EVERYWHERE:
        return LinuxOnlyModule.from_parent(parent, path=module_path)
    return None


def pytest_collection_modifyitems(config, items):
    if ON_LINUX:
        return
    for item in items:
        marker = item.get_closest_marker("linux_only")
        if marker:
            item.add_marker(pytest.mark.skip(reason=marker.kwargs.get("reason", LINUX_ONLY_REASON)))


def built_in_problems() -> list[str]:
    """The ids of the problems this repository ships: every test over "all problems" iterates
    these, so that a new problem is tested by adding its files."""
    from judge.formats.catalog import known_problems
    return known_problems(ROOT)


def example_solutions(problem_id: str):
    """(path, promised verdict) of a shipped problem's example solutions."""
    from judge.formats.catalog import load_problem
    return load_problem(problem_id, ROOT).example_solutions()


def project_with(tmp_path: Path, problem_id: str, folders=("cases", "reference", "validators", "strategies")) -> Path:
    """A project folder holding one shipped problem's suite and its parts, to change in a test."""
    for folder in folders:
        (tmp_path / folder).mkdir(exist_ok=True)
        name = f"{problem_id}.yaml" if folder == "cases" else f"{problem_id}.py"
        shutil.copy(ROOT / folder / name, tmp_path / folder / name)
    return tmp_path


@pytest.fixture
def cache(monkeypatch):
    """An empty cache the sandbox's users can reach (pytest's tmp_path is its owner's only)."""
    with tempfile.TemporaryDirectory(prefix="judge-test-cache-", dir="/tmp") as folder:
        os.chmod(folder, 0o755)
        monkeypatch.setenv("JUDGE_CACHE", folder)
        yield Path(folder)


def run_judge(*args: str, cwd: Path | None = None, env: dict | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    """Run the real `judge` command line in a subprocess, importing the judge of this checkout
    (not whichever one is installed) from any working directory."""
    full_env = {**os.environ, **(env or {})}
    full_env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), full_env.get("PYTHONPATH")]))
    return subprocess.run([sys.executable, "-m", "judge", *args], capture_output=True, text=True, check=False,
                          cwd=cwd or ROOT, env=full_env, timeout=timeout)


def judge_json(*args: str, **kwargs) -> dict:
    done = run_judge(*args, "--format", "json", **kwargs)
    assert done.stdout, done.stderr
    return json.loads(done.stdout)


def forcing_tier(tier: str, monkeypatch):
    """Run the test with ``tier`` forced (for a fixture to yield from). Without root a `none` run
    is the judge's own user, and a case that kills every process it can would end the tests."""
    from judge.sandbox import sandbox_tier

    if tier == "none" and os.geteuid() != 0:
        pytest.skip("without root a run in the `none` tier runs as the judge's own user")
    monkeypatch.setenv("JUDGE_SANDBOX", tier)
    sandbox_tier.cache_clear()
    yield tier
    sandbox_tier.cache_clear()


def machine_tiers() -> list[str]:
    """The isolation tiers this machine has, strongest first."""
    from judge.sandbox import probe_tier

    return [tier for tier in ("root", "bwrap", "unshare", "none") if probe_tier(tier) is None]


@pytest.fixture(params=machine_tiers())
def tier(request, monkeypatch):
    """Each tier this machine has, forced for the test."""
    yield from forcing_tier(request.param, monkeypatch)


@pytest.fixture
def write_program(tmp_path: Path):
    """Write a small program to a file and return its path."""
    def write(name: str, text: str) -> Path:
        path = tmp_path / name
        path.write_text(text)
        return path
    return write


@pytest.fixture
def project(pytester):
    """pytester in a copy of the built-in problems' suites, references and validators."""
    for folder in ("cases", "reference", "validators"):
        shutil.copytree(ROOT / folder, pytester.path / folder)
    return pytester


def make_class(folder: Path, files: dict[str, Path | str]) -> Path:
    """files maps 'student/problem.ext' to a solution path (copied) or text (written)."""
    for name, source in files.items():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(source, Path):
            shutil.copy(source, target)
        else:
            target.write_text(source)
    return folder


def named_cases(result: dict, problem, problems: Path | None = None) -> dict[str, dict]:
    """`judge run`'s JSON cases by each case's own name: a report students may read numbers the
    hidden cases ("hidden 2", in the problem's order; judge/model/feedback.py)."""
    from judge.formats.catalog import find_problem
    from judge.model.feedback import shown_names

    real = {shown: name for name, shown in shown_names(find_problem(str(problem), problems).load()).items()}
    return {real.get(case["name"], case["name"]): case for case in result["cases"]}


def judged_whole(problem, solution, *case_names: str) -> dict:
    """``solution`` judged on ``problem`` (its cases ``case_names``, else all) in this process,
    the result whole in `judge run`'s JSON shape: the teacher's view, with every hidden case's
    name, measures and message, which a report students read does not carry (judge/model/feedback.py)."""
    from judge.formats.catalog import find_problem
    from judge.renderers.report import result_to_json
    from judge.runner import judge_submission

    loaded = find_problem(str(problem)).load_to_judge()
    cases = [loaded.case(name) for name in case_names] or None
    return result_to_json(judge_submission(loaded, Path(solution), cases=cases))
