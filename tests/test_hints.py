"""An author's hints: a case or a group of a suite may carry `hint:` and `description:`, a
package's case a `.hint` and a `.desc` file beside its `.in`; they are shown when the case fails,
in the table, the JSON and the pytest plugin's message, and never for a case that passed."""

from __future__ import annotations

import shutil

import yaml
from conftest import ROOT, judge_json, project_with, run_judge

WRONG = ROOT / "solutions/stones/wrong_answer/multiple_of_four.py"  # right on n = 1, 3, 4; wrong on 2 and 6
PACKAGES = ROOT / "tests" / "packages"
ROUNDS = PACKAGES / "addition/submissions/wrong_answer/rounds.py"  # wrong on sample/2 only


def stones_with_hints(tmp_path):
    project = project_with(tmp_path, "stones")
    path = project / "cases/stones.yaml"
    suite = yaml.safe_load(path.read_text())
    suite["groups"] = {"edges": {"hint": "try the smallest piles by hand", "description": "tiny n"}}
    for case in suite["cases"]:
        if case["name"] == "smallest-even":
            case["hint"] = "with two stones each player takes one"
        if case["name"] == "takes-all-three":
            case["hint"] = "a hint of a case that passes"
    path.write_text(yaml.safe_dump(suite, sort_keys=False))
    return project


def test_a_failed_case_shows_its_own_hint_else_its_groups(tmp_path):
    project = stones_with_hints(tmp_path)
    done = run_judge("run", "stones", str(WRONG), "--problems", str(project), "--no-record")
    assert done.returncode == 1, done.stderr
    hints = done.stdout.split("hints for the failed cases:\n", 1)[1]
    # smallest-even and small-even, shown by their numbers among the hidden cases
    assert "hidden 2 (WA): tiny n - with two stones each player takes one" in hints
    assert "hidden 5 (WA): tiny n - try the smallest piles by hand" in hints
    assert "passes" not in done.stdout and "hidden 1 (" not in hints  # AC cases: their hints are not shown


def test_the_json_carries_the_hints_of_failed_cases_only(tmp_path):
    project = stones_with_hints(tmp_path)
    cases = {case["name"]: case for case in judge_json("run", "stones", str(WRONG), "--problems", str(project),
                                                        "--no-record")["cases"]}
    assert cases["hidden 2"]["hint"] == "with two stones each player takes one"  # smallest-even
    assert cases["hidden 2"]["description"] == "tiny n"
    assert cases["hidden 3"]["verdict"] == "AC" and cases["hidden 3"]["hint"] == ""  # takes-all-three


def test_a_group_entry_that_is_neither_points_nor_a_mapping_is_a_clear_error(tmp_path):
    project = project_with(tmp_path, "stones")
    path = project / "cases/stones.yaml"
    suite = yaml.safe_load(path.read_text())
    suite["groups"] = {"edges": {"hnit": "typo"}}
    path.write_text(yaml.safe_dump(suite, sort_keys=False))
    done = run_judge("run", "stones", str(WRONG), "--problems", str(project), "--no-record")
    assert done.returncode == 2 and "did you mean 'hint'" in done.stderr and "Traceback" not in done.stderr


def test_a_packages_hint_and_desc_files_are_shown_when_the_case_fails(tmp_path):
    package = tmp_path / "addition"
    shutil.copytree(PACKAGES / "addition", package)
    (package / "data/sample/2.hint").write_text("halves are not rounded\n")
    (package / "data/sample/2.desc").write_text("a sum with a fraction\n")
    (package / "data/sample/1.hint").write_text("a hint of a case that passes\n")
    done = run_judge("run", str(package), str(ROUNDS), "--no-record")
    assert done.returncode == 1
    assert "sample/2 (WA): a sum with a fraction - halves are not rounded" in done.stdout
    assert "passes" not in done.stdout


def test_the_pytest_plugin_names_the_hint(tmp_path, pytester):
    project = stones_with_hints(tmp_path)
    result = pytester.runpytest(str(project / "cases/stones.yaml"), "--solution", str(WRONG), "-p", "no:xdist")
    result.stdout.fnmatch_lines(["*smallest-even*hint: tiny n - with two stones each player takes one*"])
