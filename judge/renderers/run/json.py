"""One JSON object: the documented shape of a submission's result (see judge/report.py)."""

from __future__ import annotations

from judge.problem import Problem
from judge.report import render_json
from judge.results import SubmissionResult


def render(result: SubmissionResult, problem: Problem) -> str:
    return render_json(result)
