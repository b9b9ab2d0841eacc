"""Gradescope's autograder results.json, one per student: a test per problem. A problem the
student has no graded file for says which of their files were not graded, and why."""

from __future__ import annotations

import difflib
import json
from pathlib import Path

from judge.classroom.grading import ClassReport, Skipped, StudentReport
from judge.model.verdict import Verdict
from judge.renderers.case_view import sample_views
from judge.renderers.grade_report import weak_sandbox_note
from judge.renderers.report import explanation_text, failed_case_text

DEFAULT_OUT = Path("gradescope")
EXPLANATION_WIDTH = 160  # characters a line of a counterexample's input or output is cut to
FOR_STUDENTS = True  # students read it: each problem's feedback policy applies (judge/model/feedback.py)
SHOWS_COUNTEREXAMPLES = True  # judge grade searches for them (judge/authoring/explain.py) only for formats that show them


def write(report: ClassReport, out: Path) -> list[Path]:
    """``out`` ending in .json with one student: that file; otherwise ``out/<student>/results.json``."""
    written = []
    if out.suffix == ".json" and len(report.students) == 1:
        targets = [(report.students[0], out)]
    else:
        targets = [(student, out / student.student / "results.json") for student in report.students]
    for student, path in targets:
        mine = [entry for entry in report.skipped if entry.student == student.student]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(gradescope_results(student, report.max_scores, mine, weak_sandbox_note(report),
                                                      report.loaded),
                                   indent=2, ensure_ascii=False))
        written.append(path)
    return written


def _result_lines(result, problem=None) -> list[str]:
    """A problem's output: a compile error's message once; otherwise a line per case (a hidden
    case's verdict, and its message, hint and description as far as the feedback level shows
    them: judge grade has taken out what it does not)."""
    if result.verdict == Verdict.CE:
        message = result.compile_message or next((case.message for case in result.cases if case.message), "")
        return [f"CE: the submission did not compile ({result.language}); no case was run", message]
    lines = [f"{result.verdict}: {result.passed}/{result.total} cases passed ({result.language})"]
    lines += [f"{case.name}: {case.verdict}" + "".join(f" - {note}" for note in _notes(case)) for case in result.cases]
    if problem is not None:  # the failed cases the level shows whole: samples, and at "full" every case
        views = sample_views(problem, result.cases, reveal_hidden=result.feedback == "full")
        lines += [line for case in result.cases if case.verdict != Verdict.AC and case.name in views
                  for line in ("", failed_case_text(case, views[case.name], EXPLANATION_WIDTH,
                                                    no_output="(the output of a hidden case is not kept)"))]
    if result.explanation is not None and result.explanation.hidden_failed:
        lines += ["", explanation_text(result.explanation, EXPLANATION_WIDTH)]
    return lines


def _notes(case) -> list[str]:
    """What a failed case's line says besides its verdict."""
    if case.verdict == Verdict.AC:
        return []
    hint = " - ".join(filter(None, [case.description, case.hint]))
    return [note for note in (case.message, f"hint: {hint}" if hint else "") if note]


def gradescope_results(student: StudentReport, max_scores: dict[str, float],
                       skipped: list[Skipped] | None = None, sandbox_note: str = "",
                       problems: dict | None = None) -> dict:
    """One student's results.json; ``skipped``: that student's files that were not graded;
    ``sandbox_note``: a sentence when the grading's sandbox was weak; ``problems`` (by id): for
    showing the failed cases the feedback level shows whole."""
    skipped = skipped or []
    tests = []
    for problem, max_score in sorted(max_scores.items()):
        result = student.results.get(problem)
        if result is None:
            tests.append({"name": problem, "score": 0, "max_score": max_score, "status": "failed",
                          "output": _why_nothing(problem, skipped), "visibility": "visible"})
            continue
        lines = _result_lines(result, (problems or {}).get(problem))
        tests.append({"name": problem, "score": result.score, "max_score": max_score,
                      "status": "passed" if result.verdict == Verdict.AC else "failed",
                      "output": "\n".join(lines), "visibility": "visible"})
    output = f"Total: {student.total:g}/{sum(max_scores.values()):g}"
    if skipped:
        output += "\n\nNot graded:\n" + "\n".join(f"- {entry.file or entry.student}: {entry.reason}"
                                                  for entry in skipped)
    if sandbox_note:
        output += f"\n\n{sandbox_note}"
    return {"score": student.total, "output": output, "stdout_visibility": "hidden", "tests": tests}


def _why_nothing(problem: str, skipped: list[Skipped]) -> str:
    """Why a problem has no result: the files that look meant for it (only those: a file for
    another problem is listed there, and one for no problem in the overall output), or that
    nothing was handed in."""
    meant = [entry for entry in skipped
             if entry.problem == problem or (entry.problem is None and _looks_meant_for(entry.file, problem))]
    whole_late = [entry for entry in skipped if entry.late and entry.problem is None]
    if not meant and whole_late:
        return f"late: {whole_late[0].reason}; not graded"
    if not meant:
        return "no submission for this problem"
    if all(entry.late for entry in meant):
        return "late: handed in after the deadline; not graded:\n" + "\n".join(
            f"- {entry.file or entry.student}: {entry.reason}" for entry in meant)
    return "no file graded for this problem; not graded:\n" + "\n".join(
        f"- {entry.file or entry.student}: {entry.reason}" for entry in meant)


def _looks_meant_for(file_name: str, problem: str) -> bool:
    stem = Path(file_name).stem.casefold()
    return bool(stem) and (problem in stem or difflib.SequenceMatcher(None, stem, problem).ratio() >= 0.6)
