"""A class's gradebook (`judge grade --format csv`), and files that could not be graded shown
as "not graded" with the reason in every format, never as "no submission"."""

from __future__ import annotations

import csv
import io
import json

import pytest
from conftest import ROOT, make_class, run_judge

SOLUTIONS = ROOT / "solutions"


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """ana solved both problems; ben sent two files for stones, so neither was graded; the
    folder "=cmd" is a name a spreadsheet would take for a formula."""
    base = tmp_path_factory.mktemp("gradebook")
    folder = make_class(base / "subs", {
        "ana/stones.py": SOLUTIONS / "stones/accepted/game_dp.py",
        "ana/footholds.py": SOLUTIONS / "footholds/accepted/minimax.py",
        "ben/stones.py": SOLUTIONS / "stones/accepted/game_dp.py",
        "ben/stones.c": SOLUTIONS / "stones/accepted/parity.c",
        "ben/footholds.py": SOLUTIONS / "footholds/accepted/minimax.py",
        "=cmd/stones.py": SOLUTIONS / "stones/wrong_answer/even_wins.py",
    })
    db = base / "results.db"
    first = run_judge("grade", str(folder), "--db", str(db), "--format", "csv")
    assert first.returncode == 0, first.stderr
    return folder, db, first.stdout


def rendered(graded, kind: str) -> str:
    folder, db, _ = graded
    done = run_judge("grade", str(folder), "--db", str(db), "--format", kind)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_gradebook_has_a_row_per_student_with_scores_and_totals(graded):
    rows = list(csv.DictReader(io.StringIO(graded[2])))
    assert [row["student"] for row in rows] == ["'=cmd", "ana", "ben"]
    by_name = {row["student"]: row for row in rows}
    assert by_name["ana"]["stones"] == "100" and by_name["ana"]["total"] == "200"
    assert by_name["ben"]["stones"] == "not graded" and by_name["ben"]["footholds"] == "100"
    assert "2 files for stones" in by_name["ben"]["not graded"]
    assert float(by_name["'=cmd"]["total"]) < 100
    assert list(rows[0]) == ["student", "footholds", "stones", "total", "not graded"]


def test_a_refused_file_is_not_graded_with_its_reason_in_every_format(graded):
    data = json.loads(rendered(graded, "json"))
    ben = next(student for student in data["students"] if student["student"] == "ben")
    assert ben["problems"]["stones"]["status"] == "not graded"
    assert "2 files for stones" in ben["problems"]["stones"]["reason"]
    assert ben["problems"]["footholds"]["status"] == "graded"
    ben_row = next(line for line in rendered(graded, "table").splitlines() if " ben " in f" {line} ")
    assert "not graded" in ben_row
    assert "not graded" in next(line for line in rendered(graded, "markdown").splitlines() if "| ben" in line)
    html = rendered(graded, "html")
    assert 'title="2 files for stones' in html and ">not graded</span>" in html


def test_each_cases_pass_rate_across_the_class_most_failed_first(graded):
    data = json.loads(rendered(graded, "json"))
    stones = data["cases"]["stones"]
    rates = [entry["rate"] for entry in stones]
    assert rates == sorted(rates)
    assert {entry["judged"] for entry in stones} == {2}  # ana and "=cmd"; ben's stones was not graded
    # The cases failed by half the class are exactly those the wrong solution fails on its own.
    alone = json.loads(run_judge("run", "stones", str(SOLUTIONS / "stones/wrong_answer/even_wins.py"),
                                 "--format", "json", "--no-record").stdout)
    failed_alone = {case["name"] for case in alone["cases"] if case["verdict"] != "AC"}
    # The teacher's report names the hidden cases; judge run, a student's, numbers them.
    from judge.formats.catalog import load_problem
    from judge.model.feedback import shown_names
    shown = shown_names(load_problem("stones", ROOT))
    assert failed_alone and {shown[entry["case"]] for entry in stones if entry["rate"] == 0.5} == failed_alone
    assert all(entry["rate"] == 1.0 for entry in data["cases"]["footholds"])
    groups = {entry["group"]: entry for entry in data["groups"]["stones"]}
    assert any(entry["passed"] == 1 for entry in groups.values())


def test_the_table_shows_the_case_rates_when_asked(graded):
    folder, db, _ = graded
    done = run_judge("grade", str(folder), "--db", str(db), "--cases")
    assert done.returncode == 0, done.stderr
    assert "stones: cases the class failed most first" in done.stdout
    assert any(line.split()[-2:] and line.split()[-1] == "50%" for line in done.stdout.splitlines())
    html = rendered(graded, "html")
    assert "What each case taught" in html and 'id="cases-stones"' in html
    refused = run_judge("grade", str(folder), "--db", str(db), "--cases", "--format", "json")
    assert refused.returncode == 2 and "always carries the per-case pass rates" in refused.stderr


def test_a_canvas_gradebook_has_its_columns_and_points_possible(graded):
    folder, db, _ = graded
    done = run_judge("grade", str(folder), "--db", str(db), "--format", "csv", "--canvas", "Lab 3 (1234)")
    assert done.returncode == 0, done.stderr
    rows = list(csv.reader(io.StringIO(done.stdout)))
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Lab 3 (1234)"]
    assert rows[1][0].strip() == "Points Possible" and rows[1][-1] == "200"
    assert ["ana", "", "", "ana", "", "200"] in rows
    refused = run_judge("grade", str(folder), "--db", str(db), "--canvas", "Lab 3")
    assert refused.returncode == 2 and "--format csv" in refused.stderr
