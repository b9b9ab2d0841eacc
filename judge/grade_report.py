"""Rendering a class report: table, JSON, JUnit XML, Markdown and Gradescope results.
No judging logic here."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from tabulate import tabulate

from judge.grading import ClassReport, StudentReport
from judge.runner import SubmissionResult
from judge.scoreboard import Standing


def _cell(result: SubmissionResult | None) -> str:
    return "-" if result is None else f"{result.score:g} {result.verdict}"


def _rows(report: ClassReport) -> list[list[str]]:
    return [[student.rank, student.student, *[_cell(student.results.get(p)) for p in report.problems],
             f"{student.total:g}"] for student in report.students]


def render_table(report: ClassReport) -> str:
    headers = ["rank", "student", *report.problems, "total"]
    text = tabulate(_rows(report), headers=headers, disable_numparse=True)
    if report.issues:
        text += "\n\nnot graded:\n" + "\n".join(f"  - {issue}" for issue in report.issues)
    return text


def render_markdown(report: ClassReport) -> str:
    """A GitHub-flavoured table, fit for $GITHUB_STEP_SUMMARY."""
    headers = ["Rank", "Student", *[f"`{p}`" for p in report.problems], "Total"]
    text = "## Grades\n\n" + tabulate(_rows(report), headers=headers, tablefmt="github", disable_numparse=True)
    if report.issues:
        text += "\n\n**Not graded:**\n\n" + "\n".join(f"- {issue}" for issue in report.issues)
    return text + "\n"


def to_json(report: ClassReport) -> dict:
    return {
        "students": [
            {"student": student.student, "rank": student.rank, "total": student.total,
             "problems": {problem: {"score": result.score, "verdict": result.verdict}
                          for problem, result in sorted(student.results.items())}}
            for student in report.students],
        "issues": report.issues,
    }


def render_json(report: ClassReport) -> str:
    return json.dumps(to_json(report), indent=2, ensure_ascii=False)


def render_junit(report: ClassReport) -> str:
    """JUnit XML: a testsuite per student and problem, a testcase per case; every non-AC case is
    a <failure> (IE an <error>) carrying the verdict and message."""
    root = ET.Element("testsuites", name="judge grade")
    totals = {"tests": 0, "failures": 0, "errors": 0}
    for student in report.students:
        for problem, result in sorted(student.results.items()):
            suite = ET.SubElement(root, "testsuite", name=f"{student.student}.{problem}")
            counts = {"tests": 0, "failures": 0, "errors": 0}
            elapsed = 0.0
            for case in result.cases:
                element = ET.SubElement(suite, "testcase", classname=f"{student.student}.{problem}",
                                        name=case.name, time=f"{case.wall_time:.3f}")
                counts["tests"] += 1
                elapsed += case.wall_time
                if case.verdict != "AC":
                    kind = "error" if case.verdict == "IE" else "failure"
                    counts["errors" if kind == "error" else "failures"] += 1
                    detail = ET.SubElement(element, kind, type=case.verdict, message=f"{case.verdict}: {case.message}")
                    detail.text = result.compile_message if case.verdict == "CE" else case.message
            for key, value in counts.items():
                suite.set(key, str(value))
                totals[key] += value
            suite.set("time", f"{elapsed:.3f}")
    for key, value in totals.items():
        root.set(key, str(value))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def gradescope_results(student: StudentReport, max_scores: dict[str, float]) -> dict:
    """Gradescope's autograder results.json for one student: a test per problem."""
    tests = []
    for problem, max_score in sorted(max_scores.items()):
        result = student.results.get(problem)
        if result is None:
            tests.append({"name": problem, "score": 0, "max_score": max_score, "status": "failed",
                          "output": "no submission for this problem", "visibility": "visible"})
            continue
        lines = [f"{result.verdict}: {result.passed}/{result.total} cases passed ({result.language})"]
        lines += [f"{case.name}: {case.verdict}" + (f" - {case.message}" if case.verdict != "AC" and case.visibility == "sample" else "")
                  for case in result.cases]
        if result.compile_message:
            lines.append(result.compile_message)
        tests.append({"name": problem, "score": result.score, "max_score": max_score,
                      "status": "passed" if result.verdict == "AC" else "failed",
                      "output": "\n".join(lines), "visibility": "visible"})
    return {"score": student.total, "output": f"Total: {student.total:g}/{sum(max_scores.values()):g}",
            "stdout_visibility": "hidden", "tests": tests}


def write_gradescope(report: ClassReport, out: Path) -> list[Path]:
    """``out`` ending in .json with one student: that file; otherwise ``out/<student>/results.json``."""
    written = []
    if out.suffix == ".json" and len(report.students) == 1:
        targets = [(report.students[0], out)]
    else:
        targets = [(student, out / student.student / "results.json") for student in report.students]
    for student, path in targets:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(gradescope_results(student, report.max_scores), indent=2, ensure_ascii=False))
        written.append(path)
    return written


def render_scoreboard(problems: list[str], standings: list[Standing], mode: str) -> str:
    total = "solved" if mode == "icpc" else "total"
    headers = ["rank", "student", *problems, total] + (["penalty"] if mode == "icpc" else [])
    rows = [[s.rank, s.student, *[s.cells.get(p, "") for p in problems], f"{s.total:g}"]
            + ([s.penalty] if mode == "icpc" else []) for s in standings]
    return tabulate(rows, headers=headers, disable_numparse=True) if rows else "no recorded results yet"
