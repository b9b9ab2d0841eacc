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
    assert by_name["ben"]["stones"] == "0" and by_name["ben"]["footholds"] == "100"
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
