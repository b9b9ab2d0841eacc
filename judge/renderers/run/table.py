"""The per-case table for a terminal, with each failed sample case's input, expected and actual
output around the first difference (see judge/report.py)."""

from __future__ import annotations

from judge.problem import Problem
from judge.results import SubmissionResult


def render(result: SubmissionResult, problem: Problem) -> str:
    from judge.case_view import sample_views
    from judge.report import render_table

    return render_table(result, sample_views(problem, result.cases), show_hint=True)
