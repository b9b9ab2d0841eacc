"""The class report as one JSON object."""

from __future__ import annotations

import json

from judge.classroom.grading import GRADED, ClassReport, StudentReport
from judge.renderers.grade_report import CaseRate, case_rates, group_rates

FOR_STUDENTS = False  # see GradeReportFormat in judge/extension_points.py
SHOWS_COUNTEREXAMPLES = True  # judge grade searches for them (judge/authoring/explain.py) only for formats that show them


def to_json(report: ClassReport) -> dict:
    """Students with rank, total and per-problem score and verdict (or, for a problem they sent
    ``"status"``: graded, late, not graded with the reason, or missing); ``issues`` says in sentences
    what was not graded (and which files were graded under another name), ``not_graded`` lists
    only the files not graded, as (student, file, reason); ``sandbox`` the
    tier judged in and whether it isolated fully (``isolation``: full or weak, with a ``note``)."""
    return {
        "students": [
            {"student": student.student, "rank": student.rank, "total": student.total,
             "problems": _problems(report, student), **_lateness(student)}
            for student in report.students],
        **({"deadline": report.deadline} if report.deadline else {}),
        **({"assignment": report.assignment.to_json()} if report.assignment is not None else {}),
        "max_scores": report.max_scores,
        "issues": report.issues,
        "not_graded": [{"student": entry.student, "file": entry.file, "reason": entry.reason}
                       for entry in report.skipped],
        "sandbox": report.sandbox,
        # Per problem, the class's pass rate of every case and group, the most failed first.
        "cases": {problem: [_rate_json(rate, "case") for rate in case_rates(report, problem)]
                  for problem in report.problems},
        "groups": {problem: [_rate_json(rate, "group") for rate in group_rates(report, problem)]
                   for problem in report.problems},
    }


def _lateness(student: StudentReport) -> dict:
    """With a deadline: which version was graded and how late, as ``"late"``."""
    late = student.lateness
    if late is None:
        return {}
    return {"late": {"source": late.source, "commit": late.version or None, "days_late": late.days_late,
                     "penalty": late.penalty, "late_commits": late.late_commits, "late_files": late.late_files,
                     **({"versions": late.capped} if late.capped else {})}}


def _rate_json(rate: CaseRate, kind: str) -> dict:
    named = {"case": rate.name, "group": rate.group} if kind == "case" else {"group": rate.name}
    return {**named, "passed": rate.passed, "judged": rate.judged, "rate": round(rate.rate, 4)}


def _problems(report: ClassReport, student: StudentReport) -> dict:
    """Each problem's ``status``: graded (with its score, maybe 0), late (excluded as handed in
    after the deadline), not graded (sent, excluded for ``reason``) or missing (nothing sent);
    only graded work has a score."""
    entries = {problem: {"status": GRADED, "score": result.score, "verdict": result.verdict,
                         **(result.explanation.to_json() if result.explanation is not None else {})}
               for problem, result in student.results.items()}
    for problem in report.problems:
        if problem in entries:
            continue
        standing = report.standing(student, problem)
        refused = report.not_graded(student.student, problem)
        entries[problem] = {"status": standing, "score": None, **({"reason": refused.reason} if refused else {})}
    return dict(sorted(entries.items()))


def render(report: ClassReport) -> str:
    return json.dumps(to_json(report), indent=2, ensure_ascii=False)
