"""The per-case table for a terminal, with each failed sample case's input, expected and actual
output around the first difference (see judge/renderers/report.py). Its rows are printed as the cases are
decided (``row_table``), then what follows them (``render_after_rows``)."""

from __future__ import annotations

from judge.model.problem import Problem
from judge.model.results import SubmissionResult
from judge.renderers.case_view import sample_views
from judge.renderers.report import CaseTable, render_after_table, render_table
from judge.text.terminal import terminal_width


def render(result: SubmissionResult, problem: Problem) -> str:
    views = sample_views(problem, result.cases, reveal_hidden=result.feedback == "full")
    return render_table(result, views, show_hint=True)


def row_table(names: list[str]) -> CaseTable:
    """The table the rows of the cases ``names`` are printed in, one at a time."""
    return CaseTable(names, terminal_width())


def render_after_rows(result: SubmissionResult, problem: Problem, whole_counterexample: bool = False,
                      show_hint: bool = True) -> str:
    """``show_hint``: say how `judge run --show` shows a case in full (not where there is no such option)."""
    views = sample_views(problem, result.cases, reveal_hidden=result.feedback == "full")
    return render_after_table(result, views, show_hint=show_hint, whole_counterexample=whole_counterexample)
