"""What the class report's formats (``judge/renderers/grade/``) share: the table's rows, the weak
sandbox's note. No judging logic here; the files that were not graded
are the report's own ``skipped`` list."""

from __future__ import annotations

from dataclasses import dataclass

from judge.classroom.grading import MISSING, ClassReport
from judge.model.results import SubmissionResult
from judge.model.verdict import Verdict


def weak_sandbox_note(report: ClassReport) -> str:
    """A sentence when the results were judged without file-system isolation, else ""."""
    note = report.sandbox.get("note")
    return f"WARNING: judged with a weak sandbox: {note}" if note else ""


def cell(result: SubmissionResult | None, standing: str = MISSING) -> str:
    """A student's result on one problem, as the class tables show it: the score and verdict, or
    "late" (excluded as handed in after the deadline), "not graded" (sent, but excluded: the
    reason is listed under the table) or "-" (nothing sent)."""
    if result is None:
        return "-" if standing == MISSING else standing
    return f"{result.score:g} {result.verdict}"


def class_rows(report: ClassReport) -> list[list[str]]:
    """One row per student: rank, name, a cell per problem, total."""
    return [[str(student.rank), student.student,
             *[cell(student.results.get(p), report.standing(student, p)) for p in report.problems],
             f"{student.total:g}"] for student in report.students]


def problem_headers(report: ClassReport) -> list[str]:
    """The problems' column headers: with an assignment, each with its points ("stones /60")."""
    if report.assignment is None:
        return list(report.problems)
    return [f"{problem} /{report.max_scores[problem]:g}" for problem in report.problems]


def total_header(report: ClassReport) -> str:
    return "total" if report.assignment is None else f"total /{report.assignment.total:g}"


@dataclass(frozen=True)
class CaseRate:
    """How many of the class passed one case (or every case of one group) of a problem."""

    name: str
    group: str
    passed: int
    judged: int  # students whose submission was judged on it (a compile error is judged on nothing)

    @property
    def rate(self) -> float:
        return self.passed / self.judged if self.judged else 0.0


def case_rates(report: ClassReport, problem: str) -> list[CaseRate]:
    """Each case of ``problem`` with the class's pass rate, the most failed first: where the
    class needs teaching."""
    passed: dict[tuple[str, str], int] = {}
    judged: dict[tuple[str, str], int] = {}
    for result in _judged_results(report, problem):
        for case in result.cases:
            key = (case.name, case.group)
            judged[key] = judged.get(key, 0) + 1
            passed[key] = passed.get(key, 0) + (case.verdict == Verdict.AC)
    rates = [CaseRate(name, group, passed[name, group], count) for (name, group), count in judged.items()]
    return sorted(rates, key=lambda rate: (rate.rate, rate.group, rate.name))


def group_rates(report: ClassReport, problem: str) -> list[CaseRate]:
    """Each group of ``problem`` with the share of the class that passed all of its cases."""
    outcomes: dict[str, list[bool]] = {}
    for result in _judged_results(report, problem):
        groups: dict[str, bool] = {}
        for case in result.cases:
            groups[case.group] = groups.get(case.group, True) and case.verdict == Verdict.AC
        for group, all_passed in groups.items():
            outcomes.setdefault(group, []).append(all_passed)
    rates = [CaseRate(group, group, sum(values), len(values)) for group, values in outcomes.items()]
    return sorted(rates, key=lambda rate: (rate.rate, rate.name))


def _judged_results(report: ClassReport, problem: str) -> list[SubmissionResult]:
    """The class's results on ``problem`` that were judged case by case (not compile errors)."""
    results = [student.results[problem] for student in report.students if problem in student.results]
    return [result for result in results if result.verdict != Verdict.CE]
