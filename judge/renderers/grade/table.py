"""The class table for a terminal: fitted to its width, then the files that were not graded."""

from __future__ import annotations

import textwrap

from judge.classroom.grading import ClassReport
from judge.renderers.grade_report import case_rates, class_rows, problem_headers, total_header, weak_sandbox_note
from judge.text.terminal import fitted_table, terminal_width
from judge.text.visible_text import visible

FOR_STUDENTS = False  # see GradeReportFormat in judge/extension_points.py
SHOWS_COUNTEREXAMPLES = False


def render(report: ClassReport, width: int | None = None, cases: bool = False) -> str:
    """Students x problems with totals and ranks; only student names are cut to fit ``width``.
    With ``cases``, then each problem's cases with the class's pass rate, the most failed first."""
    width = terminal_width() if width is None else width
    headers = ["rank", "student", *problem_headers(report), total_header(report)]
    text = fitted_table(class_rows(report), headers, shrinkable=[1], width=width)
    if cases:
        text += "".join(f"\n\n{problem}: cases the class failed most first\n" + case_table(report, problem, width)
                        for problem in report.problems)
    if report.assignment is not None:
        text = f"assignment {report.assignment.name}\n\n" + text
    late = [f"{student.student}: {student.lateness.describe()}" for student in report.students if student.lateness]
    if report.deadline:
        text += f"\n\ndeadline {report.deadline['deadline']}:\n" + "\n".join(
            textwrap.fill(visible(line, one_line=True), width, initial_indent="  - ", subsequent_indent="    ")
            for line in late)
    if report.skipped:
        lines = [textwrap.fill(visible(str(entry), one_line=True), width, initial_indent="  - ", subsequent_indent="    ",
                               break_long_words=True, break_on_hyphens=False) for entry in report.skipped]
        text += "\n\nnot graded:\n" + "\n".join(lines)
    if weak_sandbox_note(report):
        text += "\n\n" + textwrap.fill(weak_sandbox_note(report), width)
    return text


def case_table(report: ClassReport, problem: str, width: int) -> str:
    rows = [[rate.name, rate.group, f"{rate.passed}/{rate.judged}", f"{rate.rate:.0%}"]
            for rate in case_rates(report, problem)]
    if not rows:
        return "  (no submission was judged case by case)"
    return fitted_table(rows, ["case", "group", "passed", "rate"], shrinkable=[0], width=width)
