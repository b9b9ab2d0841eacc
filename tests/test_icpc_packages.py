"""Problem packages in the ICPC/Kattis format: loading, bad packages, `judge run/show/test/grade`
and the pytest plugin on the hand-made packages in tests/packages/."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
import yaml  # noqa: F401 - loaded before pytester runs (see test_pytest_plugin.py)
from conftest import ROOT, named_cases, run_judge

from judge.formats.icpc.expectations import submissions
from judge.formats.icpc.loading import load_package
from judge.formats.icpc.package import PackageError
from judge.formats.icpc.programs import submission_language
from judge.formats.icpc.timelimit import decided_alike
from judge.model.results import CaseResult, SubmissionResult
from judge.model.verdict import Verdict
from judge.runner import base_limits, judge_submission

PACKAGES = ROOT / "tests" / "packages"


@pytest.fixture
def package_copy(tmp_path):
    """A fresh copy of a hand-made package, to break in one way."""
    def copy(name: str) -> Path:
        target = tmp_path / name
        shutil.copytree(PACKAGES / name, target)
        return target
    return copy


def names(problem) -> list[str]:
    return [case.name for case in problem.cases]


# ---------------------------------------------------------------------------------------------
# Loading

def test_cases_come_in_lexicographic_order_through_nested_groups():
    problem = load_package(PACKAGES / "addition")
    assert names(problem) == ["sample/1", "sample/2", "secret/exact/01", "secret/exact/02",
                              "secret/loose/01", "secret/loose/nested/01"]
    assert [case.visibility for case in problem.cases][:3] == ["sample", "sample", "hidden"]
    assert problem.cases[2].expected == "3000000\n"


def test_group_settings_are_inherited_down_the_tree_after_the_legacy_flags():
    package = load_package(PACKAGES / "addition").package
    assert package.cases["secret/exact/01"].output_validator_args == ("float_tolerance", "1e-6")
    assert package.cases["secret/loose/nested/01"].output_validator_args == (
        "float_tolerance", "1e-6", "float_absolute_tolerance", "0.6")


def test_time_limit_sources_problem_yaml_timelimit_file_and_override():
    assert load_package(PACKAGES / "closest").time_limit == 2
    addition = load_package(PACKAGES / "addition")
    assert addition.time_limit == 2 and addition.package.timing.source == ".timelimit"
    assert load_package(PACKAGES / "addition", time_limit=0.5).time_limit == 0.5


def test_name_per_language_memory_and_types():
    problem = load_package(PACKAGES / "closest")
    assert problem.title == "Closest Number"
    assert problem.package.names["sv"] == "Närmaste talet"
    assert problem.package.scoring and not problem.package.interactive
    assert load_package(PACKAGES / "addition").memory_limit == 256 << 20
    assert load_package(PACKAGES / "doubler").package.interactive


def test_an_unknown_key_in_problem_yaml_is_named(package_copy):
    package = package_copy("addition")
    with open(package / "problem.yaml", "a") as file:
        file.write("time_limt: 3\n")
    done = run_judge("show", str(package))
    assert done.returncode == 2
    assert "problem.yaml: unknown key 'time_limt'" in done.stderr and "Traceback" not in done.stderr


def test_an_unknown_key_in_limits_and_in_a_group_file_is_named(package_copy):
    package = package_copy("subtasks")
    text = (package / "problem.yaml").read_text().replace("time_limit: 1", "time_limit: 1\n  time_multiplier: 5")
    (package / "problem.yaml").write_text(text)
    with pytest.raises(PackageError, match=r"unknown key 'limits.time_multiplier'"):
        load_package(package)
    (package / "problem.yaml").write_text(text.replace("\n  time_multiplier: 5", ""))
    (package / "data/secret/group1/test_group.yaml").write_text("max_score: 40\nmax_scroe: 3\n")
    with pytest.raises(PackageError, match=r"group1/test_group.yaml: unknown key 'max_scroe'"):
        load_package(package)


def test_a_missing_answer_file_is_named(package_copy):
    package = package_copy("addition")
    (package / "data/secret/exact/02.ans").unlink()
    done = run_judge("run", str(package), str(package / "submissions/accepted/add.py"))
    assert done.returncode == 2
    assert "exact/02.in: no answer file 02.ans" in done.stderr


def test_a_symlink_leading_outside_the_package_is_refused(package_copy, tmp_path):
    package = package_copy("addition")
    secret = tmp_path / "elsewhere.txt"
    secret.write_text("1 2\n")
    (package / "data/secret/exact/03.in").symlink_to(secret)
    done = run_judge("test", str(package))
    assert done.returncode == 2
    assert "03.in: symbolic link to" in done.stderr and "outside the package" in done.stderr


def test_legacy_versions_and_unsupported_types_are_clear(package_copy):
    package = package_copy("addition")
    (package / "problem.yaml").write_text("name: Addition\ntype: submit-answer\n")
    with pytest.raises(PackageError, match="type 'submit-answer' is not supported"):
        load_package(package)
    (package / "problem.yaml").write_text("problem_format_version: 1999-01\nname: x\n")
    with pytest.raises(PackageError, match="problem_format_version '1999-01'"):
        load_package(package)


@pytest.fixture
def fresh_cache():
    """An empty build cache in a folder the sandbox's users can reach (pytest's own folders are
    its owner's only)."""
    with tempfile.TemporaryDirectory(prefix="judge-test-cache-", dir="/tmp") as folder:
        os.chmod(folder, 0o755)
        yield Path(folder)


