"""Feedback levels: a suite's `feedback:` policy, and `--feedback`, which asks for less, never more.
Below "full", no hidden case's input or expected output appears in any output of `judge run`."""

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
        if case["name"] == "n-2":
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
    row = next(line for line in done.stdout.splitlines() if line.startswith("n-2 "))
    assert row.split()[1:2] == ["WA"] and "got" not in row
    assert "two stones" not in done.stdout and "counterexample" not in done.stdout
    result = judge_json("run", "stones", str(WRONG), "--problems", str(project), "--no-record", "--explain", "5")
    n2 = next(case for case in result["cases"] if case["name"] == "n-2")
    assert n2["message"] == "" and n2["hint"] == "" and result["feedback"] == "verdict"
    assert "counterexample" not in result


def test_hints_level_shows_messages_and_hints_but_searches_nothing(tmp_path):
    done = judged(stones_with(tmp_path, "hints"))
    assert "got 'SK'" in done.stdout and "two stones: one each" in done.stdout
    assert "counterexample" not in done.stdout


def test_the_default_level_searches_for_a_counterexample(tmp_path):
    done = judged(stones_with(tmp_path, "counterexamples"))
    assert "counterexample (an input of the judge's own" in done.stdout


def test_full_shows_hidden_cases_from_its_date_on(tmp_path):
    before = judged(stones_with(tmp_path, {"level": "full", "full_after": "2999-01-01"}))
    assert "expected:" not in before.stdout.split("counterexample")[0]  # the samples pass: no case shown
    after = judged(stones_with(tmp_path, {"level": "full", "full_after": "2000-01-01"}))
    shown = after.stdout.split("n-2: WA", 1)[1]
    assert "input:\n  1 | 2" in shown and "expected:\n> 1 | CY" in shown
    full = run_judge("run", "stones", str(WRONG), "--problems", str(tmp_path), "--no-record", "--show", "n-2")
    assert full.returncode == 1 and "expected:\nCY" in full.stdout


def test_hidden_expected_outputs_never_appear_below_full(tmp_path):
    """Every hidden case n-2..n-7 expects CY (the second player wins), which the wrong program
    never prints on them: a 'CY' in a failed hidden case's lines would be a leak."""
    for level in ("verdict", "hints", "counterexamples"):
        done = run_judge("run", "stones", str(WRONG), "--problems", str(stones_with(tmp_path, level)), "--no-record")
        hidden_rows = [line for line in done.stdout.splitlines() if line.startswith(("n-2 ", "n-6 "))]
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
                                "-k", "n-2")
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
    assert "n-2: WA - line 1, token 1: got 'SK'" in output and "hint: two stones: one each" in output
    run_judge("grade", str(folder), "--problems", str(project), "--db", str(db), "--format", "gradescope",
              "--out", str(out), "--feedback", "verdict")
    output = json.loads((out / "ana/results.json").read_text())["tests"][0]["output"]
    assert "\nn-2: WA\n" in output and "two stones" not in output and "got 'SK'" not in output
    report = json.loads(run_judge("grade", str(folder), "--problems", str(project), "--db", str(db),
                                  "--format", "json", "--feedback", "verdict").stdout)
    assert "got 'SK'" not in json.dumps(report)
