"""Feedback levels: a suite's `feedback:` policy, and `--feedback`, which asks for less, never more.
Below "full", no hidden case's input or expected output appears in any output of `judge run`, and
a hidden case is shown by its number (smallest-even is stones' second hidden case: "hidden 2")."""

from __future__ import annotations

import json

import yaml
from conftest import ROOT, judge_json, project_with, run_judge

WRONG = ROOT / "solutions/stones/wrong_answer/multiple_of_four.py"  # wrong on n = 2, 6, ... (hidden cases)


def stones_with(tmp_path, feedback):
    project = project_with(tmp_path, "stones")
    path = project / "cases/stones.yaml"
    suite = yaml.safe_load(path.read_text())
    suite["feedback"] = feedback
    for case in suite["cases"]:
        if case["name"] == "smallest-even":
            case["hint"] = "two stones: one each"
    path.write_text(yaml.safe_dump(suite, sort_keys=False))
    return project


def judged(project, *extra):
    return run_judge("run", "stones", str(WRONG), "--problems", str(project), "--no-record", "--explain", "5", *extra,
                     env={"COLUMNS": "200"})  # wide enough for whole messages


def test_verdict_level_shows_hidden_verdicts_only(tmp_path):
    project = stones_with(tmp_path, "verdict")
    done = judged(project)
    assert done.returncode == 1
    row = next(line for line in done.stdout.splitlines() if line.startswith("hidden 2 "))
    assert row.split()[2:3] == ["WA"] and "got" not in row and "smallest-even" not in done.stdout
    assert "two stones" not in done.stdout and "counterexample" not in done.stdout
    result = judge_json("run", "stones", str(WRONG), "--problems", str(project), "--no-record", "--explain", "5")
    n2 = next(case for case in result["cases"] if case["name"] == "hidden 2")
    assert n2["message"] == "" and n2["hint"] == "" and result["feedback"] == "verdict"
    assert "counterexample" not in result


def test_hints_level_shows_the_authors_hints_but_no_checker_message_and_searches_nothing(tmp_path):
    done = judged(stones_with(tmp_path, "hints"))
    assert "hidden 2 (WA): two stones: one each" in done.stdout
    assert "got 'SK'" not in done.stdout  # the checker quotes the output, which the program steers
    assert "counterexample" not in done.stdout


def test_the_default_level_searches_for_a_counterexample(tmp_path):
    done = judged(stones_with(tmp_path, "counterexamples"))
    assert "counterexample (an input of the judge's own" in done.stdout


def test_full_shows_hidden_cases_from_its_date_on(tmp_path):
    before = judged(stones_with(tmp_path, {"level": "full", "full_after": "2999-01-01"}))
    assert "expected:" not in before.stdout.split("counterexample")[0]  # the samples pass: no case shown
    after = judged(stones_with(tmp_path, {"level": "full", "full_after": "2000-01-01"}))
    shown = after.stdout.split("smallest-even: WA", 1)[1]
    assert "input:\n  1 | 2" in shown and "expected:\n> 1 | CY" in shown
    full = run_judge("run", "stones", str(WRONG), "--problems", str(tmp_path), "--no-record", "--show", "smallest-even")
    assert full.returncode == 1 and "expected:\nCY" in full.stdout


def test_hidden_expected_outputs_never_appear_below_full(tmp_path):
    """Every hidden case smallest-even..small-odd expects CY (the second player wins), which the wrong program
    never prints on them: a 'CY' in a failed hidden case's lines would be a leak."""
    for level in ("verdict", "hints", "counterexamples"):
        done = run_judge("run", "stones", str(WRONG), "--problems", str(stones_with(tmp_path, level)), "--no-record")
        hidden_rows = [line for line in done.stdout.splitlines() if line.startswith(("hidden 2 ", "hidden 5 "))]
        assert hidden_rows and all("CY" not in row for row in hidden_rows), (level, hidden_rows)
        assert "expected:" not in done.stdout


def test_feedback_asks_for_less_never_for_more(tmp_path):
    project = stones_with(tmp_path, "hints")
    lower = judged(project, "--feedback", "verdict")
    assert lower.returncode == 1 and "two stones" not in lower.stdout
    higher = judged(project, "--feedback", "full")
    assert higher.returncode == 2 and "can ask for less" in higher.stderr and "Traceback" not in higher.stderr