def test_time_limit_is_inferred_from_the_slowest_accepted_submission_and_cached(package_copy, fresh_cache):
    package = package_copy("subtasks")
    text = (package / "problem.yaml").read_text().replace("limits:\n  time_limit: 1\n", "")
    (package / "problem.yaml").write_text(text)
    cache_dir = fresh_cache  # nothing inferred before
    cache = {"JUDGE_CACHE": str(cache_dir)}
    # Showing and listing run no program: before the limit is inferred, they say how it will be.
    before = run_judge("show", str(package), env=cache)
    assert before.returncode == 0, before.stderr
    assert "time limit not given: `judge test`" in before.stdout
    listed = run_judge("list", "--problems", str(package.parent), env=cache)
    assert "inferred by judge test" in listed.stdout, listed.stdout + listed.stderr
    assert not list(cache_dir.glob("icpc-timelimit-*"))
    tested = run_judge("test", str(package), env=cache)
    assert tested.returncode == 0
    # Inferring runs every accepted submission: it says so while it does, one line each.
    accepted = sorted((package / "submissions" / "accepted").iterdir())
    assert f"inferring it from its accepted submissions (1/{len(accepted)}: submissions/accepted/" in tested.stderr
    assert not run_judge("test", str(package), env=cache).stderr.count("inferring")  # cached: nothing to say
    shown = run_judge("show", str(package), env=cache)
    assert shown.returncode == 0, shown.stderr
    # A Python program this small takes far less than half a second: 2 x that rounds up to 1 s.
    assert "1 s CPU per case (inferred from the slowest accepted submission x 2)" in shown.stdout
    assert list(cache_dir.glob("icpc-timelimit-*"))


def test_a_run_made_while_the_limit_was_inferred_is_kept_only_where_the_limit_decides_alike():
    """judge test keeps a run made under a cap before the limit was known (an accepted
    submission's, or one expected to fail, stopped at its first failure) when judging it again
    under the inferred limit would decide the same: every case it ran within CPU and wall time."""
    package = PACKAGES / "addition"
    problem = dataclasses.replace(load_package(package), time_limit=1.0)
    source = package / "submissions" / "accepted" / "add.py"
    limits = submission_language(source).limits(base_limits(problem))

    def run(verdict=Verdict.AC, cpu=0.1, wall=0.2, partial=False) -> SubmissionResult:
        cases = [CaseResult("a", "secret", Verdict.AC, 0.05, 0.1), CaseResult("b", "secret", verdict, cpu, wall)]
        return SubmissionResult("addition", str(source), "python", verdict, 100, 100, cases, partial=partial)

    assert decided_alike(problem, source, run())
    assert decided_alike(problem, source, run(verdict=Verdict.WA, partial=True))  # its first failure, in time
    assert not decided_alike(problem, source, run(cpu=limits.cpu_time + 0.5))  # TLE under the limit
    assert not decided_alike(problem, source, run(verdict=Verdict.WA, cpu=limits.cpu_time + 0.5))
    assert not decided_alike(problem, source, run(wall=limits.wall_time + 0.5))
    assert not decided_alike(problem, source, run(verdict=Verdict.IE))  # a judge's fault may not come again
    # Stopped by the cap's own limits, within this one's: how it would end under this one is unknown.
    assert not decided_alike(problem, source, run(verdict=Verdict.TLE, cpu=limits.cpu_time / 2, partial=True))


@pytest.mark.skipif(os.geteuid() != 0, reason="runs are other users only when the judge is root")
def test_a_build_cache_the_sandbox_cannot_reach_is_the_graders_clear_error(package_copy, tmp_path):
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    done = run_judge("test", str(package_copy("subtasks")), env={"JUDGE_CACHE": str(private / "cache")})
    assert done.returncode != 0
    said = done.stdout + done.stderr
    assert "cannot be reached by the sandbox's users" in said and "Traceback" not in said


def test_no_limit_and_no_accepted_run_to_infer_it_from_is_the_formats_default(tmp_path, fresh_cache):
    """linked_expectations gives no time limit, and its submissions.yaml makes accepted/ hold a
    wrong answer only (as BAPCtools' own test problem does): as BAPCtools does, the limit is the
    format's default (one time_resolution), said so, and every submission is judged; --time-limit
    gives another."""
    package = tmp_path / "linked_expectations"
    shutil.copytree(PACKAGES / "linked_expectations", package, symlinks=True)
    cache = {"JUDGE_CACHE": str(fresh_cache)}
    done = run_judge("test", str(package), env=cache)
    assert done.returncode == 0, done.stdout + done.stderr
    assert ("time limit  ok  1 s (the format's default) (warning: no accepted submission passed to infer the "
            "limit from") in done.stdout and "--time-limit SECONDS" in done.stdout
    assert "submission accepted/words.py  ok  meets submissions.yaml: 8 WA" in done.stdout
    assert "skipped" not in done.stdout and "18 passed, 0 failed" in done.stdout
    shown = run_judge("show", str(package), env=cache)
    assert "1 s CPU per case (the format's default, one time_resolution: no accepted submission" in shown.stdout
    ran = run_judge("run", str(package), str(package / "submissions/wrong/words.py"), "--no-record", env=cache)
    assert "warning: no accepted submission passed to infer the limit from" in ran.stderr and "(1 s)" in ran.stderr
    given = run_judge("test", "--time-limit", "2", str(package), env=cache)
    assert "time limit  ok  2 s (--time-limit)" in given.stdout, given.stdout + given.stderr


