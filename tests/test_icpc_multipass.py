"""Multi-pass problems (2025-09, "Multi-pass validation" and "Multi-pass limit"): the submission
runs again on the input the output validator writes to nextpass.in, at most
limits.validation_passes times per case, with the time limit applying to each pass, the feedback
directory kept between passes; batch, or interactive when the problem is both.

tests/packages/remember: in pass 1 a number is to be written as a note of letters, in pass 2 the
note comes back and the number is due. Its validator finds the note of pass 1 in the feedback
directory, and refuses (exit 1, IE) a pass-2 input file that is not the pass's own."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import ROOT, judged_whole, run_judge

from judge.formats.icpc.loading import load_package
from judge.formats.icpc.package import PackageError

PACKAGE = ROOT / "tests" / "packages" / "remember"
SUBMISSIONS = PACKAGE / "submissions"


@pytest.fixture
def remember_copy(tmp_path):
    """A copy of the package, to change in one way; ``problem_type`` replaces its type."""
    def copy(problem_type: str | None = None) -> Path:
        target = tmp_path / "remember"
        shutil.copytree(PACKAGE, target)
        if problem_type:
            yaml_path = target / "problem.yaml"
            yaml_path.write_text(yaml_path.read_text().replace("type: multi-pass", f"type: {problem_type}"))
        return target
    return copy


def judged(package: Path, solution: Path, *extra: str) -> dict:
    """The result whole, its hidden cases named and with their messages (the validator's, pass by
    pass): what judging decided, not what a student's report shows of it. ``extra``: --case NAME."""
    return judged_whole(package, solution, *extra[1::2])


def verdicts(result: dict) -> dict[str, str]:
    return {case["name"]: case["verdict"] for case in result["cases"]}


def messages(result: dict) -> dict[str, str]:
    return {case["name"]: case["message"] for case in result["cases"]}


def always_asking_validator(package: Path, exit_code: int = 42) -> None:
    """Replace the package's validator by one that asks for another pass every time."""
    (package / "output_validator/validator.py").write_text(
        "import sys\n"
        "open(sys.argv[3] + 'nextpass.in', 'w').write('encode\\n1\\n')\n"
        f"sys.exit({exit_code})\n")


# ---------------------------------------------------------------------------------------------
# Loading

def test_the_type_and_the_passes_are_read():
    package = load_package(PACKAGE).package
    assert package.multi_pass and not package.interactive
    assert package.validation_passes == 2  # the format's default


def test_legacy_validation_custom_multi_pass_is_read_as_multi_pass(remember_copy):
    package = remember_copy()
    (package / "problem.yaml").write_text("name: Remember\nvalidation: custom multi-pass\n"
                                          "limits:\n  time_limit: 1\n  validation_passes: 3\n")
    loaded = load_package(package).package
    assert loaded.multi_pass and loaded.validation_passes == 3


@pytest.mark.parametrize("passes", ["1", "two", "2.5", "true"])
def test_validation_passes_must_be_an_integer_of_at_least_two(remember_copy, passes):
    package = remember_copy()
    yaml_path = package / "problem.yaml"
    yaml_path.write_text(yaml_path.read_text() + f"  validation_passes: {passes}\n")
    with pytest.raises(PackageError, match="'limits.validation_passes' must be an integer of at least 2"):
        load_package(package)


def test_a_multi_pass_problem_needs_its_own_output_validator(remember_copy):
    package = remember_copy()
    shutil.rmtree(package / "output_validator")
    done = run_judge("test", str(package))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "asks for a custom output validator" in done.stderr


# ---------------------------------------------------------------------------------------------
# Judging

def test_judge_test_agrees_with_the_submission_folders():
    done = run_judge("test", str(PACKAGE))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "multi-pass" in done.stdout


