"""A GitHub-flavoured Markdown table, fit for $GITHUB_STEP_SUMMARY, then the files not graded."""

from __future__ import annotations

from tabulate import tabulate

from judge.classroom.grading import ClassReport
from judge.renderers.grade_report import class_rows, problem_headers, total_header, weak_sandbox_note
from judge.text.visible_text import visible

FOR_STUDENTS = False  # see GradeReportFormat in judge/extension_points.py
SHOWS_COUNTEREXAMPLES = False


def render(report: ClassReport) -> str:
    headers = ["Rank", "Student", *[f"`{p}`" for p in problem_headers(report)], total_header(report).capitalize()]
    rows = [[_escaped(cell) for cell in row] for row in class_rows(report)]
    title = "## Grades" + (f": {_escaped(report.assignment.name)}" if report.assignment is not None else "")
    text = title + "\n\n" + tabulate(rows, headers=headers, tablefmt="github", disable_numparse=True)
    if report.skipped:
        text += "\n\n**Not graded:**\n\n" + "\n".join(f"- {_escaped(str(entry))}" for entry in report.skipped)
    if weak_sandbox_note(report):
        text += f"\n\n> **{_escaped(weak_sandbox_note(report))}**"
    return text + "\n"


def _escaped(text: str) -> str:
    """Plain text in a Markdown table: a file name's ``|`` or ``<`` must not make markup, nor its
    control characters act (they are shown as escapes)."""
    return visible(text, one_line=True).replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")