def test_example_submissions_that_link_to_others_of_the_package_are_judged(tmp_path, fresh_cache):
    """linked_expectations links submissions to others of the package, as BAPCtools' own test
    problem does: a file (accepted/words.py -> ../wrong/words.py) and a file in a folder
    submission (decoy/inner/inner_square.py -> ../decoy_square.py, itself a link): each is judged
    as the file it leads to."""
    package = tmp_path / "linked_expectations"
    shutil.copytree(PACKAGES / "linked_expectations", package, symlinks=True)
    done = run_judge("test", "--time-limit", "1", str(package), env={"JUDGE_CACHE": str(fresh_cache)})
    assert "submission decoy/inner  ok  meets submissions.yaml: 8 AC" in done.stdout, done.stdout + done.stderr
    assert "submission braces/square.cpp  ok  meets submissions.yaml: 8 AC" in done.stdout
    assert done.returncode == 0
    # judge run too, recording it; the same folder handed in as a student's is refused, links and all.
    inner = str(package / "submissions/decoy/inner")
    ran = run_judge("run", str(package), inner, "--time-limit", "1", "--db", str(tmp_path / "results.db"),
                    env={"JUDGE_CACHE": str(fresh_cache)})
    assert ran.returncode == 0 and "AC  8/8 cases passed" in ran.stdout, ran.stdout + ran.stderr
    refused = run_judge("run", str(package), inner, "--student", "eve", "--no-record", "--allow-weak-sandbox")
    assert refused.returncode == 2 and "not graded: inner/inner_square.py is a symbolic link" in refused.stderr


def test_links_inside_a_package_are_its_files_and_a_folder_linked_elsewhere_is_walked(package_copy):
    package = package_copy("addition")
    # A case's hint may be another file of the package.
    (package / "data/secret/exact/hints.txt").write_text("think of carries\n")
    (package / "data/secret/exact/01.hint").symlink_to("hints.txt")
    problem = load_package(package)
    assert next(case for case in problem.cases if case.name == "secret/exact/01").hint == "think of carries"
    # A folder submission linked to a folder outside the judged ones: the links it holds are checked too.
    (package / "notes").mkdir()
    (package / "notes/main.py").symlink_to(Path(__file__))
    (package / "submissions/accepted/notes").symlink_to("../../notes")
    with pytest.raises(PackageError, match="notes/main.py: symbolic link to .*, outside the package"):
        load_package(package)


# ---------------------------------------------------------------------------------------------
# Commands

def test_judge_test_verifies_every_hand_made_package():
    packages = [str(PACKAGES / name) for name in ("addition", "closest", "subtasks")]
    done = run_judge("test", *packages)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "FAIL" not in done.stdout
    for expected in ("submission accepted/multi_cpp", "submission accepted/multi_py",
                     "submission accepted/multi_java", "submission accepted/multi_js",
                     "submission accepted/packaged_js", "submission accepted/add.c++",
                     "submission accepted/add.py3", "got CE",
                     "got TLE", "got RE", "score 18/20", "score 70/100", "2 s (.timelimit)"):
        assert expected in done.stdout


def test_judge_test_exits_1_on_a_submission_in_the_wrong_folder(package_copy):
    package = package_copy("subtasks")
    shutil.move(package / "submissions/wrong_answer/once.py", package / "submissions/accepted/once.py")
    done = run_judge("test", str(package))
    assert done.returncode == 1
    assert "expected AC, got WA" in done.stdout


def test_judge_run_on_a_package_with_a_directory_solution_as_json():
    done = run_judge("run", str(PACKAGES / "addition"), str(PACKAGES / "addition/submissions/accepted/multi_cpp"),
                     "--format", "json", "--no-record")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["verdict"] == "AC" and result["language"] == "cpp" and result["total"] == 6
    assert result["cases"][4]["group"] == "secret/loose"


def test_a_c_plus_plus_file_is_judged_as_cpp_and_its_json_printed():
    done = run_judge("run", str(PACKAGES / "addition"), str(PACKAGES / "addition/submissions/accepted/add.c++"),
                     "--format", "json", "--no-record")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["verdict"] == "AC" and result["language"] == "cpp"


def test_a_javascript_folder_runs_the_entry_its_package_json_names(tmp_path):
    folder = tmp_path / "solution"
    (folder / "lib").mkdir(parents=True)
    (folder / "lib" / "sum.js").write_text("exports.sum = (a, b) => a + b;\n")
    (folder / "lib" / "answer.js").write_text(
        'const { sum } = require("./sum");\n'
        'const [a, b] = require("fs").readFileSync(0, "utf8").trim().split(/\\s+/).map(Number);\n'
        "console.log(sum(a, b));\n")
    arguments = ("run", str(PACKAGES / "addition"), str(folder), "--format", "json", "--no-record")
    (folder / "package.json").write_text('{"name": "answer", "main": "lib/answer.js"}\n')
    result = json.loads(run_judge(*arguments).stdout)
    assert result["verdict"] == "AC" and result["language"] == "javascript"
    (folder / "package.json").write_text('{"main": "./lib/missing"}\n')
    result = json.loads(run_judge(*arguments).stdout)
    assert result["verdict"] == "CE" and "package.json: its main './lib/missing' is not one of" in result["compile_message"]


def test_a_bash_folder_runs_its_main_script_which_sources_the_others(tmp_path):
    """A folder submission of shell scripts (BAPCtools' and DOMjudge's hello set have them): main.sh
    runs, the other scripts lie next to it for it to source."""
    folder = tmp_path / "answer.sh"
    folder.mkdir()
    (folder / "main.sh").write_text('source "$(dirname "$0")/sum.sh"\nread -r a b\nsum "$a" "$b"\n')
    (folder / "sum.sh").write_text("sum() { awk -v a=\"$1\" -v b=\"$2\" 'BEGIN { print a + b }'; }\n")
    done = run_judge("run", str(PACKAGES / "addition"), str(folder), "--format", "json", "--no-record")
    result = json.loads(done.stdout)
    assert result["verdict"] == "AC" and result["language"] == "bash", result


