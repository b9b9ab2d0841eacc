"""A failing input of the student's own: when a submission fails a case it may not see, search
(as `judge stress` does, within a time budget) for a small input on which it and the reference
disagree. That input is never a hidden case's: the student may see it, and act on it."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from judge.authoring.planned_examples import example_key
from judge.authoring.stress import SEARCH_EXAMPLES, SEARCH_SECONDS, Counterexample, stress
from judge.errors import StressError, SuiteError
from judge.model.problem import Problem
from judge.model.results import PrepareFailure, SubmissionResult
from judge.model.verdict import Verdict
from judge.model.vocabulary import Visibility
from judge.problem_code.reference import rejection
from judge.runner import prepare, run_case
from judge.text.output_diff import comparable_lines

if TYPE_CHECKING:  # annotations only: `judge run` imports this module, and grading is slow to import
    from judge.classroom.grading import ClassReport
    from judge.classroom.store import Store

# Verdicts a counterexample can explain: the submission ran and did something wrong.
EXPLAINED = {Verdict.WA, Verdict.RE, Verdict.TLE, Verdict.MLE, Verdict.OLE}
PER_SUBMISSION = SEARCH_SECONDS  # wall time for one submission's search in `judge grade`, as `judge run` gives
MIN_SEARCH = 1.0  # a search given less than this finds too little to be worth starting


@dataclass
class Explanation:
    """What the search found: a counterexample (input, expected, got, verdict), or None with a
    note saying why there is none; ``rejected_hidden``: failing inputs passed over because they
    are hidden cases' inputs."""

    counterexample: Any = None  # stress.Counterexample
    note: str = ""
    seconds: float = 0.0
    rejected_hidden: int = 0
    hidden_failed: bool = False  # whether a hidden case failed, so that there was something to explain
    case_field: str = "input"  # the JSON key of the input: "input", or "args" of a call
    input_label: str = "input"
    input_text: str = ""  # the input and the expected output as the problem's task type shows them
    expected_text: str = ""
    one_right_output: bool = True  # Problem.one_right_output: whether the first difference is pointed at

    def to_json(self) -> dict:
        """The ``counterexample`` and ``counterexample_note`` fields of `judge run`'s JSON."""
        example = self.counterexample
        if example is None:
            return {"counterexample": None, "counterexample_note": self.note}
        return {"counterexample": {self.case_field: example.input, "expected": example.expected,
                                   "got": example.got, "verdict": example.verdict, "message": example.message,
                                   "seconds": round(self.seconds, 3)},
                "counterexample_note": self.note}


    def to_record(self) -> dict:
        """Everything a report shows of it, as JSON the results store keeps (``from_record``)."""
        return {**self.to_json(), "seconds": round(self.seconds, 3), "rejected_hidden": self.rejected_hidden,
                "hidden_failed": self.hidden_failed, "case_field": self.case_field, "input_label": self.input_label,
                "input_text": self.input_text, "expected_text": self.expected_text,
                "one_right_output": self.one_right_output}

    @classmethod
    def from_record(cls, record: dict) -> Explanation:
        found = record.get("counterexample")
        example = None
        if found is not None:
            field = record.get("case_field", "input")
            example = Counterexample(input=found.get(field), expected=found.get("expected"), got=found.get("got", ""),
                                     verdict=found.get("verdict", ""), message=found.get("message", ""))
        return cls(counterexample=example, note=record.get("counterexample_note", ""),
                   seconds=record.get("seconds", 0.0), rejected_hidden=record.get("rejected_hidden", 0),
                   hidden_failed=record.get("hidden_failed", True), case_field=record.get("case_field", "input"),
                   input_label=record.get("input_label", "input"), input_text=record.get("input_text", ""),
                   expected_text=record.get("expected_text", ""), one_right_output=record.get("one_right_output", True))


def hidden_failures(result: SubmissionResult) -> list:
    """The cases the submission failed that it may not see, in a way a counterexample explains."""
    return [case for case in result.cases if case.visibility != Visibility.SAMPLE and case.verdict in EXPLAINED]


def explain(problem: Problem, source: Path, result: SubmissionResult, budget: float,
            language_name: str | None = None) -> Explanation:
    """Search, for ``budget`` seconds of wall time at most, for an input of the judge's own on
    which ``source`` fails, if it failed a hidden case."""
    failures = hidden_failures(result)
    reason = _why_not_search(problem, result, failures)
    if not reason and problem.package is not None:
        return _explain_package(problem, source, budget, language_name, failures)
    if reason:
        return Explanation(note=reason, case_field=problem.task.case_field, hidden_failed=bool(failures))
    started = time.monotonic()

    try:
        admissible = _Admissible(problem)
        found = stress(problem, source, examples=SEARCH_EXAMPLES, language_name=language_name,
                       deadline=started + budget, admissible=admissible)
    except (StressError, SuiteError) as error:  # broken strategies or validator: the run's result stands
        return Explanation(note=f"no search: {error}", case_field=problem.task.case_field, hidden_failed=True)
    seconds = time.monotonic() - started
    task = problem.task
    explanation = Explanation(seconds=seconds, rejected_hidden=admissible.hidden, hidden_failed=True,
                              case_field=task.case_field, input_label=task.value_label or "input")
    example = found.counterexample
    if not found.found or example is None or example.input is None:
        explanation.note = _none_found(budget, found.examples_run, failures)
        return explanation
    if example.verdict == Verdict.IE:  # the judge's fault (its reference or checker), not the submission's
        explanation.note = f"the search stopped at an internal error: {example.message}"
        return explanation
    explanation.counterexample = example
    explanation.input_text = task.show_value(example.input)
    explanation.expected_text = task.answer_text(example.expected)
    explanation.one_right_output = problem.one_right_output
    return explanation


