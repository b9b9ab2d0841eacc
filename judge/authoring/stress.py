"""`judge stress`: differential testing against the reference, with minimal counterexamples.

Hypothesis generates valid inputs from the problem's strategies (judge/problem_code/hypothesis_search.py);
each is run through the submission exactly as `judge run` would (same sandbox, same limits) and
checked against the reference solver's answer. The first input that is not AC is shrunk to a
minimal one.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from hashlib import sha256
from pathlib import Path
from typing import TYPE_CHECKING, Any

from judge.authoring.planned_examples import PlannedExamples, example_key, generation_failed, strategy_inputs
from judge.errors import StressError
from judge.formats.catalog import BUILTIN_FOLDER
from judge.formats.suite.format import append_case
from judge.model.problem import Problem
from judge.model.results import PrepareFailure
from judge.model.verdict import Verdict
from judge.model.vocabulary import Visibility
from judge.problem_code.hypothesis_search import search as hypothesis_search
from judge.problem_code.reference import reference_answer, rejection
from judge.runner import executor, prepare, run_case
from judge.workers import Workers

if TYPE_CHECKING:
    from judge.model.results import CaseResult
    from judge.tasks import TaskType

# One search serves `judge stress` and the counterexample search of `judge run` and `judge grade`:
# by default both look for SEARCH_SECONDS of wall time (`judge stress --examples N` asks for N
# inputs instead), and a failing input found is shrunk within the same bounds.
SEARCH_SECONDS = 10.0
SEARCH_EXAMPLES = 100_000  # under a time budget: the budget, not this, ends a search that finds nothing
SHRINK_CALLS = 2000  # runs spent on shrinking at most, after the first difference
SHRINK_SECONDS = 60.0


class SearchOutOfTime(Exception):
    """The search's time budget ran out before any input failed."""


class _ShrinkingOver(Exception):
    """Shrinking reached its bounds: the smallest failing input found so far is the answer."""


@dataclass
class Counterexample:
    input: Any  # text for stdio problems, the argument list for function problems
    expected: Any
    got: str
    verdict: str
    message: str


@dataclass
class StressResult:
    problem: str
    submission: str
    examples_run: int
    found: bool
    counterexample: Counterexample | None = None
    first_failure: Any = None  # the failing input before shrinking
    shrunk: bool = True  # whether the counterexample was shrunk (a package's generators' cases are not)

    def to_json(self, task: TaskType) -> dict:
        data: dict[str, Any] = {"problem": self.problem, "submission": self.submission,
                                "examples_run": self.examples_run, "found": self.found, "counterexample": None}
        if self.counterexample:
            example = dataclasses.asdict(self.counterexample)
            example[task.case_field] = example.pop("input")
            data["counterexample"] = example
        return data


def stress(problem: Problem, source: Path, examples: int = 100, seed: int = 0,
           time_limit: float | None = None, language_name: str | None = None,
           on_example: Callable[[int], None] | None = None, jobs: int = 1,
           planned: PlannedExamples | None = None, deadline: float | None = None,
           admissible: Callable[[Any], bool] | None = None, find_deadline: float | None = None) -> StressResult:
    """Search for an input on which ``source`` is not AC; shrink the first one found.

    ``deadline`` (a time.monotonic() value) ends the search: no input runs after it, and a
    failing input found before it is shrunk only until then. ``find_deadline`` ends only the
    search for a first failing input: one found before it is shrunk within SHRINK_CALLS and
    SHRINK_SECONDS. An input ``admissible`` refuses is never run nor reported: it counts as
    passed, so shrinking steers around it.

    With ``jobs`` > 1 the examples are generated in a separate process and judged several at a
    time (see ``_judge_ahead``); the result is the same as with one. ``planned`` is that
    process if the caller started it already (for these ``examples`` and ``seed``); it is
    closed when the search is over.
    """
    if problem.package is not None:
        return _stress_package(problem, source, examples, seed, time_limit, language_name, on_example,
                               _earliest(deadline, find_deadline))
    # Started first, so that it generates while the submission compiles, and before any
    # judging thread exists (the generator is a forked process).
    if planned is None and jobs > 1:
        planned = PlannedExamples(strategy_file(problem), examples, seed)
    try:
        return _stress(problem, source, examples, seed, time_limit, language_name, on_example, jobs, planned,
                       deadline, admissible, find_deadline)
    finally:
        if planned:
            planned.close()


