"""Custom graders of legacy scoring packages (graders/, ``grading: custom``) and scoring packages
judged on what data they have: tests/packages/graded (its grader caps the sum of secret's groups
at 100) and tests/packages/weighted (its grader multiplies a group's score by its ``weight=N``
flag, its output validator scores each case, and its groups link to others' cases)."""

from __future__ import annotations

import json
import shutil
import textwrap

import pytest
from conftest import ROOT, run_judge

from judge.formats.icpc.graders import CustomGrader
from judge.formats.icpc.loading import load_package
from judge.formats.icpc.package import PackageError, read_package
from judge.formats.icpc.scoring import aggregate
from judge.model.results import CaseResult
from judge.model.verdict import Verdict

PACKAGES = ROOT / "tests" / "packages"
GRADER = "graders/capped.py"


@pytest.fixture
def graded(tmp_path):
    """A fresh copy of tests/packages/graded, to change."""
    target = tmp_path / "graded"
    shutil.copytree(PACKAGES / "graded", target)
    return target


def checks(stdout: str) -> dict[str, str]:
    """`judge test`'s lines by what they check."""
    return {line.split("  ")[1]: line for line in stdout.splitlines() if line.startswith("graded  ")}


def run_json(package, submission: str) -> dict:
    done = run_judge("run", str(package), str(package / "submissions" / submission), "--format", "json", "--no-record")
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


# ---------------------------------------------------------------------------------------------
# Graded as problemtools grades

def test_a_custom_grader_gives_its_groups_their_verdict_and_score():
    done = run_judge("test", str(PACKAGES / "graded"))
    assert done.returncode == 0, done.stdout + done.stderr
    rows = checks(done.stdout)
    assert rows["custom grader"].endswith("ok  graders/capped.py builds; it grades data, data/secret")
    # Three groups of 40 each: the default grader would sum them to 120; the grader caps at 100.
    assert rows["submission accepted/twice.py"].endswith("ok  got AC, score 100/100")
    assert rows["submission partially_accepted/no_large.py"].endswith("ok  got AC, score 80/100")
    assert rows["submission partially_accepted/small_only.py"].endswith("ok  got AC, score 40/100")
    assert "ok  got WA, score 0/100" in rows["submission wrong_answer/once.py"]


# weighted's groups are worth 30, 20 and 50; a case scores 1, or 0.5 when off by one; a group's
# score is its lowest case's times its weight, and secret's the sum of its groups'.
WEIGHTED_SCORES = {"accepted/double.py": 100, "accepted/off_by_one.py": 50, "accepted/small.cpp": 30,
                   "accepted/small_off_by_one.cpp": 15}


@pytest.mark.parametrize("submission", WEIGHTED_SCORES)
def test_a_grader_over_nested_groups_and_scored_cases_gives_each_submission_its_score(submission):
    result = run_json(PACKAGES / "weighted", submission)
    assert (result["verdict"], result["score"], result["max_score"]) == ("AC", WEIGHTED_SCORES[submission], 100)


