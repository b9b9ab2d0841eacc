"""The class report as one self-contained HTML page (`judge grade --format html`): inline CSS,
inline SVG and a small inline script, nothing fetched from anywhere, so it opens from a CI
artefact or an e-mail. Rendered with Jinja2, autoescaping everything (student names, file
names, messages and outputs all come from submissions)."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from markupsafe import Markup

from judge.classroom.grading import ClassReport
from judge.model.problem import Problem
from judge.model.results import SubmissionResult
from judge.model.verdict import VERDICT_NAMES, VERDICTS
from judge.renderers.case_view import SampleView, sample_views
from judge.renderers.grade_report import case_rates
from judge.renderers.html_page import asset, csp_hash, environment
from judge.renderers.similarity.html import segments
from judge.text.output_diff import comparable_lines

BINS = 10  # histogram bars per problem: tenths of the problem's points
CHART_WIDTH, CHART_HEIGHT = 300, 120
SHOWN_LINES = 200  # of each sample output in a student's details


@dataclass(frozen=True)
class Bar:
    label: str
    count: int
    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class Share:
    verdict: str
    count: int
    x: float
    width: float


@dataclass
class ProblemSummary:
    problem: str
    max_score: float
    submitted: int
    bars: list[Bar]
    shares: list[Share]
    missing: int


@dataclass(frozen=True)
class Line:
    number: int
    text: str
    marked: bool = False
    column: int = 0  # where the first difference starts, on the marked line


@dataclass
class SampleSides:
    """A sample case's input and outputs, cut to SHOWN_LINES lines each."""
    input: list[Line]
    expected: list[Line]
    got: list[Line] | None
    difference: str
    input_label: str
    cut: bool = False
    expected_label: str = "expected"


@dataclass
class ProblemDetail:
    problem: str
    result: SubmissionResult
    samples: dict[str, SampleSides] = field(default_factory=dict)


def render(report: ClassReport) -> str:
    """The whole page."""
    script, style = asset("report.js"), asset("report.css")
    return environment().get_template("report.html.j2").render(
        report=report, verdict_names=VERDICT_NAMES, script=script, style=Markup(style),
        script_hash=csp_hash(script), style_hash=csp_hash(style), generated=time.strftime("%Y-%m-%d %H:%M"),
        summaries=[summarize(report, problem) for problem in report.problems],
        details={student.student: _details(student.results, report.loaded) for student in report.students},
        case_rates={problem: case_rates(report, problem) for problem in report.problems},
        similar_pairs=similar_pairs(report),
        skipped=report.skipped, chart_width=CHART_WIDTH, chart_height=CHART_HEIGHT)


def similar_pairs(report: ClassReport) -> list[dict]:
    """The similarity section's pairs, each program cut into shared and unshared passages."""
    if report.similarity is None:
        return []
    return [{"pair": pair, "a": segments(pair.a.text, pair.a_spans), "b": segments(pair.b.text, pair.b_spans)}
            for pair in report.similarity.pairs]


def summarize(report: ClassReport, problem: str) -> ProblemSummary:
    """A problem's histogram of scores (BINS bars, tenths of its points) and its mix of verdicts."""
    max_score = report.max_scores.get(problem, 100.0)
    results = [student.results[problem] for student in report.students if problem in student.results]
    counts = [0] * BINS
    for result in results:
        counts[min(BINS - 1, int(result.score / max_score * BINS)) if max_score else 0] += 1
    tallest = max(counts) or 1
    step = CHART_WIDTH / BINS
    bars = []
    for index, count in enumerate(counts):
        height = (CHART_HEIGHT - 20) * count / tallest
        low, high = max_score * index / BINS, max_score * (index + 1) / BINS
        bars.append(Bar(f"{low:g}–{high:g}", count, index * step + 2, CHART_HEIGHT - height, step - 4, height))
    verdicts = Counter(result.verdict for result in results)
    shares, x = [], 0.0
    for verdict in VERDICTS:
        if verdicts[verdict]:
            width = CHART_WIDTH * verdicts[verdict] / len(results)
            shares.append(Share(verdict, verdicts[verdict], x, width))
            x += width
    return ProblemSummary(problem, max_score, len(results), bars, shares, len(report.students) - len(results))


def _details(results: dict[str, SubmissionResult], problems: dict[str, Problem]) -> list[ProblemDetail]:
    details = []
    for problem_id, result in sorted(results.items()):
        detail = ProblemDetail(problem_id, result)
        if problem_id in problems:
            views = sample_views(problems[problem_id], result.cases, reveal_hidden=result.feedback == "full")
            detail.samples = {name: _sides(view) for name, view in views.items()}
        details.append(detail)
    return details


def _sides(view: SampleView) -> SampleSides:
    difference = view.difference
    where = f"first difference: line {difference.line + 1}, column {difference.column + 1}" if difference else ""

    def lines(text: str, mark: bool) -> list[Line]:
        shown = comparable_lines(text)[:SHOWN_LINES]
        return [Line(number, line, mark and difference is not None and number - 1 == difference.line,
                     difference.column if difference else 0) for number, line in enumerate(shown, 1)]

    longest = max(len(comparable_lines(text)) for text in (view.input, view.expected, view.got or ""))
    return SampleSides(lines(view.input, False), lines(view.expected, True),
                       lines(view.got, True) if view.got is not None else None, where, view.input_label,
                       longest > SHOWN_LINES, view.expected_label)