def _prepared(problem: Problem, source: Path, language_name: str | None, time_limit: float | None):
    """The submission built, with ``time_limit`` (CPU seconds) over the problem's if given (and
    scaled for its language as the problem's own is, as `judge run --time-limit` does); or, when
    it does not build, the StressResult that says so."""
    if time_limit:
        problem = dataclasses.replace(problem, time_limit=time_limit)
    prepared = prepare(problem, source, language_name)
    if isinstance(prepared, PrepareFailure):
        return StressResult(problem.id, str(source), 0, True,
                            Counterexample(None, None, "", prepared.verdict, prepared.message))
    return prepared


def _stress_package(problem, source, examples, seed, time_limit, language_name, on_example, deadline) -> StressResult:
    """A problem package's stress test: fresh cases from its own seeded generators (see
    judge/authoring/package_search.py; no shrinking), judged against its solution's answers."""
    # here: the package machinery (a third of a one-case `judge run`'s start, which imports this
    # module for its counterexample search) is for packages only
    from judge.authoring.package_search import search as package_search

    prepared = _prepared(problem, source, language_name, time_limit)
    if isinstance(prepared, StressResult):
        return prepared
    found = package_search(problem, prepared, deadline or float("inf"), lambda text: False, run_case, examples=examples,
                   salt=f"judge-stress-{seed}", on_tried=on_example)
    if found.result is None:
        if found.tried == 0:
            raise StressError(found.note)
        return StressResult(problem.id, str(source), found.tried, False)
    result = found.result
    return StressResult(problem.id, str(source), found.tried, True,
                        Counterexample(found.input, found.answer, result.output, Verdict(result.verdict).value,
                                       result.message), shrunk=False)


def _stress(problem, source, examples, seed, time_limit, language_name, on_example, jobs,
            planned: PlannedExamples | None, deadline: float | None = None,
            admissible: Callable[[Any], bool] | None = None, find_deadline: float | None = None) -> StressResult:
    prepared = _prepared(problem, source, language_name, time_limit)
    if isinstance(prepared, StressResult):
        return prepared
    with executor(prepared.language, prepared.program, problem.io, prepared.limits, workers=jobs) as execute:
        search = _Search(lambda value: run_case(problem, prepared, problem.task.make_case(value, "stress"),
                                                execute), on_example, deadline, admissible,
                         _earliest(deadline, find_deadline))
        if planned and not _judge_ahead(planned, search, jobs):
            return StressResult(problem.id, str(source), search.generated, False)
        if planned:
            planned.close()  # it has served its purpose; the search below replays its examples
        minimal = _search_and_shrink(problem, examples, seed, search)
    if minimal is None:
        return StressResult(problem.id, str(source), search.generated, False)
    result = search.results[example_key(minimal)]
    expected = reference_answer(problem, minimal)
    return StressResult(problem.id, str(source), search.generated, True,
                        Counterexample(minimal, expected, result.output, result.verdict, result.message),
                        first_failure=search.first_failure)


def _search_and_shrink(problem: Problem, examples: int, seed: int, search: _Search) -> Any:
    """Hypothesis' search for a failing input, shrunk; None if there is none."""
    path = strategy_file(problem)
    strategy = strategy_inputs(path)
    try:
        found, minimal = hypothesis_search(strategy, search.fails, examples, seed, shrink=True)
    except SearchOutOfTime:
        return None
    except _ShrinkingOver:
        return search.smallest_failure
    except Exception as error:
        raise generation_failed(path, error) from error
    return minimal if found else None


def _judge_ahead(planned: PlannedExamples, search: _Search, jobs: int) -> bool:
    """Judge the planned examples ``jobs`` at a time, recording results in order; stop at the
    first that fails. Returns whether one failed."""
    def examples_to_run():
        for value in planned:
            if search.finding_over():
                return
            if search.admissible is None or search.admissible(value):
                yield value  # (one not admissible is never run: it counts as passed, as in the search)

    with Workers(jobs) as workers:  # a failure found: the examples not begun are not judged
        for value, result in workers.in_order(lambda value: (value, search.run(value)), examples_to_run(),
                                               ahead=2 * jobs):  # judged ahead of the results taken
            if search.record_generated(value, result):
                return True
        return False