def test_a_javascript_folder_without_a_main_runs_its_first_file_as_domjudge_does(tmp_path):
    """DOMjudge's hello set (submissions/*/multifile-js): ES modules that import each other, no
    entry named. The first file runs; an import under a name node does not resolve is a run-time
    error, not a compile error; and every .js file must pass node --check, used or not."""
    def folder(name: str, imported: str, extra: str = "") -> str:
        root = tmp_path / name
        root.mkdir()
        (root / "package.json").write_text('{"type": "module"}\n')
        (root / "answer.js").write_text(
            f'import {{ sum }} from "./{imported}";\n'
            'import { readFileSync } from "fs";\n'
            'const [a, b] = readFileSync(0, "utf8").trim().split(/\\s+/).map(Number);\n'
            "console.log(sum(a, b));\n")
        (root / "sum.js").write_text("export function sum(a, b) { return a + b; }\n")
        if extra:
            (root / "unused.js").write_text(extra)
        done = run_judge("run", str(PACKAGES / "addition"), str(root), "--format", "json", "--no-record")
        return json.loads(done.stdout)

    assert folder("accepted", "sum.js")["verdict"] == "AC"
    wrong_name = folder("run_time_error", "sum.mjs")
    assert wrong_name["verdict"] == "RE", wrong_name["compile_message"]
    unused = folder("compile_error", "sum.js", extra="import function hello() {}\n")
    assert unused["verdict"] == "CE" and "unused.js" in unused["compile_message"]


def test_inherited_tolerance_accepts_only_where_it_applies(tmp_path):
    solution = tmp_path / "half_off.py"
    solution.write_text("a, b = map(float, input().split())\nprint(a + b + 0.5)\n")
    result = json.loads(run_judge("run", str(PACKAGES / "addition"), str(solution), "--format", "json",
                                  "--no-record").stdout)
    verdicts = {name: case["verdict"] for name, case in named_cases(result, PACKAGES / "addition").items()}
    # exact/01 (3000000) is within the relative tolerance 1e-6 everywhere: either tolerance suffices.
    assert verdicts == {"sample/1": "WA", "sample/2": "WA", "secret/exact/01": "AC", "secret/exact/02": "WA",
                        "secret/loose/01": "AC", "secret/loose/nested/01": "AC"}


def test_time_limit_option_overrides_the_package(tmp_path):
    solution = tmp_path / "slow.py"
    solution.write_text("import time\nt = time.process_time()\nwhile time.process_time() - t < 0.4:\n    pass\n"
                        "a, b = map(float, input().split())\nprint(a + b)\n")
    arguments = ["run", str(PACKAGES / "addition"), str(solution), "--case", "sample/1", "--format", "json"]
    assert json.loads(run_judge(*arguments).stdout)["verdict"] == "AC"
    assert json.loads(run_judge(*arguments, "--time-limit", "0.2").stdout)["verdict"] == "TLE"


def test_judge_show_prints_limits_samples_and_interactions():
    shown = run_judge("show", str(PACKAGES / "doubler"))
    assert shown.returncode == 0, shown.stderr
    assert "# Doubler" in shown.stdout and "1 s CPU per case (from problem.yaml)" in shown.stdout
    assert "judge:      3\nsubmission: 6" in shown.stdout
    addition = run_judge("show", str(PACKAGES / "addition")).stdout
    assert "## sample/2\ninput:\n0.5 0.25\noutput:\n0.75" in addition


def test_a_directory_without_problem_yaml_is_a_usage_error(tmp_path):
    done = run_judge("show", str(tmp_path))
    assert done.returncode == 2 and "problem package folder (with problem.yaml)" in done.stderr


def test_grade_against_a_folder_of_packages(tmp_path):
    problems = tmp_path / "problems"
    problems.mkdir()
    for name in ("addition", "subtasks"):
        shutil.copytree(PACKAGES / name, problems / name)
    submissions = tmp_path / "subs"
    (submissions / "ann").mkdir(parents=True)
    (submissions / "bob").mkdir()
    shutil.copy(PACKAGES / "addition/submissions/accepted/add.py", submissions / "ann/addition.py")
    shutil.copy(PACKAGES / "subtasks/submissions/partially_accepted/small_only.py", submissions / "ann/subtasks.py")
    shutil.copy(PACKAGES / "subtasks/submissions/accepted/twice.py", submissions / "bob/subtasks.py")
    shutil.copy(PACKAGES / "subtasks/submissions/accepted/twice.py", submissions / "bob/unknown.py")
    done = run_judge("grade", str(submissions), "--problems", str(problems), "--format", "json",
                     "--db", str(tmp_path / "results.db"))
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    students = {student["student"]: student for student in report["students"]}
    assert students["ann"]["problems"]["addition"]["score"] == 100
    assert students["ann"]["problems"]["subtasks"]["score"] == 70
    assert students["ann"]["total"] == 170 and students["bob"]["total"] == 100
    assert any("unknown" in issue for issue in report["issues"])


def test_stress_on_a_package_says_what_is_missing():
    done = run_judge("stress", str(PACKAGES / "addition"), str(PACKAGES / "addition/submissions/accepted/add.py"))
    assert done.returncode == 2 and "has no input generator (no generators/generators.yaml)" in done.stderr


def test_pytest_plugin_collects_a_package(pytester):
    shutil.copytree(PACKAGES / "addition", pytester.path / "addition")
    result = pytester.runpytest("addition/problem.yaml", "--solution",
                                str(PACKAGES / "addition/submissions/wrong_answer/rounds.py"))
    result.assert_outcomes(passed=5, failed=1)
    result.stdout.fnmatch_lines(["*WA on case sample/2*"])