def test_a_malformed_policy_is_a_clear_error(tmp_path):
    for policy, said in [("everything", "level must be one of verdict, hints, counterexamples, full"),
                         ({"level": "hints", "full_after": "2026-01-01"}, "it needs level: full"),
                         ({"level": "full", "full_after": "next week"}, "YYYY-MM-DD"),
                         ({"levle": "full"}, "unknown field 'levle'")]:
        done = judged(stones_with(tmp_path, policy))
        assert done.returncode == 2 and said in done.stderr and "Traceback" not in done.stderr, (policy, done.stderr)


def test_the_pytest_plugin_applies_the_policy(tmp_path, pytester):
    project = stones_with(tmp_path, "verdict")
    result = pytester.runpytest(str(project / "cases/stones.yaml"), "--solution", str(WRONG), "-p", "no:xdist",
                                "-k", "smallest-even")
    text = result.stdout.str()
    assert "WA" in text and "got 'SK'" not in text and "two stones" not in text


def test_grade_applies_the_policy_where_students_read_it_and_feedback_everywhere(tmp_path):
    from conftest import make_class

    (tmp_path / "project").mkdir()
    project = stones_with(tmp_path / "project", "hints")
    folder = make_class(tmp_path / "subs", {"ana/stones.py": WRONG})
    db = tmp_path / "results.db"
    out = tmp_path / "gs"
    done = run_judge("grade", str(folder), "--problems", str(project), "--db", str(db), "--format", "gradescope",
                     "--out", str(out))
    assert done.returncode == 0, done.stderr
    output = json.loads((out / "ana/results.json").read_text())["tests"][0]["output"]
    assert "hidden 2: WA - hint: two stones: one each" in output and "got 'SK'" not in output
    run_judge("grade", str(folder), "--problems", str(project), "--db", str(db), "--format", "gradescope",
              "--out", str(out), "--feedback", "verdict")
    output = json.loads((out / "ana/results.json").read_text())["tests"][0]["output"]
    assert "\nhidden 2: WA\n" in output and "two stones" not in output and "got 'SK'" not in output
    report = json.loads(run_judge("grade", str(folder), "--problems", str(project), "--db", str(db),
                                  "--format", "json", "--feedback", "verdict").stdout)
    assert "got 'SK'" not in json.dumps(report)


def test_a_hidden_case_its_author_marks_safe_to_show_keeps_its_name(tmp_path):
    project = stones_with(tmp_path, "verdict")
    path = project / "cases/stones.yaml"
    path.write_text(path.read_text().replace("- name: smallest-even\n", "- name: smallest-even\n  show_name: true\n"))
    done = judged(project)
    assert any(line.startswith("smallest-even ") for line in done.stdout.splitlines()), done.stdout
    assert any(line.startswith("hidden 3 ") for line in done.stdout.splitlines())  # the others keep their numbers
    path.write_text(path.read_text().replace("show_name: true", "show_name: yes please"))
    broken = judged(project)
    assert broken.returncode == 2 and "field 'show_name' must be bool" in broken.stderr


def test_names_that_hold_their_inputs_are_told_apart():
    from judge.model.feedback import name_holds_input

    for name, text in [("n-100", "100\n"), ("n-1", "1\n"), ("case100", "100\n"), ("pair-3-4", "3 4\n"),
                       ("empty-abc", "abc\n")]:
        assert name_holds_input(name, text), name
    for name, text in [("largest", "1000\n"), ("random-3", "3 4 2 2 5 5 2 1 3 1\n"), ("all-twos", "2 2 2\n"),
                       ("no-trailing-newline", "10")]:
        assert not name_holds_input(name, text), name


def test_judge_test_warns_of_a_hidden_case_named_for_its_input(tmp_path):
    project = project_with(tmp_path, "stones")
    path = project / "cases/stones.yaml"
    assert "case names" not in run_judge("test", "stones", "--problems", str(project)).stdout
    path.write_text(path.read_text().replace("- name: mid-even\n", "- name: n-100\n"))
    done = run_judge("test", "stones", "--problems", str(project))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "warning: the names of hidden cases n-100 hold their inputs" in done.stdout