def explain_class(report: ClassReport, store: Store, budget: float, wanted: Callable[[str], bool],
                  per_submission: float = PER_SUBMISSION, on_search: Callable[[int, float], None] | None = None) -> None:
    """Give each graded result in ``report`` that failed a hidden case, for a problem ``wanted``
    (its feedback level shows counterexamples), its counterexample search's outcome: the one the
    store kept, else a search of up to ``per_submission`` seconds while the class's ``budget``
    (seconds of wall time, for every search together) lasts; each search's outcome is kept in the
    store (none is made with a budget of 0). ``on_search`` is told how many searches are to be made
    and the budget, before the first."""
    pending = []
    for student in report.students:
        for problem_id, result in student.results.items():
            problem = report.loaded.get(problem_id)
            if problem is None or not wanted(problem_id) or not hidden_failures(result):
                continue
            submission_id, _complete = store.submission(student.student, problem, Path(result.submission),
                                                        result.language)
            record = store.explanation(submission_id)
            if record is not None:
                result.explanation = Explanation.from_record(record)
            else:
                pending.append((submission_id, problem, result))
    if budget <= 0 or per_submission <= 0:
        return  # no search asked for: what the store kept is all there is
    if pending and on_search is not None:
        on_search(len(pending), budget)
    deadline = time.monotonic() + budget
    for submission_id, problem, result in pending:
        remaining = deadline - time.monotonic()
        if remaining < MIN_SEARCH:
            result.explanation = Explanation(note=f"not searched: the class's budget of {budget:g} s was spent (`judge "
                                                  f"grade --explain SECONDS` gives more; the next run goes on with it)",
                                             case_field=problem.task.case_field, hidden_failed=True)
            continue
        result.explanation = explain(problem, Path(result.submission), result, min(per_submission, remaining))
        store.record_explanation(submission_id, result.explanation.to_record())


def _why_not_search(problem: Problem, result: SubmissionResult, failures: list) -> str:
    """Why no search is made (a sentence), or "" when one is."""
    if result.verdict == Verdict.AC:
        return "all cases passed"
    if not failures:
        if result.verdict in (Verdict.CE, Verdict.IE):
            return f"the submission did not run ({result.verdict}): there is nothing to search for"
        return "no hidden case failed: the failed sample cases show their input"
    if problem.package is not None:
        return ""  # its own generators, if it has any (judge/authoring/package_search.py)
    if problem.files.strategies is None:
        return (f"the problem {problem.id} has no input generator (Hypothesis strategies), so no input of the "
                f"judge's own can be searched for")
    if problem.files.reference is None:
        return f"{problem.id} has no reference solver to compare with, so no counterexample can be searched for"
    return ""


def _explain_package(problem: Problem, source: Path, budget: float, language_name: str | None,
                     failures: list) -> Explanation:
    """A package's search, with its seeded generators (see judge/authoring/package_search.py)."""
    from judge.authoring.package_search import search  # package machinery: for packages only (see authoring/stress.py)

    started = time.monotonic()
    explanation = Explanation(hidden_failed=True, case_field="input")
    prepared = prepare(problem, source, language_name)
    if isinstance(prepared, PrepareFailure):
        explanation.note = f"no search: the submission does not build ({prepared.headline})"
        return explanation
    hidden = {_same_input_key(case.input) for case in problem.cases if case.visibility != Visibility.SAMPLE}
    found = search(problem, prepared, started + budget, lambda text: _same_input_key(text) in hidden, run_case)
    explanation.seconds, explanation.rejected_hidden = time.monotonic() - started, found.rejected_hidden
    if found.result is None:
        explanation.note = found.note
        if "budget" in found.note and all(case.verdict == Verdict.TLE for case in failures):
            explanation.note += "; the failures were TLE only, which small inputs may not show"
        return explanation

    explanation.counterexample = Counterexample(input=found.input, expected=found.answer, got=found.result.output,
                                                verdict=Verdict(found.result.verdict).value, message=found.result.message)
    explanation.input_text, explanation.expected_text = found.input, found.answer
    explanation.one_right_output = problem.one_right_output
    return explanation


def _none_found(budget: float, tried: int, failures: list) -> str:
    note = f"none found within {budget:g} s ({tried} inputs tried)"
    if all(case.verdict == Verdict.TLE for case in failures):
        note += "; the failures were TLE only, which small inputs may not show"
    return note


def _same_input_key(value: Any) -> str:
    """An input as a key under which inputs a program reads alike are equal: text without
    trailing whitespace on its lines or trailing blank lines (as the checkers read it)."""
    if isinstance(value, str):
        return example_key("\n".join(comparable_lines(value)))
    return example_key(value)


class _Admissible:
    """Whether an input may be shown: the validator accepts it, and it is no hidden case's input
    (those are counted, for the output to say so)."""

    def __init__(self, problem: Problem) -> None:
        task = problem.task
        self.hidden_keys = {_same_input_key(task.value(case)) for case in problem.cases if case.visibility != Visibility.SAMPLE}
        self.problem = problem if problem.files.validator is not None else None
        self.rejected: set[str] = set()

    @property
    def hidden(self) -> int:
        return len(self.rejected)

    def __call__(self, value: Any) -> bool:
        key = _same_input_key(value)
        if key in self.hidden_keys:
            self.rejected.add(key)
            return False
        return self.problem is None or rejection(self.problem, value) is None
