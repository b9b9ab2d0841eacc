"""What the class report's formats (``judge/renderers/grade/``) share: the table's rows, the files
that were not graded, and the scoreboard's table. No judging logic here."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

from judge.grading import ClassReport
from judge.runner import SubmissionResult
from judge.scoreboard import Scoreboard, Standing
from judge.terminal import fitted_table


@dataclass(frozen=True)
class Skipped:
    """A file (or folder) of the submissions that was not graded, and why."""

    student: str  # the student folder ("" for something outside any student folder)
    file: str  # the file's name inside it ("" when the whole folder is meant)
    reason: str
    problem: str | None = None  # the problem the file was meant for, when that is known

    def __str__(self) -> str:
        where = "/".join(part for part in (self.student, self.file) if part)
        return f"{where}: {self.reason}" if where else self.reason


def weak_sandbox_note(report: ClassReport) -> str:
    """A sentence when the results were judged without file-system isolation, else ""."""
    note = report.sandbox.get("note")
    return f"WARNING: judged with a weak sandbox: {note}" if note else ""


_ISSUE = re.compile(r"(?P<student>[^/:]+)(?:/(?P<file>[^:]+))?: (?P<reason>.*)", re.DOTALL)


def skipped_entries(report: ClassReport) -> list[Skipped]:
    """Every file that was not graded, as (student, file, reason): from the report's structured
    ``skipped`` list when grading gives one, else read from its issues ("<student>/<file>:
    <reason>" or "<student>: <reason>")."""
    structured = getattr(report, "skipped", None)
    if structured:
        return [_from_structured(item) for item in structured]
    entries = []
    for issue in report.issues:
        match = _ISSUE.fullmatch(issue)
        if match is None:
            entries.append(Skipped("", "", issue))
        else:
            entries.append(Skipped(match["student"], match["file"] or "", match["reason"]))
    return entries


def _from_structured(item) -> Skipped:
    """grading's own record of a skipped file: a path relative to the submissions folder, a
    reason, and the student and problem when known."""
    student = getattr(item, "student", None) or ""
    path = str(getattr(item, "path", ""))
    file = path[len(student) + 1:] if student and path.startswith(student + "/") else ("" if path == student else path)
    return Skipped(student, file, item.reason, getattr(item, "problem", None))


def cell(result: SubmissionResult | None) -> str:
    """A student's result on one problem, as the class tables show it."""
    return "-" if result is None else f"{result.score:g} {result.verdict}"


def class_rows(report: ClassReport) -> list[list[str]]:
    """One row per student: rank, name, a cell per problem, total."""
    return [[str(student.rank), student.student, *[cell(student.results.get(p)) for p in report.problems],
             f"{student.total:g}"] for student in report.students]


def scoreboard_cell(standing: Standing, problem: str) -> str:
    """A scoreboard cell: the standing result, then submissions pending behind a freeze."""
    pending = standing.pending.get(problem, 0)
    text = standing.cells.get(problem, "")
    return f"{text} ({pending} pending)".strip() if pending else text


def render_scoreboard(board: Scoreboard) -> str:
    """The scoreboard as a terminal table."""
    icpc = board.mode == "icpc"
    headers = ["rank", "student", *board.problems, "solved" if icpc else "total"] + (["penalty"] if icpc else [])
    rows = [[s.rank, s.student, *[scoreboard_cell(s, p) for p in board.problems], f"{s.total:g}"]
            + ([s.penalty] if icpc else []) for s in board.standings]
    if not rows:
        return "no recorded results yet"
    text = fitted_table(rows, headers, shrinkable=[1])
    if board.frozen_at is not None:
        text += f"\n\nfrozen at {time.strftime('%Y-%m-%d %H:%M', time.localtime(board.frozen_at))}: " \
                "later submissions are pending"
    return text