@pytest.mark.parametrize(("solution", "expected"), [
    ("accepted/remember.py", {"sample/1": "AC", "secret/01-zero": "AC", "secret/02-two-letters": "AC",
                              "secret/03-largest": "AC"}),
    ("accepted/remember.c", {"sample/1": "AC", "secret/01-zero": "AC", "secret/02-two-letters": "AC",
                             "secret/03-largest": "AC"}),
    # Right in pass 1 (any letters are a note), wrong in pass 2 except on one-letter notes.
    ("wrong_answer/reads_backwards.py", {"sample/1": "AC", "secret/01-zero": "AC",
                                         "secret/02-two-letters": "WA", "secret/03-largest": "WA"}),
    ("wrong_answer/writes_digits.c", {"sample/1": "WA", "secret/01-zero": "WA", "secret/02-two-letters": "WA",
                                      "secret/03-largest": "WA"}),
])
def test_judge_run_gives_each_pass_its_verdict(solution, expected):
    assert verdicts(judged(PACKAGE, SUBMISSIONS / solution)) == expected


def test_the_feedback_directory_is_kept_between_passes_and_the_failing_pass_is_named():
    accepted = judged(PACKAGE, SUBMISSIONS / "accepted/remember.py", "--case", "secret/02-two-letters")
    # judgemessage.txt, appended to in each pass, is the case's message: both passes' lines.
    assert messages(accepted) == {"secret/02-two-letters": "note 'ba' / 26 remembered"}
    backwards = judged(PACKAGE, SUBMISSIONS / "wrong_answer/reads_backwards.py", "--case", "secret/02-two-letters")
    assert messages(backwards)["secret/02-two-letters"] == "pass 2: note 'ab' / expected 26 back, got '1'"
    digits = judged(PACKAGE, SUBMISSIONS / "wrong_answer/writes_digits.c", "--case", "sample/1")
    assert messages(digits)["sample/1"] == "the note must be 1 to 8 lowercase letters, got '5'"


def test_the_time_limit_applies_to_each_pass(tmp_path):
    # 0.6 s of CPU in each pass: 1.2 s in all, over the 1 s limit, which each pass keeps.
    spinning = tmp_path / "spins.py"
    spinning.write_text("import time\nstart = time.process_time()\nwhile time.process_time() - start < 0.6:\n"
                        "    pass\n" + (SUBMISSIONS / "accepted/remember.py").read_text())
    result = judged(PACKAGE, spinning, "--case", "secret/02-two-letters")
    assert result["verdict"] == "AC", result
    assert 0.6 <= result["cases"][0]["cpu_time"] < 1  # the slowest pass's time
    slow = judged(PACKAGE, SUBMISSIONS / "time_limit_exceeded/thinks_too_long.py", "--case", "secret/01-zero")
    assert verdicts(slow) == {"secret/01-zero": "TLE"}
    assert messages(slow)["secret/01-zero"].startswith("pass 2: ")


@pytest.mark.parametrize(("passes", "asked"), [(None, 3), (4, 5)])
def test_asking_for_more_passes_than_validation_passes_is_a_judge_error(remember_copy, passes, asked):
    package = remember_copy()
    if passes:
        yaml_path = package / "problem.yaml"
        yaml_path.write_text(yaml_path.read_text() + f"  validation_passes: {passes}\n")
    always_asking_validator(package)
    result = judged(package, SUBMISSIONS / "accepted/remember.py", "--case", "sample/1")
    assert verdicts(result) == {"sample/1": "IE"}
    allowed = passes or 2
    assert (f"asked for pass {asked}, but limits.validation_passes in problem.yaml allows {allowed}"
            in messages(result)["sample/1"])


def test_writing_nextpass_and_rejecting_is_a_judge_error(remember_copy):
    package = remember_copy()
    always_asking_validator(package, exit_code=43)
    result = judged(package, SUBMISSIONS / "accepted/remember.py", "--case", "sample/1")
    assert verdicts(result) == {"sample/1": "IE"}
    assert "wrote nextpass.in but exited 43" in messages(result)["sample/1"]


