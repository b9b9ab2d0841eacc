"""`judge export`: a built-in problem written as a package reads back, and verifies, in this judge."""

from __future__ import annotations

from conftest import run_judge

from judge.catalog import load_problem
from judge.icpc.loading import load_package


def test_exported_problem_reads_back_with_the_same_cases_and_answers(tmp_path):
    target = tmp_path / "stones"
    done = run_judge("export", "stones", str(target))
    assert done.returncode == 0, done.stderr
    original, exported = load_problem("stones"), load_package(target)
    assert len(exported.cases) == len(original.cases)
    assert exported.cases[0].name == "sample/01-sample-1" and exported.cases[0].visibility == "sample"
    assert exported.cases[0].expected == "SK\n"
    assert (exported.time_limit, exported.memory_limit) == (original.time_limit, original.memory_limit)
    assert exported.package.cases[exported.cases[1].name].output_validator_args == ("case_sensitive",)
    assert (target / "submissions/run_time_error").is_dir() and (target / "input_validators/validate.py").is_file()


def test_exported_problem_passes_judge_test(tmp_path):
    target = tmp_path / "omok"
    assert run_judge("export", "omok", str(target)).returncode == 0
    done = run_judge("test", str(target), timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "input validator validate.py" in done.stdout and "accepts all" in done.stdout


def test_function_style_problems_and_non_empty_targets_are_refused(tmp_path):
    done = run_judge("export", "footholds", str(tmp_path / "f"))
    assert done.returncode == 2 and "graded by calling a function" in done.stderr
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "file").write_text("x")
    done = run_judge("export", "stones", str(tmp_path / "busy"))
    assert done.returncode == 2 and "not empty" in done.stderr


def test_problemtools_reads_an_exported_problem_back(tmp_path):
    import shutil
    import subprocess

    import pytest

    verifyproblem = shutil.which("verifyproblem")
    if verifyproblem is None:
        pytest.skip("problemtools' verifyproblem is not installed (pip install problemtools)")
    target = tmp_path / "stones"
    assert run_judge("export", "stones", str(target)).returncode == 0
    done = subprocess.run([verifyproblem, str(target), "-p", "config", "data"], capture_output=True, text=True,
                          timeout=600, check=False)
    assert "tested: 0 errors" in done.stdout + done.stderr, done.stdout + done.stderr