def test_judge_list_finds_the_packages_of_a_folder():
    done = run_judge("list", "--problems", str(PACKAGES))
    assert done.returncode == 0, done.stderr
    rows = {line.split()[0]: line for line in done.stdout.splitlines()[2:]}
    assert set(rows) == {"addition", "closest", "constants", "doubler", "echo", "example_data", "flood", "generated_sum",
                         "graded", "greeting", "included", "linked_expectations", "multiplier", "remember", "subtasks", "tool_sum",
                         "validator_args", "weighted"}
    assert "interactive" in rows["doubler"] and "2 s" in rows["addition"]


def test_legacy_grading_in_problem_yaml_applies_to_every_group(package_copy):
    package = package_copy("addition")
    (package / "problem.yaml").write_text("name: Addition\ntype: scoring\nvalidator_flags: float_tolerance 1e-6\n"
                                          "grading:\n  accept_score: 2\n  on_reject: grade\n")
    # Six cases worth 2 each, summed through the groups; on_reject: grade runs past a failure.
    accepted = json.loads(run_judge("run", str(package), str(package / "submissions/accepted/add.py"),
                                    "--format", "json", "--no-record").stdout)
    assert (accepted["verdict"], accepted["score"]) == ("AC", 12)
    rounds = json.loads(run_judge("run", str(package), str(package / "submissions/wrong_answer/rounds.py"),
                                  "--format", "json", "--no-record").stdout)
    assert (rounds["verdict"], rounds["score"], rounds["total"]) == ("WA", 10, 6)


def test_a_cases_own_yaml_sets_its_validator_arguments(package_copy, tmp_path):
    package = package_copy("addition")
    (package / "data/secret/exact/02.yaml").write_text("output_validator_args: [float_absolute_tolerance, '0.6']\n")
    solution = tmp_path / "half_off.py"
    solution.write_text("a, b = map(float, input().split())\nprint(a + b + 0.5)\n")
    result = json.loads(run_judge("run", str(package), str(solution), "--format", "json", "--no-record").stdout)
    verdicts = {name: case["verdict"] for name, case in named_cases(result, package).items()}
    assert verdicts["secret/exact/02"] == "AC" and verdicts["sample/1"] == "WA"
    (package / "data/secret/exact/02.yaml").write_text("output_validator_arg: []\n")
    with pytest.raises(PackageError, match=r"exact/02.yaml: unknown key 'output_validator_arg'"):
        load_package(package)


def test_require_pass_scores_a_group_only_after_the_groups_it_names(package_copy, tmp_path):
    package = package_copy("subtasks")
    solution = tmp_path / "large_only.py"
    solution.write_text("n = int(input())\nprint(2 * n if n >= 5 else n)\n")
    arguments = ["run", str(package), str(solution), "--format", "json", "--no-record"]
    assert json.loads(run_judge(*arguments).stdout)["score"] == 60  # group2 only
    (package / "data/secret/group2/test_group.yaml").write_text(
        "max_score: 60\nscore_aggregation: sum\nrequire_pass: secret/group1\n")
    assert json.loads(run_judge(*arguments).stdout)["score"] == 0


def test_require_pass_naming_no_group_is_an_error(package_copy, tmp_path):
    package = package_copy("subtasks")
    (package / "data/secret/group2/test_group.yaml").write_text(
        "max_score: 60\nscore_aggregation: sum\nrequire_pass: [sample, secret/group_1]\n")
    done = run_judge("test", str(package))
    assert done.returncode == 2, done.stdout + done.stderr
    assert "require_pass names secret/group_1, which is no test data group here; the groups are: " \
           "sample, secret, secret/group1, secret/group2" in done.stderr


# ---------------------------------------------------------------------------------------------
# Packages as DOMjudge and BAPCtools ship them

def test_expected_results_lines_decide_in_folders_that_name_no_verdict(package_copy):
    package = package_copy("echo")
    (package / "problem.pdf").symlink_to(package.parent.parent / "doc.pdf")  # out of the package, never read
    (package / "include/default").mkdir(parents=True)
    (package / "include/default/driver.txt").write_text("unused\n")
    (package / "submissions/submissions.yaml").write_text("accepted/*:\n  authors: Ada\n")
    # An input validator in a language this judge does not run (Ruby) is not checked.
    (package / "input_validators/validate.sh").rename(package / "input_validators/validate.rb")
    done = run_judge("test", str(package))
    assert done.returncode == 0, done.stdout + done.stderr
    for expected in ("submission mixed/sometimes_wrong.py ", "submission mixed/crash.py ", "got RE",
                     "submission mixed/score_tag.py ", "submission no_output/silent.py ",
                     "submission accepted/echo_again.py ", "submission accepted/two_files ",
                     "submission accepted/packaged_java ",
                     "not judged  its @EXPECTED_RESULTS@ (by_hand.py) asks for a check by hand",
                     "judged on data/sample only",
                     "not judged  folder 'mixed' names no verdict and the source has no @EXPECTED_RESULTS@"):
        assert expected in done.stdout, expected
    rows = {line.split()[1]: line for line in done.stdout.splitlines() if line.startswith("echo ")}
    assert "not checked  no supported language" in rows["input"] and "validate.rb" in rows["input"]
    # What was not made is counted apart, never as passed; --strict fails on it.
    assert done.stdout.rstrip().endswith(", 1 not checked: no supported language has the extension .rb, "
                                         "2 not judged: its @EXPECTED_RESULTS@ (by_hand.py) asks for a check by hand; "
                                         "folder 'mixed' names no verdict and the source has no @EXPECTED_RESULTS@ line")
    strict = run_judge("test", "--strict", str(package))
    assert strict.returncode == 1 and strict.stdout == done.stdout, strict.stdout + strict.stderr
    # With a submissions.yaml (here giving only authors) the default folders' rules hold case by case.
    assert "accepted/echo.py" in done.stdout and "meets submissions.yaml: 2 AC" in done.stdout


