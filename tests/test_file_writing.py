"""A package's problem.yaml says whether submissions may write files (`allow_file_writing`,
false by default and in legacy packages): where they may not, the working directory, /tmp and
/dev/shm are read-only, warm and cold, in every tier that builds a view. A built-in suite keeps
its writable scratch directories."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from judge.formats.catalog import load_problem
from judge.runner import judge_submission
from judge.sandbox import hides_file_system, probe_tier, sandbox_tier
from tests.conftest import ROOT

ADDITION = ROOT / "tests/packages/addition"
HIDING_TIERS = [tier for tier in ("root", "bwrap", "unshare") if probe_tier(tier) is None and hides_file_system(tier)]
# Adds two numbers, and answers one too many if it could write a file anywhere it tried.
WRITER = '''import os
a, b = input().split()[:2]
wrote = 0
for path in ("out.txt", "/tmp/out.txt", "/dev/shm/out.txt"):
    try:
        with open(path, "w") as handle:
            handle.write("x")
        wrote = 1
    except OSError:
        pass
print(f"{float(a) + float(b) + wrote:.10g}")
'''
VERSION_2023 = "problem_format_version: 2023-07-draft\nname: Addition\n"


def addition_package(tmp_path: Path, problem_yaml: str | None) -> Path:
    """The addition package as it is (legacy), or with ``problem_yaml`` and exact answers only."""
    package = tmp_path / "addition"
    shutil.copytree(ADDITION / "data", package / "data")
    shutil.copytree(ADDITION / "input_validators", package / "input_validators")
    shutil.copy(ADDITION / "problem.yaml", package / "problem.yaml")
    (package / ".timelimit").write_text("2\n")
    if problem_yaml is not None:
        (package / "problem.yaml").write_text(problem_yaml + "limits:\n  memory: 256\n")
        shutil.rmtree(package / "data/secret/loose")
        shutil.rmtree(package / "data/sample")
    return package


def verdict(package: Path, source: Path, tier: str, cold: bool, monkeypatch) -> str:
    monkeypatch.setenv("JUDGE_SANDBOX", tier)
    sandbox_tier.cache_clear()
    try:
        result = judge_submission(load_problem(str(package), None), source, cold=cold)
    finally:
        sandbox_tier.cache_clear()
    return result.verdict.value


@pytest.fixture
def writer(tmp_path: Path) -> Path:
    source = tmp_path / "writer.py"
    source.write_text(WRITER)
    return source


@pytest.mark.parametrize("cold", [False, True], ids=["warm", "cold"])
@pytest.mark.parametrize("tier", HIDING_TIERS)
def test_a_package_that_does_not_allow_file_writing_gets_no_writable_directory(tier, cold, writer, tmp_path,
                                                                                monkeypatch):
    legacy = addition_package(tmp_path / "legacy", None)
    assert verdict(legacy, writer, tier, cold, monkeypatch) == "AC"
    refused = addition_package(tmp_path / "refused", VERSION_2023 + "allow_file_writing: false\n")
    assert verdict(refused, writer, tier, cold, monkeypatch) == "AC"


@pytest.mark.parametrize("cold", [False, True], ids=["warm", "cold"])
@pytest.mark.parametrize("tier", HIDING_TIERS)
def test_a_package_that_allows_file_writing_gets_its_scratch_directories(tier, cold, writer, tmp_path, monkeypatch):
    allowed = addition_package(tmp_path, VERSION_2023 + "allow_file_writing: true\n")
    assert verdict(allowed, writer, tier, cold, monkeypatch) == "WA"


@pytest.mark.parametrize("name", ["add.c", "multi_cpp", "multi_java", "multi_js", "multi_py"])
def test_every_language_runs_where_it_may_not_write(name, tmp_path, monkeypatch):
    legacy = addition_package(tmp_path, None)
    tier = HIDING_TIERS[0] if HIDING_TIERS else pytest.skip("no tier builds a view here")
    source = ADDITION / "submissions/accepted" / name
    for cold in (False, True):
        assert verdict(legacy, source, tier, cold, monkeypatch) == "AC", (name, cold)


def test_a_not_boolean_allow_file_writing_is_a_clear_error(tmp_path):
    from judge.errors import SuiteError

    package = addition_package(tmp_path, VERSION_2023 + "allow_file_writing: sometimes\n")
    with pytest.raises(SuiteError, match="allow_file_writing' must be true or false"):
        load_problem(str(package), None)


def test_a_built_in_suite_keeps_a_writable_working_directory(writer, tmp_path):
    stones = load_problem("stones")
    assert stones.may_write_files
