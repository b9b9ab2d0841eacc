"""JUnit XML, which CI services render: a testsuite per student and problem, a testcase per case
(a <failure> for every case that is not AC, an <error> for IE), and a "not graded" testsuite with
a <skipped> testcase per file that was not graded, so that CI lists those files and why.
XML 1.0 forbids most control characters even as references: names and messages show them as
escapes (judge/text/visible_text.py), so the report stays well-formed whatever a student names a file."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from judge.classroom.grading import ClassReport, Skipped
from judge.model.results import SubmissionResult
from judge.model.verdict import Verdict
from judge.renderers.grade_report import weak_sandbox_note
from judge.text.visible_text import visible

FOR_STUDENTS = False  # see GradeReportFormat in judge/extension_points.py
SHOWS_COUNTEREXAMPLES = False

COUNTS = ("tests", "failures", "errors", "skipped")


def render(report: ClassReport) -> str:
    root = ET.Element("testsuites", name="judge grade")
    if weak_sandbox_note(report):
        ET.SubElement(ET.SubElement(root, "properties"), "property", name="sandbox", value=weak_sandbox_note(report))
    totals = dict.fromkeys(COUNTS, 0)
    suites = [_result_suite(f"{student.student}.{problem}", result)
              for student in report.students for problem, result in sorted(student.results.items())]
    if report.skipped:
        suites.append(_skipped_suite(report.skipped))
    for suite in suites:
        root.append(suite)
        for key in COUNTS:
            totals[key] += int(suite.get(key, "0"))
    for key, value in totals.items():
        root.set(key, str(value))
    _make_visible(root)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _result_suite(name: str, result: SubmissionResult) -> ET.Element:
    """One submission's cases. Hidden and sample cases alike carry their verdict and message
    only (a hidden case's message holds nothing of its input or expected output)."""
    suite = ET.Element("testsuite", name=name)
    counts = dict.fromkeys(COUNTS, 0)
    elapsed = 0.0
    compile_message_at = None  # the case carrying the compiler's message: it is given once
    for case in result.cases:
        seconds = case.wall_time or 0.0  # None: not shown (judge/model/feedback.py)
        element = ET.SubElement(suite, "testcase", classname=name, name=case.name, time=f"{seconds:.3f}")
        counts["tests"] += 1
        elapsed += seconds
        if case.verdict != Verdict.AC:
            kind = "error" if case.verdict == Verdict.IE else "failure"
            counts["errors" if kind == "error" else "failures"] += 1
            detail = ET.SubElement(element, kind, type=case.verdict, message=f"{case.verdict}: {case.message}")
            if case.verdict == Verdict.CE:
                detail.text = result.compile_message if compile_message_at is None else \
                    f"the compiler's message is on case {compile_message_at}"
                compile_message_at = compile_message_at or case.name
            else:
                detail.text = case.message
    for key, value in counts.items():
        suite.set(key, str(value))
    suite.set("time", f"{elapsed:.3f}")
    return suite


def _make_visible(root: ET.Element) -> None:
    """Every attribute and text in the tree with its control characters shown as escapes."""
    for element in root.iter():
        for key, value in element.attrib.items():
            element.set(key, visible(value))
        if element.text:
            element.text = visible(element.text)


def _skipped_suite(skipped: list[Skipped]) -> ET.Element:
    suite = ET.Element("testsuite", name="not graded", tests=str(len(skipped)), failures="0", errors="0",
                       skipped=str(len(skipped)), time="0.000")
    for entry in skipped:
        case = ET.SubElement(suite, "testcase", classname=f"not graded.{entry.student or '(folder)'}",
                             name=entry.file or entry.student or "(submissions)", time="0.000")
        ET.SubElement(case, "skipped", message=f"not graded: {entry}").text = entry.reason
    return suite