def test_an_expected_result_that_is_not_met_or_contradicts_the_folder_fails(package_copy):
    package = package_copy("echo")
    wrong = package / "submissions/mixed/sometimes_wrong.py"
    wrong.write_text(wrong.read_text().replace("CORRECT, WRONG-ANSWER", "CORRECT"))
    (package / "submissions/accepted/labelled.py").write_text("# @EXPECTED_RESULTS@: WRONG-ANSWER\nprint(input())\n")
    (package / "submissions/mixed/typo.py").write_text("# @expected_results@: CORECT\nprint(input())\n")
    done = run_judge("test", str(package))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "expected AC (@EXPECTED_RESULTS@ in sometimes_wrong.py), got WA on sample/2" in done.stdout
    assert "@EXPECTED_RESULTS@ in labelled.py says WRONG-ANSWER, which folder accepted does not allow" in done.stdout
    assert "@EXPECTED_RESULTS@ in typo.py: unknown result 'CORECT'" in done.stdout
    assert "Traceback" not in done.stderr


def test_a_generators_yaml_that_makes_no_secret_case_is_named_with_what_to_do(package_copy):
    package = package_copy("echo")
    shutil.rmtree(package / "data")  # with data/sample's cases it would be judged on those
    (package / "generators").mkdir()
    (package / "generators/generators.yaml").write_text("data:\n  secret:\n    data: []\n")
    with pytest.raises(PackageError, match=r"generators/generators.yaml: it makes no test case in secret; "
                                           r"add some under its data: secret:"):
        load_package(package)


def test_data_left_to_testdata_tools_gen_sh_is_named_with_what_to_do(package_copy):
    package = package_copy("echo")
    shutil.rmtree(package / "data")
    (package / "generators").mkdir()
    (package / "generators/gen.sh").write_text("#!/bin/bash\n. ../../testdata_tools/gen.sh\nsample 1\n")
    done = run_judge("test", str(package))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "no data/ directory" in done.stderr and "generators/gen.sh makes them with Kattis' testdata_tools" in done.stderr
    assert "./gen.sh" in done.stderr


def test_borrowed_metadata_keys_load(package_copy):
    package = package_copy("echo")
    (package / "problem.yaml").write_text("problem_format_version: 2025-09\nname: Echo\nsource_url: https://example.org\n")
    assert load_package(package).package.samples_only


def _package_with_rules(package: Path, rules: str) -> Path:
    """The echo package as a 2025-09 one with secret cases, a few submissions and ``rules`` as
    its submissions.yaml."""
    (package / "problem.yaml").write_text("problem_format_version: 2025-09\nname: Echo\nlimits:\n  time_limit: 2\n")
    (package / "data/secret").mkdir()
    for name, number in (("01", 3), ("02", 15)):
        (package / f"data/secret/{name}.in").write_text(f"{number}\n")
        (package / f"data/secret/{name}.ans").write_text(f"{number}\n")
    shutil.rmtree(package / "submissions")
    for name, text in {"accepted/echo.py": "print(input())\n",
                       "small/only_small.py": "n = int(input())\nprint(n if n < 10 else 0)\n",
                       "mixed/entry/main.py": "print('wrong entry point')\n",
                       "mixed/entry/solve.py": "print(input())\n"}.items():
        (package / "submissions" / name).parent.mkdir(parents=True, exist_ok=True)
        (package / "submissions" / name).write_text(text)
    shutil.copytree(PACKAGES / "echo/submissions/accepted/packaged_java", package / "submissions/mixed/java")
    (package / "submissions/submissions.yaml").write_text(rules)
    return package


RULES = """\
small/only_small.py:
  "sample/1":
    permitted: [AC]
  "secret/0{1, 3}":
    permitted: [AC]
  secret/02:
    required: [WA]
mixed/entry:
  entrypoint: solve.py
  permitted: [AC]
mixed/java:
  entrypoint: Echo
  permitted: [AC]
"""


def test_submissions_yaml_rules_hold_case_by_case_with_entry_points(package_copy):
    package = _package_with_rules(package_copy("echo"), RULES)
    done = run_judge("test", str(package))
    assert done.returncode == 0, done.stdout + done.stderr
    rows = {line.split()[2]: line for line in done.stdout.splitlines() if " submission " in line}
    assert "meets submissions.yaml: 2 AC, 2 WA" in rows["small/only_small.py"]
    assert "meets submissions.yaml: 4 AC" in rows["mixed/entry"]
    assert "meets submissions.yaml: 4 AC" in rows["mixed/java"]  # its main class, in its Java package
    assert "meets submissions.yaml: 4 AC" in rows["accepted/echo.py"]  # the default folder's rule


def test_a_failed_rule_names_the_limit_behind_an_rte_and_every_rule_failed(package_copy):
    """A time_limit_exceeded submission that floods its output is stopped at the output limit:
    the format's RTE says which limit, and both rules of the folder it fails are named."""
    package = _package_with_rules(package_copy("echo"), "mixed/entry:\n  entrypoint: solve.py\n")
    (package / "submissions/time_limit_exceeded").mkdir()
    (package / "submissions/time_limit_exceeded/floods.py").write_text("while True:\n    print('x' * 1000)\n")
    done = run_judge("test", str(package))
    row = next(line for line in done.stdout.splitlines() if "floods.py" in line)
    assert "got RTE (OLE: output over the limit of" in row, row
    assert "no case got one of the required TLE (time_limit_exceeded)" in row, row


