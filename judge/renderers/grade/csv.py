"""A gradebook as CSV: one row per student (student, each problem's score, total, and why a
file was not graded), what Canvas, Moodle and spreadsheets import. A problem's cell is its score
(maybe 0), "late", "not graded", or empty when nothing was sent: never a 0 for missing work."""

from __future__ import annotations

import csv
import io

from judge.classroom.grading import MISSING, ClassReport, StudentReport

FOR_STUDENTS = False  # see GradeReportFormat in judge/extension_points.py
SHOWS_COUNTEREXAMPLES = False

# A cell starting with one of these is a formula to a spreadsheet: a student's folder named
# "=HYPERLINK(...)" must stay text, so it gets a leading apostrophe (what spreadsheets show as text).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def render(report: ClassReport, canvas: str | None = None) -> str:
    """The gradebook; with ``canvas`` (an assignment's name), in the layout of Canvas's
    gradebook import instead."""
    if canvas is not None:
        return _canvas(report, canvas)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["student", *report.problems, "total", "not graded"])
    for student in sorted(report.students, key=lambda student: student.student):
        writer.writerow([_text(student.student), *[_score(report, student, problem) for problem in report.problems],
                         f"{student.total:g}", _text(_refusals(report, student))])
    return out.getvalue()


def _score(report: ClassReport, student: StudentReport, problem: str) -> str:
    """The problem's score (maybe 0); "late" for work excluded as handed in after the deadline,
    "not graded" for work excluded for another reason (the last column says why), and an empty
    cell when nothing was sent."""
    result = student.results.get(problem)
    if result is not None:
        return f"{result.score:g}"
    standing = report.standing(student, problem)
    return "" if standing == MISSING else standing


def _refusals(report: ClassReport, student: StudentReport) -> str:
    return "; ".join(f"{entry.file or entry.student}: {entry.reason}" for entry in report.skipped
                     if entry.student == student.student)


def _text(value: str) -> str:
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def _canvas(report: ClassReport, assignment: str) -> str:
    """Canvas's gradebook CSV: its five identifying columns, then the assignment's column (the
    total), then a "Points Possible" row. Canvas matches a row by its login: the student's folder
    name goes in "SIS Login ID" (name the folders by Canvas login)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["Student", "ID", "SIS User ID", "SIS Login ID", "Section", _text(assignment)])
    writer.writerow(["    Points Possible", "", "", "", "", f"{sum(report.max_scores.values()):g}"])
    for student in sorted(report.students, key=lambda student: student.student):
        writer.writerow([_text(student.student), "", "", _text(student.student), "", _canvas_total(report, student)])
    return out.getvalue()


def _canvas_total(report: ClassReport, student: StudentReport) -> str:
    """The total, or an empty cell (Canvas: not graded yet) for a student who sent nothing at all;
    work excluded as late counts as handed in, so its student gets the total."""
    standings = {report.standing(student, problem) for problem in report.problems}
    return "" if standings == {MISSING} else f"{student.total:g}"