class _Search:
    """The predicate Hypothesis searches with: runs an input, remembers what happened."""

    def __init__(self, run: Callable[[Any], CaseResult], on_example: Callable[[int], None] | None,
                 deadline: float | None = None, admissible: Callable[[Any], bool] | None = None,
                 find_deadline: float | None = None) -> None:
        self.run = run
        self.on_example = on_example
        self.deadline = deadline  # the end of the whole search, shrinking included
        self.find_deadline = find_deadline  # the end of the search for a first failing input
        self.admissible = admissible
        self.results: dict[str, CaseResult] = {}
        self.generated = 0  # examples run up to and including the first difference
        self.first_failure: Any = None
        self.smallest_failure: Any = None  # the failing input Hypothesis' shrinking has reached
        self.shrink_calls = 0
        self.shrink_started = 0.0

    def fails(self, value: Any) -> bool:
        key = example_key(value)
        if key in self.results:
            return self.results[key].verdict != Verdict.AC
        if self.first_failure is None and self.finding_over():
            raise SearchOutOfTime  # ends Hypothesis' search: generating more would only cost time
        if self.first_failure is not None and self._shrinking_over():
            # Bounded, so a slow (TLE) solution cannot keep the search going for long; raised, not
            # answered, since each further candidate would still cost its validation.
            raise _ShrinkingOver
        if self.admissible is not None and not self.admissible(value):
            return False
        if self.first_failure is not None:
            self.shrink_calls += 1
            result = self.run(value)
            self.results[key] = result
            if result.verdict != Verdict.AC:
                self.smallest_failure = value  # the shrinker only tries inputs smaller than its best
            return result.verdict != Verdict.AC
        result = self.run(value)
        return self.record_generated(value, result)

    def _shrinking_over(self) -> bool:
        now = time.monotonic()
        return ((self.deadline is not None and now >= self.deadline) or self.shrink_calls >= SHRINK_CALLS
                or now - self.shrink_started > SHRINK_SECONDS)

    def finding_over(self) -> bool:
        """Whether the time to look for a first failing input has run out."""
        return self.find_deadline is not None and time.monotonic() >= self.find_deadline

    def record_generated(self, value: Any, result: CaseResult) -> bool:
        """Note a generated example's result; True if it is the first failure."""
        self.results[example_key(value)] = result
        self.generated += 1
        if self.on_example:
            self.on_example(self.generated)
        failed = result.verdict != Verdict.AC
        if failed:
            self.first_failure = self.smallest_failure = value
            self.shrink_started = time.monotonic()
        return failed


def _earliest(*deadlines: float | None) -> float | None:
    return min((deadline for deadline in deadlines if deadline is not None), default=None)


def strategy_file(problem: Problem) -> Path:
    """The problem's Hypothesis strategies; StressError saying what to add when it has none."""
    path = problem.files.strategies
    if path is None:
        raise StressError(f"problem {problem.id} has no input strategies, which `judge stress` needs")
    return path


def input_size(value: Any) -> int:
    """How big an input is, for comparing a shrunk counterexample with the first one."""
    return len(value) if isinstance(value, str) else len(json.dumps(value))


def save_counterexample(problem: Problem, result: StressResult, seed: int) -> str:
    """Append the counterexample to the problem's suite as a hidden case; return a sentence
    saying what was done. An input the validator rejects is never saved (StressError), and one
    the suite already has is not saved twice."""
    value = result.counterexample.input
    if BUILTIN_FOLDER in problem.project_root.parts:
        raise StressError(f"not saved: {problem.id} is a built-in problem of the installed judge; copy its files "
                          f"(cases/, reference/, validators/, strategies/) to a folder of your own and run "
                          f"judge stress --problems FOLDER ... --save there")
    rejected = rejection(problem, value)
    if rejected is not None:
        raise StressError(f"not saved: the problem's validator rejects the counterexample ({rejected}); "
                          f"fix the strategies in {problem.files.strategies} to generate valid inputs")
    same = next((case for case in problem.cases if example_key(problem.task.value(case)) == example_key(value)), None)
    if same is not None:
        return f"the suite already has this input as case {same.name}; not saved again"
    name = f"stress-{sha256(example_key(value).encode()).hexdigest()[:10]}"
    fields: dict[str, Any] = {"name": name, "group": "stress", "visibility": Visibility.HIDDEN.value,
                              "origin": f"found by judge stress (seed {seed}) against {Path(result.submission).name}"}
    fields[problem.task.case_field] = value
    append_case(problem, fields)
    return f"saved to the suite as hidden case {name}"