def test_a_rule_that_comes_of_use_for_time_limit_alone_says_so(package_copy):
    package = _package_with_rules(package_copy("echo"), "small/only_small.py:\n  use_for_time_limit: upper\n")
    done = run_judge("test", str(package))
    assert "no case got one of the required TLE (small/only_small.py: use_for_time_limit: upper)" in done.stdout, \
        done.stdout


def test_a_broken_submissions_yaml_rule_fails_and_a_bad_key_is_named(package_copy):
    package = _package_with_rules(package_copy("echo"), RULES.replace("required: [WA]", "permitted: [AC]"))
    done = run_judge("test", str(package))
    assert done.returncode == 1
    assert "secret/02 got WA, not one of the permitted AC (small/only_small.py, secret/02)" in done.stdout
    (package / "submissions/submissions.yaml").write_text("accepted:\n  permited: [AC]\n")
    done = run_judge("test", str(package))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "submissions.yaml: accepted: unknown key 'permited'" in done.stderr


SPIN = "import time\nend = time.process_time() + {seconds}\nwhile time.process_time() < end:\n    pass\nprint(input())\n"


@pytest.mark.slow
def test_judge_test_warns_of_verdicts_within_the_safety_margins(package_copy):
    package = package_copy("echo")
    # The raised limit (5 s) is seven times barely.py's CPU time: its wall time stays within it
    # on a loaded machine, where a run's wall time is several times its CPU time.
    (package / "problem.yaml").write_text("name: Echo\nlimits:\n  time_limit: 0.5\n  time_multiplier: 4\n"
                                          "  time_safety_margin: 10\n")
    (package / "submissions/mixed").rename(package / "elsewhere")  # only the folders below matter here
    (package / "submissions/time_limit_exceeded").mkdir()
    for name, seconds in {"accepted/slowish.py": 0.3, "time_limit_exceeded/barely.py": 0.7,
                          "time_limit_exceeded/forever.py": 100}.items():
        (package / "submissions" / name).write_text(SPIN.format(seconds=seconds))
    done = run_judge("test", str(package))
    assert done.returncode == 0, done.stdout + done.stderr
    rows = {line.split()[2]: line for line in done.stdout.splitlines() if " submission " in line}
    assert "more than the time limit / time_multiplier = 0.12 s" in rows["accepted/slowish.py"]
    assert "warning" not in rows["accepted/echo.py"]
    assert "got TLE" in rows["time_limit_exceeded/barely.py"]
    assert "sample/1 ends within time_limit * time_safety_margin = 5 s, AC there" in rows["time_limit_exceeded/barely.py"]
    assert "got TLE" in rows["time_limit_exceeded/forever.py"] and "warning" not in rows["time_limit_exceeded/forever.py"]


@pytest.mark.parametrize("cold", [False, True], ids=["warm", "cold"])
def test_a_python_folder_may_have_a_module_named_solution(package_copy, cold):
    package = package_copy("subtasks")
    folder = package / "submissions" / "accepted" / "modules"
    folder.mkdir()
    (folder / "main.py").write_text("from solution import double\nprint(double(int(input())))\n")
    (folder / "solution.py").write_text("def double(x):\n    return 2 * x\n")
    done = run_judge("run", str(package), str(folder), "--no-record", *(["--cold"] if cold else []))
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_python_module_named_as_the_judges_own_files_is_a_clear_error(package_copy):
    package = package_copy("subtasks")
    folder = package / "submissions" / "accepted" / "modules"
    folder.mkdir()
    (folder / "main.py").write_text("from harness import double\nprint(double(int(input())))\n")
    (folder / "harness.py").write_text("def double(x):\n    return 2 * x\n")
    done = run_judge("run", str(package), str(folder), "--no-record")
    assert "harness.py: the judge's own files have these names; rename yours" in done.stdout, done.stdout


def test_a_static_validation_score_is_refused_not_left_out(package_copy):
    """2025-09 "Static validator": a group's static_validation_score is a scored test case of its
    own; judging without it would give other scores than the package's, so it is refused."""
    package = package_copy("multiplier")
    (package / "static_validator").mkdir()
    (package / "static_validator/validate.py").write_text("import sys\nsys.exit(42)\n")
    with (package / "data/secret/close/test_group.yaml").open("a") as settings:
        settings.write("static_validation_score: 10\n")
    done = run_judge("test", str(package))
    assert done.returncode == 2 and "static_validation_score: static validation" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_a_failed_sample_of_a_package_with_its_own_validator_points_at_no_difference(package_copy):
    """closest's validator accepts other outputs than the answer file's: the report calls that
    one right output, and puts no caret under where the program's first differs from it."""
    package = package_copy("closest")
    done = run_judge("run", str(package), str(package / "submissions/wrong_answer/words.py"), "--no-record")
    assert "expected (one right output; the checker may accept others):\n  1 | 5\ngot:\n  1 | seventeen\n" in done.stdout
    assert "^" not in done.stdout
    assert not load_package(package).one_right_output
    assert load_package(PACKAGES / "echo").one_right_output  # the default validator, no tolerance
    assert not load_package(PACKAGES / "addition").one_right_output  # float_tolerance 1e-6


@pytest.mark.parametrize("folder", ["multi_cpp", "multi_java", "multi_js", "packaged_js"])
def test_a_folder_submissions_cases_run_warm_as_a_single_files_do(folder, monkeypatch, cache):
    """Its build ships the exec server, so no case falls back to a cold start (which costs a
    JVM or node start more per case)."""
    from judge.languages import warm

    cold_runs = []
    real = warm.run_sandboxed
    monkeypatch.setattr(warm, "run_sandboxed", lambda *args, **kwargs: cold_runs.append(args) or real(*args, **kwargs))
    problem = load_package(PACKAGES / "addition")
    result = judge_submission(problem, PACKAGES / "addition" / "submissions" / "accepted" / folder)
    assert result.verdict == Verdict.AC and len(result.cases) == len(problem.cases)
    assert cold_runs == []



