"""One self-contained HTML page: the sortable class table, a histogram of scores and the mix of
verdicts per problem, and every student's cases (see judge/renderers/html_report.py)."""

from __future__ import annotations

from judge.classroom.grading import ClassReport
from judge.renderers.html_report import render as render_html

FOR_STUDENTS = False  # see GradeReportFormat in judge/extension_points.py
SHOWS_COUNTEREXAMPLES = False


def render(report: ClassReport) -> str:
    return render_html(report)
