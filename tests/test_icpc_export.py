"""`judge export`: a built-in problem written as a package reads back, and verifies, in this judge."""

from __future__ import annotations

import shutil
import subprocess
import sys

from conftest import ROOT, run_judge

from judge.formats.catalog import load_problem
from judge.formats.icpc.loading import load_package

EXAMPLES = ROOT / "examples/any-answer"


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


def test_a_custom_checker_that_reads_the_input_is_exported_and_judges_as_on_the_suite(tmp_path):
    target = tmp_path / "pairsum"
    done = run_judge("export", "pairsum", str(target), "--problems", str(EXAMPLES))
    assert done.returncode == 0, done.stderr
    assert sorted(path.name for path in (target / "output_validator").iterdir()) == ["validate.py"]
    suite = run_judge("test", "pairsum", "--problems", str(EXAMPLES))
    package = run_judge("test", str(target))
    assert suite.returncode == 0 and package.returncode == 0, package.stdout + package.stderr
    # The same verdict for every example solution, and the checker's own message for the wrong one.
    for name, verdict in [("last_pair.py", "got AC"), ("pairs.c", "got AC"),
                          ("same_position_twice.py", "got WA on ")]:
        assert f"{name}  ok  {verdict}" in suite.stdout and f"{name}  ok  {verdict}" in package.stdout
    assert "positions must satisfy 1 <= i < j <= 3, got 1 1" in package.stdout


def test_the_exported_output_validator_judges_a_pair_the_answer_file_does_not_hold(tmp_path):
    target = tmp_path / "pairsum"
    assert run_judge("export", "pairsum", str(target), "--problems", str(EXAMPLES)).returncode == 0
    (tmp_path / "in").write_text("4 6\n1 5 2 4\n")
    (tmp_path / "ans").write_text("1 2\n")
    feedback = tmp_path / "feedback"
    feedback.mkdir()

    def judged(output: str) -> int:
        return subprocess.run([sys.executable, str(target / "output_validator/validate.py"), str(tmp_path / "in"),
                               str(tmp_path / "ans"), str(feedback)], input=output, text=True, check=False).returncode

    assert judged("3 4\n") == 42  # 2 + 4 = 6: right, though not the answer file's pair
    assert judged("1 3\n") == 43 and "a_1 + a_3 = 3, not 6" in (feedback / "judgemessage.txt").read_text()


def test_a_checker_asking_for_the_case_is_refused_with_what_to_ask_for_instead(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(EXAMPLES, project)
    checker = project / "checkers/pairsum.py"
    checker.write_text(checker.read_text().replace("*, input: str)", "*, case)").replace(
        "tokens = input.split()", "tokens = case.input.split()"))
    done = run_judge("export", "pairsum", str(tmp_path / "out"), "--problems", str(project))
    assert done.returncode == 2 and "asks for `case`" in done.stderr and "ask for `input`" in done.stderr


def test_function_style_problems_and_non_empty_targets_are_refused(tmp_path):
    done = run_judge("export", "footholds", str(tmp_path / "f"))
    assert done.returncode == 2 and "graded by calling a function" in done.stderr
    # Why, and what to do instead.
    assert "no way to call as a function" in done.stderr and "write a stdio version" in done.stderr
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "file").write_text("x")
    done = run_judge("export", "stones", str(tmp_path / "busy"))
    assert done.returncode == 2 and "not empty" in done.stderr


def test_problemtools_reads_an_exported_problem_back(tmp_path):
    import pytest

    verifyproblem = shutil.which("verifyproblem")
    if verifyproblem is None:
        pytest.skip("problemtools' verifyproblem is not installed (pip install problemtools)")
    target = tmp_path / "stones"
    assert run_judge("export", "stones", str(target)).returncode == 0
    done = subprocess.run([verifyproblem, str(target), "-p", "config", "data"], capture_output=True, text=True,
                          timeout=600, check=False)
    assert "tested: 0 errors" in done.stdout + done.stderr, done.stdout + done.stderr