def test_a_bytecode_cache_and_hidden_files_beside_the_submissions_are_no_submissions(package_copy):
    package = package_copy("echo")
    (package / "submissions" / "accepted" / "__pycache__").mkdir()
    (package / "submissions" / "accepted" / "__pycache__" / "echo.cpython-311.pyc").write_bytes(b"\0" * 16)
    (package / "submissions" / "accepted" / ".notes.txt").write_text("to do\n")
    names = [path.name for path, _ in submissions(load_package(package).package)]
    assert "__pycache__" not in names and ".notes.txt" not in names and "echo.py" in names


# ---------------------------------------------------------------------------------------------
# Submissions the judge cannot judge: not judged, counted apart, never ok

@pytest.mark.slow
def test_a_kotlin_submission_is_judged(package_copy):
    package = package_copy("tool_sum")
    done = run_judge("test", "--strict", str(package))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "tool_sum  submission accepted/sum.kt  ok  got AC" in done.stdout
    assert done.stdout.rstrip().endswith("\n9 passed, 0 failed")


def test_a_submission_without_its_toolchain_is_not_judged(package_copy, monkeypatch):
    from judge.authoring.verification import checks_of, checks_summary
    from judge.languages import LANGUAGES

    monkeypatch.setattr(type(LANGUAGES["kotlin"]), "toolchain", ("kotlinc-not-installed-here", "java"))
    package = package_copy("tool_sum")
    checks = list(checks_of([str(package)]))
    kotlin = next(check for check in checks if check.what == "submission accepted/sum.kt")
    assert (kotlin.not_made, kotlin.passed) == ("not judged", False)
    assert kotlin.detail.startswith("no Kotlin toolchain here (kotlin: `kotlinc-not-installed-here` not found; "
                                    "install kotlinc-not-installed-here and java (Debian: apt-get install kotlin))")
    assert checks_summary(checks) == "8 passed, 0 failed, 1 not judged: no Kotlin toolchain here"


def test_submissions_switched_off_by_their_name_are_left_out(package_copy):
    package = package_copy("tool_sum")
    (package / "submissions/accepted/sum.rs.disabled").write_text("fn main() {}\n")
    (package / "submissions/accepted/sum.py.template").write_text("print(0)\n")
    assert [path.name for path, _ in submissions(load_package(package).package)] == ["sum.kt", "sum.py", "difference.py"]


def test_a_folder_of_shell_scripts_runs_from_its_own_folder_as_domjudge_runs_it():
    """DOMjudge's hello (accepted/multifile-sh): the entry point named in submissions.json sources
    the other script by a path relative to the folder (``. ./greet.sh``), which DOMjudge's run
    script makes work by running from the program's folder."""
    done = run_judge("test", str(PACKAGES / "greeting"))
    rows = {line.split()[2]: line for line in done.stdout.splitlines() if line.startswith("greeting  submission")}
    assert "ok  got AC" in rows["accepted/two_scripts"], done.stdout


def test_annotations_domjudge_refuses_in_check_manually_are_not_judged_with_its_reason():
    """DOMjudge's hello (check_manually/bad-expected-result-*): one marker twice, a score line
    naming results beside a results line, two annotated files. DOMjudge refuses each at import, for
    a person to check; so are they here not judged with that reason (neither failed nor ok), and a
    check_manually source without a result line is for a person too."""
    done = run_judge("test", str(PACKAGES / "greeting"))
    assert done.returncode == 0, done.stdout + done.stderr
    rows = {line.split()[2]: line for line in done.stdout.splitlines() if line.startswith("greeting  submission")}
    refused = "not judged  folder check_manually asks for a check by hand: DOMjudge refuses this submission at import"
    assert refused in rows["check_manually/twice.c"] and "more than one @EXPECTED_RESULTS@ line" in rows[
        "check_manually/twice.c"]
    assert refused in rows["check_manually/results_and_score.c"]
    assert refused in rows["check_manually/two_annotated"] and "(expected_result.txt, greet.c)" in rows[
        "check_manually/two_annotated"]
    assert "not judged  folder check_manually asks for a check by hand and the source names no result" in rows[
        "check_manually/unannotated.c"]
    assert done.stdout.rstrip().endswith("7 passed, 0 failed, 4 not judged: folder check_manually asks for a check by "
                                         "hand: DOMjudge refuses this submission at import; folder check_manually "
                                         "asks for a check by hand and the source names no result")


def test_an_annotation_domjudge_refuses_fails_outside_check_manually(package_copy):
    package = package_copy("greeting")
    (package / "submissions/wrong_answer").mkdir()
    shutil.move(package / "submissions/check_manually/twice.c", package / "submissions/wrong_answer/twice.c")
    shutil.rmtree(package / "submissions/check_manually")
    done = run_judge("test", str(package))
    assert done.returncode == 1
    assert "submission wrong_answer/twice.c  FAIL  twice.c has more than one @EXPECTED_RESULTS@ line" in done.stdout


def test_a_package_submission_has_the_stack_its_memory_limit_allows():
    """DOMjudge (runguard) and BAPCtools leave a submission's stack unlimited, bounded by the memory
    limit alone: deep recursion in C runs, and the C library gives threads its own default stack
    (DOMjudge's hello, multiple/test-multithread.c, aborts on any other)."""
    done = run_judge("test", str(PACKAGES / "greeting"))
    rows = {line.split()[2]: line for line in done.stdout.splitlines() if line.startswith("greeting  submission")}
    assert "ok  got AC" in rows["accepted/deep_stack.c"], done.stdout
    assert "ok  got WA" in rows["mixed/thread_stack.c"], done.stdout
