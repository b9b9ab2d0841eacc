"""The class table for a terminal: fitted to its width, then the files that were not graded."""

from __future__ import annotations

import textwrap

from judge.grade_report import class_rows, weak_sandbox_note
from judge.grading import ClassReport
from judge.terminal import fitted_table, terminal_width
from judge.visible_text import visible


def render(report: ClassReport, width: int | None = None) -> str:
    """Students x problems with totals and ranks; only student names are cut to fit ``width``."""
    width = terminal_width() if width is None else width
    headers = ["rank", "student", *report.problems, "total"]
    text = fitted_table(class_rows(report), headers, shrinkable=[1], width=width)
    if report.skipped:
        lines = [textwrap.fill(visible(str(entry), one_line=True), width, initial_indent="  - ", subsequent_indent="    ",
                               break_long_words=True, break_on_hyphens=False) for entry in report.skipped]
        text += "\n\nnot graded:\n" + "\n".join(lines)
    if weak_sandbox_note(report):
        text += "\n\n" + textwrap.fill(weak_sandbox_note(report), width)
    return text
