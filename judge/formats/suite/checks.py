"""`judge test`'s checks of a problem written as a suite: it loads; the validator accepts every
case and rejects its own INVALID_EXAMPLES; the stress strategies generate only inputs the
validator accepts; the reference reproduces every stored expected output; and every example
solution gets exactly the verdict its folder names."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from judge.errors import SuiteError
from judge.model.feedback import name_holds_input
from judge.model.problem import Problem
from judge.model.results import Check, SubmissionResult
from judge.model.verdict import Verdict
from judge.model.vocabulary import Visibility
from judge.problem_code.checkers import problem_checker
from judge.problem_code.reference import (
    expected_output,
    reference_answer,
    rejection,
    strategy_module_at,
    validator_module,
)
from judge.runner import judge_submission
from judge.workers import Workers

STRATEGY_EXAMPLES = 50  # inputs drawn from a problem's strategies and shown to its validator


def verify_suite_problem(problem: Problem, jobs: int | None = None) -> Iterator[Check | None]:
    """The checks of a problem written as a suite: validator, strategies, reference, and every
    example solution (judged in parallel), each as soon as it is made."""
    yield Check(problem.id, "loads", True, f"{len(problem.cases)} cases")
    broken_checker = check_checker(problem)
    if broken_checker is not None:  # said once, first: every answer would be judged by it
        yield broken_checker
        return
    yield check_case_names(problem)
    yield check_validator(problem)
    yield check_strategies(problem)
    yield check_reference(problem)
    accepted: list[SubmissionResult] = []
    solutions = problem.example_solutions()
    with Workers(jobs) as workers:  # by default, as many as there are cores
        results = workers.in_order(lambda job: judge_submission(problem, job[0], stop_on_failure=True), solutions)
        for (path, expected), result in zip(solutions, results):
            if expected == Verdict.AC:
                accepted.append(result)
            yield solution_check(problem, path, expected, result)
    yield reference_against_accepted(problem, accepted)


def check_case_names(problem: Problem) -> Check | None:
    """A warning for the hidden cases whose names give their inputs away: shown to students they
    would be the input itself (judge/model/feedback.py numbers them, but a teacher's report or a
    `show_name: true` shows them); None when there is none."""
    telling = [case.name for case in problem.cases
               if case.visibility != Visibility.SAMPLE and name_holds_input(case.name, _input_text(case))]
    if not telling:
        return None
    return Check(problem.id, "case names", True,
                 f"warning: the names of hidden cases {', '.join(telling)} hold their inputs; name a case for "
                 f"what it tests (largest, all-equal), not what it holds")


def _input_text(case) -> str:
    return case.input if case.input is not None else json.dumps(case.args)


def check_validator(problem: Problem) -> Check:
    try:
        for case in problem.cases:
            rejected = rejection(problem, problem.task.value(case))
            if rejected is not None:
                return Check(problem.id, "validator", False, f"case {case.name} rejected: {rejected}")
        invalid = getattr(validator_module(problem), "INVALID_EXAMPLES", [])
        for example in invalid:
            if rejection(problem, example) is None:
                return Check(problem.id, "validator", False, f"accepted a malformed input: {str(example)[:60]!r}")
    except SuiteError as error:
        return Check(problem.id, "validator", False, str(error))
    return Check(problem.id, "validator", True, f"accepts all {len(problem.cases)} cases, rejects {len(invalid)} malformed inputs")


def check_strategies(problem: Problem) -> Check | None:
    """The stress strategies exist and generate only inputs the validator accepts (None: the
    problem's format has no strategies)."""
    path = problem.files.strategies
    if path is None:
        return None
    if not path.is_file():
        return Check(problem.id, "strategies", False, f"{path.parent.name}/{path.name} is missing: `judge stress` "
                                                      f"needs it (inputs() returning a Hypothesis strategy)")
    from judge.problem_code.hypothesis_search import search  # here: it loads Hypothesis, which only this check needs

    rejected: list[str] = []

    def invalid(value) -> bool:
        reason = rejection(problem, value)
        if reason is not None:
            rejected.append(f"{str(value)[:60]!r}: {reason}")
        return reason is not None

    try:
        strategy = strategy_module_at(path).inputs()
        found, _ = search(strategy, invalid, STRATEGY_EXAMPLES, seed=0, shrink=False)
    except SuiteError as error:  # a part of the problem that does not work, said as such
        return Check(problem.id, "strategies", False, str(error))
    except Exception as error:  # noqa: BLE001 - reported, not raised: the strategies are under test
        return Check(problem.id, "strategies", False, f"{path.name}: {type(error).__name__}: {error}")
    if found:
        return Check(problem.id, "strategies", False, f"generated an input the validator rejects: {rejected[0]}")
    return Check(problem.id, "strategies", True, f"{STRATEGY_EXAMPLES} generated inputs are all valid")


def check_checker(problem: Problem) -> Check | None:
    """A failed check when the problem's checker does not load (a file or function misspelt, a
    signature the judge cannot call); None when it loads."""
    try:
        problem_checker(problem)
    except SuiteError as error:
        return Check(problem.id, "checker", False, f"{error} (nothing else is checked: the reference and the "
                                                   f"example solutions are judged with it)")
    return None


def check_reference(problem: Problem) -> Check:
    stored = [case for case in problem.cases if case.expected is not None]
    checker = problem_checker(problem)
    try:
        for case in problem.cases:
            got = reference_answer(problem, problem.task.value(case))
            if case.expected is None:
                continue
            result = checker(problem.task.answer_text(got), case.expected, case=case, **problem.checker_options)
            if not result.ok:
                return Check(problem.id, "reference", False, f"case {case.name}: {result.message}")
    except SuiteError as error:
        return Check(problem.id, "reference", False, str(error))
    except Exception as error:  # noqa: BLE001 - reported, not raised: the reference is under test
        return Check(problem.id, "reference", False, f"{type(error).__name__}: {error}")
    return Check(problem.id, "reference", True, f"solves all cases, matches {len(stored)} stored outputs")


def solution_check(problem: Problem, path: Path, expected: Verdict, result: SubmissionResult) -> Check:
    """Whether an example solution got the verdict its folder names (``result``: judged with
    stop_on_failure, so a failed case is the last)."""
    relative = path.relative_to(problem.files.solutions.parent) if problem.files.solutions else path
    failing = next((case for case in result.cases if case.verdict != Verdict.AC), None)
    detail = f"got {result.verdict}" + (f" on {failing.name}: {failing.message}" if failing else "")
    return Check(problem.id, f"solution {relative}", result.verdict == expected,
                 detail if result.verdict == expected else f"expected {expected}, {detail}")


def reference_against_accepted(problem: Problem, accepted: list[SubmissionResult]) -> Check | None:
    """The reference named as the likely fault when every accepted solution (two or more) got WA
    on the same case with answers the checker finds the same (BAPCtools checks solutions against
    one accepted solution's answers). None when nothing points at the reference."""
    if len(accepted) < 2 or any(result.verdict != Verdict.WA or not result.cases for result in accepted):
        return None
    failed = [result.cases[-1] for result in accepted]  # judged with stop_on_failure: the failure is last
    case = next((case for case in problem.cases if case.name == failed[0].name), None)
    if case is None or any(result.name != case.name for result in failed):
        return None
    if not _agree(problem, case, [result.output for result in failed]):
        return None
    answer = problem.task.answer_text(expected_output(problem, case))
    reference = problem.files.reference
    source = "the case's stored output" if case.expected is not None or reference is None else \
        f"the reference {reference.name}"
    return Check(problem.id, "reference", False,
                 f"likely wrong on case {case.name}: all {len(accepted)} accepted solutions agree with each other "
                 f"there ({_short(failed[0].output)}), not with {source} ({_short(answer)})")


def _agree(problem: Problem, case, outputs: list[str]) -> bool:
    """Whether the checker accepts every output against the first, as if it were the answer."""
    try:
        checker = problem_checker(problem)
        first = problem.task.output_answer(outputs[0])
        return all(checker(output, first, case=case, reveal=True, **problem.checker_options).ok
                   for output in outputs[1:])
    except Exception:  # noqa: BLE001 - an answer the checker cannot read is no agreement
        return False


def _short(text: str) -> str:
    text = text.strip()
    return repr(text if len(text) <= 60 else text[:60] + "...")
