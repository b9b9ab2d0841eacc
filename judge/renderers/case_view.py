"""What a person may see of a judged case. A sample case shows its input, the expected output
and what the program printed, with the first difference; a hidden case shows only its verdict and
message — never its input or expected output — in every report."""

from __future__ import annotations

from dataclasses import dataclass

from judge.model.problem import Case, Problem
from judge.model.results import CaseResult
from judge.model.verdict import Verdict
from judge.model.vocabulary import Visibility
from judge.problem_code.reference import expected_output
from judge.text.output_diff import Difference, expected_label, first_difference


@dataclass(frozen=True)
class SampleView:
    name: str
    input: str  # the case's input (or arguments) as the problem's task type shows it
    expected: str
    got: str | None  # None when there is no output to show: none printed, or not kept (the store keeps none)
    difference: Difference | None
    input_label: str = "input"  # what the input is called: "input", or "arguments" of a call
    expected_label: str = "expected"  # output_diff.expected_label: the only right output, or one of several


def sample_view(problem: Problem, case: Case, result: CaseResult | None,
                reveal_hidden: bool = False) -> SampleView | None:
    """The visible parts of ``case`` and of ``result`` (CaseResult.output, or in grading its
    output_excerpt, which the judge keeps for sample cases); None for a hidden case, unless
    ``reveal_hidden`` (the "full" feedback level of judge/model/feedback.py)."""
    if case.visibility != Visibility.SAMPLE and not reveal_hidden:
        return None

    task = problem.task
    shown_input = task.show_value(task.value(case))
    expected_text = task.answer_text(expected_output(problem, case))
    kept = (result.output or result.output_excerpt) if result is not None else ""  # grading keeps the excerpt
    got = kept or None
    pointed = got is not None and result.verdict == Verdict.WA and problem.one_right_output
    difference = first_difference(expected_text, got) if pointed else None
    return SampleView(case.name, shown_input, expected_text, got, difference, task.value_label or "input",
                      expected_label(problem.one_right_output))


def sample_views(problem: Problem, results: list[CaseResult], reveal_hidden: bool = False) -> dict[str, SampleView]:
    """Views of the sample cases among ``results`` (of every case, with ``reveal_hidden``), by case name."""
    cases = {case.name: case for case in problem.cases}
    views = {}
    for result in results:
        case = cases.get(result.name)
        view = sample_view(problem, case, result, reveal_hidden) if case is not None else None
        if view is not None:
            views[result.name] = view
    return views
