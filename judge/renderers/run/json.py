"""One JSON object: the documented shape of a submission's result (see judge/renderers/report.py)."""

from __future__ import annotations

from judge.model.problem import Problem
from judge.model.results import SubmissionResult
from judge.renderers.report import render_json


def render(result: SubmissionResult, problem: Problem) -> str:
    return render_json(result)