def test_a_validator_that_accepts_without_nextpass_ends_the_case_after_one_pass(remember_copy):
    package = remember_copy()
    (package / "output_validator/validator.py").write_text("import sys\nsys.exit(42)\n")
    # The digits would fail pass 1 of the real validator; this one accepts at once.
    result = judged(package, SUBMISSIONS / "wrong_answer/writes_digits.c")
    assert set(verdicts(result).values()) == {"AC"}


# ---------------------------------------------------------------------------------------------
# Interactive multi-pass: the validator talks to the submission in each pass

def test_an_interactive_multi_pass_package_is_judged_pass_by_pass(remember_copy):
    package = remember_copy("[multi-pass, interactive]")
    loaded = load_package(package)
    assert loaded.package.interactive and loaded.package.multi_pass
    assert loaded.task.describe() == "interactive multi-pass (up to 2 passes)"
    done = run_judge("test", str(package))
    assert done.returncode == 0, done.stdout + done.stderr
    backwards = judged(package, SUBMISSIONS / "wrong_answer/reads_backwards.py", "--case", "secret/02-two-letters")
    assert messages(backwards)["secret/02-two-letters"] == "pass 2: note 'ab' / expected 26 back, got '1'"


# ---------------------------------------------------------------------------------------------
# Showing

def test_judge_show_and_list_describe_it_as_multi_pass():
    shown = run_judge("show", str(PACKAGE))
    assert shown.returncode == 0, shown.stderr
    assert "Type: multi-pass; format 2025-09" in shown.stdout
    assert "1 s CPU per pass (from problem.yaml)" in shown.stdout
    assert "runs on a case up to 2 times (limits.validation_passes)" in shown.stdout
    # The sample's .interaction: its passes separated by "---" (2025-09, "Samples for
    # interactive and multi-pass problems").
    assert "submission: f\n--- next pass ---\njudge:      decode" in shown.stdout
    listed = run_judge("list", "--problems", str(PACKAGE.parent))
    assert "multi-pass (up to 2 passes)" in listed.stdout


@pytest.mark.slow
def test_example_outputs_are_judged_as_the_first_pass_output(remember_copy):
    """2025-09 "Valid output" / "Invalid output": an .out is one run's output, so in a multi-pass
    problem the first pass's: accepted when the validator accepts it (asking for a next pass or
    not), rejected when it rejects it."""
    package = remember_copy()
    for folder, output in (("valid_output", "f\n"), ("invalid_output", "5\n")):  # a note of letters; digits
        (package / "data" / folder).mkdir()
        (package / "data" / folder / "note.in").write_text("encode\n5\n")
        (package / "data" / folder / "note.ans").write_text("5\n")
        (package / "data" / folder / "note.out").write_text(output)
    done = run_judge("test", str(package))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "output validator on valid_output  ok  accepts all 1 outputs" in done.stdout
    assert "output validator on invalid_output  ok  rejects all 1 outputs" in done.stdout
    (package / "data/invalid_output/note.out").write_text("g\n")  # a valid note: not rejected
    done = run_judge("test", str(package))
    assert "output validator on invalid_output  FAIL  invalid_output/note: got AC, expected WA" in done.stdout


def test_a_scoring_multi_pass_problem_scores_each_case_by_its_last_pass(remember_copy):
    """A type may be both (2025-09, "Type"): each secret case scores when all its passes pass."""
    package = remember_copy("[scoring, multi-pass]")
    accepted = judged(package, SUBMISSIONS / "accepted" / "remember.py")
    assert (accepted["verdict"], accepted["score"]) == ("AC", 100)
    backwards = judged(package, SUBMISSIONS / "wrong_answer" / "reads_backwards.py")  # right on one of 3 secret
    assert backwards["verdict"] == "WA" and round(backwards["score"], 2) == 33.33
    assert [case["verdict"] for case in backwards["cases"]] == ["AC", "AC", "WA", "WA"]