def test_judge_test_passes_accepted_submissions_short_of_the_full_score_with_a_warning():
    done = run_judge("test", str(PACKAGES / "weighted"), timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "weighted  custom grader  ok  graders/weighted.py builds; it grades data, data/sample, data/secret, " \
           "data/secret/1-small, data/secret/2-even, data/secret/3-all" in done.stdout
    assert "weighted  submission accepted/double.cpp  ok  got AC, score 100/100" in done.stdout
    # As problemtools: accepted, with "did not attain full score" as a warning.
    assert "weighted  submission accepted/small_off_by_one.cpp  ok  got AC, score 15/100 (warning: short of the " \
           "full score" in done.stdout
    assert "weighted  submission wrong_answer/half.py  ok  got WA, score 0/100" in done.stdout


def test_the_grader_reads_each_sub_result_and_gets_the_groups_flags(graded):
    (graded / GRADER).write_text(textwrap.dedent("""\
        import sys
        given = sys.stdin.read()
        if given == "AC 40\\nRTE 0\\nRTE 0.5\\n" and sys.argv[1:] == ["sum", "subtask_score=2"]:
            print("AC 7.25")
        else:
            print("WA 0")
            print(repr(given), sys.argv[1:], file=sys.stderr)
        """))
    grader = CustomGrader(read_package(graded))
    results = [(Verdict.AC, 40.0), (Verdict.RE, 0.0), (Verdict.MLE, 0.5)]  # MLE is a run-time error there
    assert grader.grade("secret", results, ["sum", "subtask_score=2"]) == (Verdict.AC, 7.25)


C_GRADER = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The group's score: its sub-results' sum (the last one's with ignore_sample), at most cap N. */
int main(int argc, char **argv) {
    char verdict[8], first[8] = "", last[8] = "AC";
    double score, sum = 0, last_score = 0, cap = 1e18;
    int any_accepted = 0, ignore_sample = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "ignore_sample")) ignore_sample = 1;
        if (!strcmp(argv[i], "cap") && i + 1 < argc) cap = atof(argv[i + 1]);
    }
    while (scanf("%7s %lf", verdict, &score) == 2) {
        sum += score;
        last_score = score;
        strcpy(last, verdict);
        if (!strcmp(verdict, "AC")) any_accepted = 1;
        if (!first[0]) strcpy(first, verdict);
    }
    if (ignore_sample) {
        sum = last_score;
        any_accepted = !strcmp(last, "AC");
        strcpy(first, last);
    }
    printf("%s %f\n", any_accepted ? "AC" : first, sum < cap ? sum : cap);
    return 0;
}
"""


def test_a_grader_in_c_is_built_as_the_packages_other_programs_are(graded):
    (graded / GRADER).unlink()
    (graded / "graders/capped.c").write_text(C_GRADER)
    assert run_json(graded, "accepted/twice.py")["score"] == 100
    assert run_json(graded, "partially_accepted/no_large.py")["score"] == 80


def test_a_group_with_a_judging_error_is_not_graded(graded):
    class Refusing:
        def grade(self, group, results, flags):
            raise AssertionError(f"graded {group} with {results}")

    package = load_package(graded).package
    results = [CaseResult(name, package.cases[name].group, Verdict.AC, score=40.0)
               for name in ("secret/g1/1", "secret/g1/2", "secret/g2/1", "secret/g2/2")]
    results.append(CaseResult("secret/g3/1", "secret/g3", Verdict.IE, message="output validator exited 1"))
    assert aggregate(package, results, Refusing()) == (Verdict.IE, 0.0)


# ---------------------------------------------------------------------------------------------
# A broken grader ends the command, naming what it was given

@pytest.mark.parametrize("script, said", [
    ("import sys\nprint('boom', file=sys.stderr)\nsys.exit(3)\n", "the custom grader exited 3, not 0 (boom)"),
    ("print('JE 0')\n", "the custom grader answered JE (a judging error)"),
    ("print('accepted, 100 points')\n", "the custom grader answered 'accepted, 100 points', not 'VERDICT SCORE'"),
    ("print('AC 1.2.3')\n", "the custom grader's score '1.2.3' is not a number"),
])
def test_a_grader_that_fails_ends_judge_test_naming_it_and_its_input(graded, script, said):
    (graded / GRADER).write_text(script)
    done = run_judge("test", str(graded))
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert f"{GRADER}: {said}" in done.stderr
    assert "on group secret, given flags sum and the results AC 40 / " in done.stderr


def test_a_grader_that_does_not_build_ends_judge_test(graded):
    (graded / GRADER).unlink()
    (graded / "graders/capped.c").write_text("int main( {\n")
    done = run_judge("test", str(graded))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "graders/capped.c: the custom grader does not build" in done.stderr


@pytest.mark.parametrize("change, said", [
    (lambda package: shutil.rmtree(package / "graders"),
     "data/testdata.yaml: grading: custom, but graders/ holds no program"),
    (lambda package: (package / "graders/other.py").write_text("print('AC 0')\n"),
     "more than one custom grader (graders/capped.py, graders/other.py); keep one"),
    (lambda package: (package / "data/secret/testdata.yaml").write_text("grading: mine\n"),
     "data/secret/testdata.yaml: grading must be default (grader_flags choose how) or custom"),
])
def test_a_grader_asked_for_but_not_there_or_not_one_is_named(graded, change, said):
    change(graded)
    with pytest.raises(PackageError, match=said.replace("(", r"\(").replace(")", r"\)")):
        read_package(graded)


def test_custom_grading_in_a_2025_09_package_is_named_with_what_to_use(tmp_path):
    package = tmp_path / "subtasks"
    shutil.copytree(PACKAGES / "subtasks", package)
    (package / "graders").mkdir()
    (package / "graders/grader.py").write_text("print('AC 0')\n")
    (package / "data/secret/group1/test_group.yaml").write_text("max_score: 40\ngrading: custom\n")
    with pytest.raises(PackageError, match="group1/test_group.yaml: grading: custom: the 2025-09 format has no "
                                           "custom graders; give the group's score_aggregation instead"):
        read_package(package)


def test_a_grader_no_group_asks_for_is_not_run_and_judge_test_says_so(graded):
    (graded / "data/testdata.yaml").write_text("on_reject: continue\nrange: 0 120\ngrader_flags: ignore_sample\n")
    (graded / GRADER).write_text("import sys\nsys.exit(1)\n")  # never run
    done = run_judge("test", str(graded))
    assert done.returncode == 0, done.stdout + done.stderr
    rows = checks(done.stdout)
    assert rows["custom grader"].endswith(f"ok  warning: {GRADER} is not used: no testdata.yaml says grading: custom "
                                          f"(nor does problemtools use it)")
    assert rows["submission accepted/twice.py"].endswith("ok  got AC, score 120/120")  # summed, not capped


def test_a_pass_fail_problem_with_a_grader_is_judged_without_it(graded):
    (graded / "problem.yaml").write_text("name: Twice\n")
    shutil.rmtree(graded / "submissions/partially_accepted")
    for path in graded.rglob("testdata.yaml"):
        path.unlink()
    (graded / "data/testdata.yaml").write_text("grading: custom\n")
    (graded / GRADER).write_text("import sys\nsys.exit(1)\n")  # never run
    done = run_judge("test", str(graded))
    assert done.returncode == 0, done.stdout + done.stderr
    assert checks(done.stdout)["custom grader"].endswith(
        f"ok  warning: {GRADER} is not used: a pass-fail problem's verdict is its first failure's (problemtools "
        f"refuses a grader in a pass-fail problem)")


# ---------------------------------------------------------------------------------------------
# Scoring packages judged on the data they have

def test_a_scoring_package_without_secret_data_is_judged_on_its_samples_checking_no_score(graded):
    shutil.rmtree(graded / "data/secret")
    done = run_judge("test", str(graded))
    assert done.returncode == 0, done.stdout + done.stderr
    rows = checks(done.stdout)
    assert rows["samples"].endswith("ok  warning: data/secret has no cases: judged on data/sample only; no score is "
                                    "checked: a scoring problem's score is its secret groups'")
    assert rows["submission accepted/twice.py"].endswith("ok  got AC, score 0/100 (its score is not checked: "
                                                         "no data/secret)")
    assert rows["submission partially_accepted/no_large.py"].endswith("ok  got AC, score 0/100 (its score is not "
                                                                      "checked: no data/secret)")
    assert "ok  got WA, score 0/100 on sample/1" in rows["submission wrong_answer/once.py"]


def test_a_partially_accepted_submission_must_still_pass_the_samples_when_only_they_are_there(graded):
    shutil.rmtree(graded / "data/secret")
    (graded / "submissions/partially_accepted/small_only.py").write_text("print(0)\n")
    done = run_judge("test", str(graded))
    assert done.returncode == 1, done.stdout + done.stderr
    assert checks(done.stdout)["submission partially_accepted/small_only.py"].endswith(
        "FAIL  expected AC, got WA, score 0/100 on sample/1: line 1, token 1 of the output (line 1 of the answer): "
        "expected '6', got '0' (its score is not checked: no data/secret)")


def test_a_2025_09_scoring_package_without_secret_data_is_judged_on_its_samples(tmp_path):
    package = tmp_path / "subtasks"
    shutil.copytree(PACKAGES / "subtasks", package)
    shutil.rmtree(package / "data/secret")
    done = run_judge("test", str(package))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "judged on data/sample only; no score is checked" in done.stdout
    assert "subtasks  submission accepted/twice.py  ok  got AC, score 0/100 (its score is not checked: " \
           "no data/secret)" in done.stdout


def test_a_scoring_package_without_samples_is_judged_on_its_secret_data(graded):
    shutil.rmtree(graded / "data/sample")
    done = run_judge("test", str(graded))
    assert done.returncode == 0, done.stdout + done.stderr
    rows = checks(done.stdout)
    assert rows["samples"].endswith("ok  warning: no samples in data/sample")
    assert rows["submission accepted/twice.py"].endswith("ok  got AC, score 100/100")
    assert rows["submission partially_accepted/small_only.py"].endswith("ok  got AC, score 40/100")


# ---------------------------------------------------------------------------------------------
# An accepted submission short of the full score: problemtools warns of it, 2025-09 fails it

def test_a_legacy_accepted_submission_short_of_the_full_score_passes_with_a_warning(graded):
    shutil.copy(graded / "submissions/partially_accepted/no_large.py", graded / "submissions/accepted/no_large.py")
    done = run_judge("test", str(graded))
    assert done.returncode == 0, done.stdout + done.stderr
    assert checks(done.stdout)["submission accepted/no_large.py"].endswith(
        "ok  got AC, score 80/100 (warning: short of the full score, which problemtools only warns of in accepted/; "
        "partially_accepted/ is the folder for it)")


def test_a_2025_09_accepted_submission_short_of_the_full_score_fails(tmp_path):
    package = tmp_path / "multiplier"
    shutil.copytree(PACKAGES / "multiplier", package)
    shutil.copy(package / "submissions/partially_accepted/off_by_one.py", package / "submissions/accepted/near.py")
    done = run_judge("test", str(package))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "multiplier  submission accepted/near.py  FAIL  expected AC, got AC, score 50/100" in done.stdout


def test_a_group_without_cases_is_named_and_the_package_judged_without_it(graded):
    (graded / "data/secret/g4/deeper").mkdir(parents=True)
    (graded / "data/secret/g4/testdata.yaml").write_text("accept_score: 40\n")
    done = run_judge("test", str(graded))
    assert done.returncode == 0, done.stdout + done.stderr
    rows = checks(done.stdout)
    assert rows["test data groups"].endswith("ok  warning: data/secret/g4, data/secret/g4/deeper hold no test case "
                                             "(problemtools counts that an error); judged without")
    assert rows["submission accepted/twice.py"].endswith("ok  got AC, score 100/100")


def test_a_legacy_package_without_a_range_has_no_full_score_to_check(graded):
    for path in graded.rglob("testdata.yaml"):
        path.unlink()
    shutil.rmtree(graded / "graders")
    # The default grader, each case worth 1, no range: problemtools knows no full score.
    (graded / "data/testdata.yaml").write_text("on_reject: continue\ngrader_flags: accept_if_any_accepted\n")
    done = run_judge("test", str(graded))
    assert done.returncode == 0, done.stdout + done.stderr
    rows = checks(done.stdout)
    unchecked = " (no full score to check: testdata.yaml gives no range, as problemtools then has none)"
    assert rows["submission accepted/twice.py"].endswith("ok  got AC, score 7/100" + unchecked)
    assert rows["submission partially_accepted/small_only.py"].endswith("ok  got AC, score 3/100" + unchecked)
    assert rows["submission wrong_answer/once.py"].endswith("expected '6', got '3'")  # no note: no score asked
