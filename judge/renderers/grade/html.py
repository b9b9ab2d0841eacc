"""One self-contained HTML page: the sortable class table, a histogram of scores and the mix of
verdicts per problem, and every student's cases (see judge/html_report.py)."""

from __future__ import annotations

from judge.grading import ClassReport
from judge.html_report import render as render_html


def render(report: ClassReport) -> str:
    return render_html(report)
