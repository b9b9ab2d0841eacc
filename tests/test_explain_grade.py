"""`judge grade`'s counterexamples: each submission that failed a hidden case gets an input of
the judge's own that shows the fault, within one budget for the class; kept in the results store,
so that a report rendered again shows them without searching again; shown only where the
feedback level shows counterexamples."""

import json
import shutil
import sqlite3
import time

from conftest import ROOT, run_judge
from judge.formats.catalog import load_problem
from test_explain import hidden_texts, reproduce, same_input

SEARCHING = "searching for failing inputs"


def class_of(tmp_path, students: dict[str, tuple[str, str]]):
    """SUBMISSIONS/<student>/<problem>.<ext> from the example solutions ``students`` names."""
    folder = tmp_path / "class"
    for student, (problem_id, source) in students.items():
        (folder / student).mkdir(parents=True)
        shutil.copy(ROOT / source, folder / student / f"{problem_id}{(ROOT / source).suffix}")
    return folder


def grade(folder, *options):
    done = run_judge("grade", str(folder), "--db", str(folder.parent / "results.db"), *options)
    assert done.returncode == 0, done.stderr
    return done


def test_a_hidden_failure_gets_a_counterexample_kept_in_the_store(tmp_path):
    folder = class_of(tmp_path, {"alice": ("stones", "solutions/stones/wrong_answer/multiple_of_four.py"),
                                 "bob": ("stones", "solutions/stones/accepted/game_dp.cpp")})
    first = grade(folder, "--format", "json", "--explain", "30")
    assert SEARCHING in first.stderr
    problems = {student["student"]: student["problems"]["stones"] for student in json.loads(first.stdout)["students"]}
    example = problems["alice"]["counterexample"]
    stones = load_problem("stones")
    assert same_input(example["input"]) not in {same_input(case.input) for case in stones.cases
                                                 if case.visibility != "sample"}
    assert reproduce(stones, "solutions/stones/wrong_answer/multiple_of_four.py", example["input"]).verdict == "WA"
    assert "counterexample" not in problems["bob"]  # AC: nothing to explain
    with sqlite3.connect(folder.parent / "results.db") as db:
        assert db.execute("SELECT COUNT(*) FROM explanations").fetchone()[0] == 1
    again = grade(folder, "--format", "json")
    assert SEARCHING not in again.stderr  # from the store
    assert json.loads(again.stdout) == json.loads(first.stdout)


def test_the_class_budget_is_held(tmp_path):
    wrong = ("stones", "solutions/stones/wrong_answer/multiple_of_four.py")
    folder = class_of(tmp_path, {f"student{index}": wrong for index in range(4)})
    started = time.monotonic()
    done = grade(folder, "--format", "json", "--explain", "1")
    students = json.loads(done.stdout)["students"]
    notes = [student["problems"]["stones"]["counterexample_note"] for student in students]
    # One search fits in a second of budget; the others are not started, and say so.
    assert sum("budget of 1 s was spent" in note for note in notes) >= 3, notes
    assert time.monotonic() - started < 120
    with sqlite3.connect(folder.parent / "results.db") as db:  # what was not searched is not kept
        assert db.execute("SELECT COUNT(*) FROM explanations").fetchone()[0] <= 1


def test_gradescope_shows_counterexamples_only_where_the_level_does(tmp_path):
    folder = class_of(tmp_path, {"alice": ("omok", "solutions/omok/wrong_answer/six_wins.py")})
    grade(folder, "--format", "gradescope", "--out", str(tmp_path / "shown"), "--explain", "30")
    output = json.loads((tmp_path / "shown/alice/results.json").read_text())["tests"][0]["output"]
    assert "counterexample (an input of the judge's own, not a hidden case" in output
    omok = load_problem("omok")
    assert not [text for text in hidden_texts(omok) if text in output]
    grade(folder, "--format", "gradescope", "--out", str(tmp_path / "hints"), "--feedback", "hints")
    output = json.loads((tmp_path / "hints/alice/results.json").read_text())["tests"][0]["output"]
    assert "counterexample" not in output


def test_no_explain_searches_nothing(tmp_path):
    folder = class_of(tmp_path, {"alice": ("stones", "solutions/stones/wrong_answer/multiple_of_four.py")})
    done = grade(folder, "--format", "json", "--no-explain")
    assert SEARCHING not in done.stderr
    assert "counterexample" not in json.loads(done.stdout)["students"][0]["problems"]["stones"]


def test_gradescope_at_full_shows_the_failed_hidden_cases_whole(tmp_path):
    folder = class_of(tmp_path, {"alice": ("omok", "solutions/omok/wrong_answer/six_wins.py")})
    grade(folder, "--format", "gradescope", "--out", str(tmp_path / "full"), "--feedback", "full", "--no-explain")
    output = json.loads((tmp_path / "full/alice/results.json").read_text())["tests"][0]["output"]
    omok = load_problem("omok")
    failed = [line.split(":")[0] for line in output.splitlines() if line.endswith("WA") or ": WA -" in line]
    shown = [case for case in omok.cases if case.name in failed and case.visibility != "sample"]
    assert shown and all(f"\n{case.name}: WA" in output for case in shown)
    assert "(the output of a hidden case is not kept)" in output
    assert "input:\n  1 | " in output
