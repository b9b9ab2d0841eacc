"""`judge grade --assignment FILE`: exactly the assignment's problems, scaled to its points, with
its deadline, languages and feedback; missing, late and zero told apart in every format; and an
assignment file's faults named by their field."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
from datetime import datetime

import pytest
import yaml
from conftest import ROOT, make_class, run_judge

from judge.classroom.assignment import AssignmentError, load_assignment
from judge.languages import LANGUAGES

SOLUTIONS = ROOT / "solutions"
SCHEMA = ROOT / "judge" / "schemas" / "assignment.schema.json"
DUE = "2026-11-20T23:59:00+00:00"
BEFORE, AFTER = datetime.fromisoformat("2026-11-19T10:00:00+00:00"), datetime.fromisoformat("2026-11-21T08:00:00+00:00")
WEEK3 = f"""\
name: Week 3
problems:
  stones: 60
  footholds: {{points: 40}}
due: {DUE}
languages: [python]
"""


@pytest.fixture(scope="module")
def week3(tmp_path_factory):
    """ana solved both; ben wrote stones in C (Python only); cy's stones is wrong (a zero) and he
    also sent omok, which is not part of the assignment; dee's stones came after the deadline;
    eve solved footholds only."""
    base = tmp_path_factory.mktemp("assignment")
    folder = make_class(base / "subs", {
        "ana/stones.py": SOLUTIONS / "stones/accepted/game_dp.py",
        "ana/footholds.py": SOLUTIONS / "footholds/accepted/minimax.py",
        "ben/stones.c": SOLUTIONS / "stones/accepted/parity.c",
        "cy/stones.py": SOLUTIONS / "stones/wrong_answer/even_wins.py",
        "cy/omok.py": SOLUTIONS / "stones/accepted/game_dp.py",
        "dee/stones.py": SOLUTIONS / "stones/accepted/game_dp.py",
        "eve/footholds.py": SOLUTIONS / "footholds/accepted/minimax.py",
    })
    for path in folder.glob("*/*"):
        when = AFTER if path.parent.name == "dee" else BEFORE
        os.utime(path, (when.timestamp(), when.timestamp()))
    assignment = base / "week3.yaml"
    assignment.write_text(WEEK3)
    return folder, assignment, base / "results.db"


def grade(week3, *options: str) -> str:
    folder, assignment, db = week3
    done = run_judge("grade", str(folder), "--assignment", str(assignment), "--db", str(db), "--no-explain", *options)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return done.stdout


def students(week3) -> dict[str, dict]:
    return {student["student"]: student for student in json.loads(grade(week3, "--format", "json"))["students"]}


def test_only_the_assignments_problems_are_columns_scaled_to_its_points(week3):
    data = json.loads(grade(week3, "--format", "json"))
    assert data["max_scores"] == {"stones": 60, "footholds": 40}
    assert data["assignment"]["name"] == "Week 3" and data["assignment"]["total"] == 100
    by_name = {student["student"]: student for student in data["students"]}
    assert set(by_name["cy"]["problems"]) == {"stones", "footholds"}  # his omok makes no column
    assert by_name["ana"]["total"] == 100 and by_name["ana"]["problems"]["stones"]["score"] == 60
    assert by_name["eve"]["total"] == 40
    assert any(entry["file"] == "omok.py" and "not part of this assignment" in entry["reason"]
               for entry in data["not_graded"])
    header = grade(week3).splitlines()[2]
    assert "stones /60" in header and "footholds /40" in header and "total /100" in header and "omok" not in header


def test_canvas_gets_the_assignments_points_possible(week3):
    rows = list(csv.reader(io.StringIO(grade(week3, "--format", "csv", "--canvas", "Week 3"))))
    assert rows[1][0].strip() == "Points Possible" and rows[1][5] == "100"
    assert {row[0]: row[5] for row in rows[2:] if row}["ana"] == "100"


def test_a_submission_in_a_language_not_allowed_is_excluded_with_the_reason_not_a_zero(week3):
    stones = students(week3)["ben"]["problems"]["stones"]
    assert stones["status"] == "not graded" and stones["score"] is None
    assert "written in c; this assignment accepts python only" in stones["reason"]
    ben = next(row for row in csv.DictReader(io.StringIO(grade(week3, "--format", "csv"))) if row["student"] == "ben")
    assert ben["stones"] == "not graded" and "written in c" in ben["not graded"]


def test_missing_late_and_zero_are_three_things_in_every_format(week3):
    by_name = students(week3)
    assert by_name["eve"]["problems"]["stones"] == {"status": "missing", "score": None}
    assert by_name["dee"]["problems"]["stones"]["status"] == "late"
    assert by_name["cy"]["problems"]["stones"]["status"] == "graded" and by_name["cy"]["problems"]["stones"]["score"] == 0

    rows = {row["student"]: row for row in csv.DictReader(io.StringIO(grade(week3, "--format", "csv")))}
    assert (rows["eve"]["stones"], rows["dee"]["stones"], rows["cy"]["stones"]) == ("", "late", "0")

    table = {line.split()[1]: line for line in grade(week3).splitlines() if line[:1].isdigit()}
    assert " late " in f" {table['dee']} " and "0 WA" in table["cy"] and " - " in table["eve"]
    markdown = grade(week3, "--format", "markdown")
    assert "| late " in next(line for line in markdown.splitlines() if "| dee" in line)

    html = grade(week3, "--format", "html")
    assert ">late</span>" in html and ">no submission</span>" in html and "Week 3" in html

    folder, assignment, db = week3
    out = db.parent / "gradescope"
    done = run_judge("grade", str(folder), "--assignment", str(assignment), "--db", str(db), "--no-explain",
                     "--format", "gradescope", "--out", str(out))
    assert done.returncode == 0, done.stderr
    tests = {person: {test["name"]: test for test in json.loads((out / person / "results.json").read_text())["tests"]}
             for person in ("dee", "eve")}
    assert tests["dee"]["stones"]["output"].startswith("late:") and tests["dee"]["stones"]["max_score"] == 60
    assert tests["eve"]["stones"]["output"] == "no submission for this problem"


def test_fail_under_is_a_share_of_the_assignments_points(week3):
    folder, assignment, db = week3
    done = run_judge("grade", str(folder), "--assignment", str(assignment), "--db", str(db), "--no-explain",
                     "--fail-under", "50")
    assert done.returncode == 1
    below = done.stderr.split("judge: below 50% of 100 points (50): ")[1].split("\n")[0].split(", ")
    assert "eve" in below and "ana" not in below  # eve's 40 of 100: below half, though 100 raw points


def test_the_feedback_level_of_the_file_applies(week3, tmp_path):
    folder, _, db = week3
    strict = tmp_path / "strict.yaml"
    strict.write_text(WEEK3 + "feedback: verdict\nhints: false\n")
    done = run_judge("grade", str(folder), "--assignment", str(strict), "--db", str(db), "--format", "json")
    assert done.returncode == 0, done.stderr
    cy = next(student for student in json.loads(done.stdout)["students"] if student["student"] == "cy")
    assert "counterexample" not in cy["problems"]["stones"]
    assert "searching for failing inputs" not in done.stderr


@pytest.mark.parametrize(("text", "named"), [
    ("problems: {stones: {pionts: 60}}", "problems.stones.pionts: unknown field; did you mean 'points'?"),
    ("problems: {stonez: 60}", "problems.stonez: no such problem; did you mean stones?"),
    ("problems: {stones: -5}", "problems.stones: must be a number above 0"),
    ("problems: {stones: 60}\ndue: next friday", "due: 'next friday' is not a time"),
    ("problems: {stones: 60}\nlanguages: [pyhton]", "languages: unknown language 'pyhton'; did you mean python?"),
    ("problems: {stones: 60}\nfeedback: lots", "feedback: must be one of verdict, hints, counterexamples, full"),
    ("problems: {stones: 60}\nsubmissions: 0", "submissions: must be a whole number of at least 1"),
    ("problems: {stones: 60}\nlate_penalty: 10%/day", "late_penalty: needs `due`"),
    ("problem: {stones: 60}", "problem: unknown field; did you mean 'problems'?"),
    ("problems: {stones: 60}\n  bad: [", "not valid YAML"),
])
def test_a_fault_in_the_assignment_file_names_its_field(week3, tmp_path, text, named):
    folder, _, db = week3
    bad = tmp_path / "bad.yaml"
    bad.write_text(text + "\n")
    done = run_judge("grade", str(folder), "--assignment", str(bad), "--db", str(db))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"{bad}" in done.stderr and named in done.stderr


def test_weights_share_the_points_and_the_least_form_is_a_map_of_points(tmp_path):
    weighted = tmp_path / "weighted.yaml"
    weighted.write_text("points: 10\nproblems:\n  stones: {weight: 3}\n  omok: {weight: 1}\n"
                        "due: 2026-12-01\nlate_penalty: 10%/day\nlate_until: 2026-12-04\nsubmissions: 5\n")
    assignment = load_assignment(weighted)
    assert assignment.points == {"stones": 7.5, "omok": 2.5} and assignment.submissions == 5
    assert assignment.policy.penalty_per_day == pytest.approx(0.1)
    assert assignment.policy.deadline == datetime.fromisoformat("2026-12-01T23:59:59+00:00").timestamp()
    least = tmp_path / "least.yaml"
    least.write_text("problems: {stones: 60, omok: 40}\n")
    assert load_assignment(least).points == {"stones": 60, "omok": 40} and load_assignment(least).name == "least"
    mixed = tmp_path / "mixed.yaml"
    mixed.write_text("points: 10\nproblems: {stones: 5, omok: {weight: 1}}\n")
    with pytest.raises(AssignmentError, match="mixes points"):
        load_assignment(mixed)


def test_the_json_schema_agrees_with_the_loader(tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA.read_text())
    assert schema["properties"]["languages"]["items"]["enum"] == list(LANGUAGES)
    jsonschema.validate({"problems": {"stones": 60, "omok": {"weight": 1}}, "languages": ["python"]}, schema)
    for bad in ({"problems": {"stones": {"pionts": 60}}}, {"problems": {}}, {"problem": {"stones": 1}},
                {"problems": {"stones": 1}, "feedback": "lots"}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, schema)
        path = tmp_path / "bad.yaml"
        path.write_text(json.dumps(bad))
        with pytest.raises(AssignmentError):
            load_assignment(path)
    examples = list((ROOT / "examples").glob("assignments/*.yaml"))
    assert examples
    for example in examples:
        jsonschema.validate(yaml.safe_load(example.read_text()), schema)
        load_assignment(example)


def test_a_repository_with_no_commit_by_the_due_date_is_late_not_missing(tmp_path):
    from test_deadlines import commit

    folder = tmp_path / "class"
    for student in ("fay", "gus"):
        (folder / student).mkdir(parents=True)
        subprocess.run(["git", "init", "-q", str(folder / student)], check=True)
    commit(folder / "fay", (SOLUTIONS / "stones/accepted/game_dp.py").read_text(), "2026-11-19T10:00:00+00:00")
    commit(folder / "gus", (SOLUTIONS / "stones/accepted/game_dp.py").read_text(), "2026-11-22T10:00:00+00:00")
    assignment = tmp_path / "week3.yaml"
    assignment.write_text(WEEK3)
    done = run_judge("grade", str(folder), "--assignment", str(assignment), "--db", str(tmp_path / "r.db"),
                     "--format", "json")
    assert done.returncode == 0, done.stderr
    by_name = {student["student"]: student["problems"] for student in json.loads(done.stdout)["students"]}
    assert by_name["gus"]["stones"]["status"] == "late" and by_name["gus"]["stones"]["score"] is None
    assert by_name["fay"]["stones"]["score"] == 60 and by_name["fay"]["footholds"]["status"] == "missing"


def test_the_scoreboard_counts_the_assignments_problems_at_its_points(week3):
    grade(week3)
    _, assignment, db = week3
    done = run_judge("scoreboard", "--db", str(db), "--assignment", str(assignment))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["rank", "student", "stones", "/60", "footholds", "/40", "total", "/100"]
    # Handed in at the same moment: every full score is a first solve (*).
    assert next(line for line in lines if " ana " in line).split()[2:] == ["60", "*", "40", "*", "100"]
    assert next(line for line in lines if " eve " in line).split()[2:] == ["40", "*", "40"]


def test_hints_false_shows_no_hint_at_the_hints_level(tmp_path):
    from test_feedback import WRONG, stones_with

    (tmp_path / "project").mkdir()
    project = stones_with(tmp_path / "project", "counterexamples")
    folder = make_class(tmp_path / "subs", {"zoe/stones.py": WRONG})
    shown = {}
    for hints in ("true", "false"):
        assignment = tmp_path / f"hints-{hints}.yaml"
        assignment.write_text(f"problems: {{stones: 10}}\nfeedback: hints\nhints: {hints}\n")
        out = tmp_path / f"gradescope-{hints}.json"
        done = run_judge("grade", str(folder), "--assignment", str(assignment), "--problems", str(project),
                         "--db", str(tmp_path / "r.db"), "--format", "gradescope", "--out", str(out))
        assert done.returncode == 0, done.stderr
        shown[hints] = json.loads(out.read_text())["tests"][0]["output"]
    assert "two stones: one each" in shown["true"]
    assert "two stones" not in shown["false"] and "hidden 2: WA" in shown["false"]


def test_in_a_repository_only_the_allowed_number_of_versions_of_a_file_counts(tmp_path):
    from test_deadlines import commit

    wrong, right = (SOLUTIONS / "stones/wrong_answer/even_wins.py").read_text(), \
        (SOLUTIONS / "stones/accepted/game_dp.py").read_text()
    repository = tmp_path / "class" / "fay"
    repository.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repository)], check=True)
    for text, day in ((wrong, 16), (right, 17), (wrong, 18)):  # the third version is one too many
        commit(repository, text, f"2026-11-{day}T10:00:00+00:00")
    assignment = tmp_path / "week3.yaml"
    assignment.write_text(WEEK3 + "submissions: 2\n")
    done = run_judge("grade", str(tmp_path / "class"), "--assignment", str(assignment), "--db", str(tmp_path / "r.db"),
                     "--format", "json", "--no-explain")
    assert done.returncode == 0, done.stderr
    fay = json.loads(done.stdout)["students"][0]
    assert fay["problems"]["stones"]["verdict"] == "AC" and fay["late"]["versions"] == {"stones.py": 3}
