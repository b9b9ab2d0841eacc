"""The class report as one JSON object."""

from __future__ import annotations

import json

from judge.grading import ClassReport


def to_json(report: ClassReport) -> dict:
    """Students with rank, total and per-problem score and verdict; ``issues`` says in sentences
    what was not graded (and which files were graded under another name), ``not_graded`` lists
    only the files not graded, as (student, file, reason); ``sandbox`` the
    tier judged in and whether it isolated fully (``isolation``: full or weak, with a ``note``)."""
    return {
        "students": [
            {"student": student.student, "rank": student.rank, "total": student.total,
             "problems": {problem: {"score": result.score, "verdict": result.verdict}
                          for problem, result in sorted(student.results.items())}}
            for student in report.students],
        "issues": report.issues,
        "not_graded": [{"student": entry.student, "file": entry.file, "reason": entry.reason}
                       for entry in report.skipped],
        "sandbox": report.sandbox,
    }


def render(report: ClassReport) -> str:
    return json.dumps(to_json(report), indent=2, ensure_ascii=False)
