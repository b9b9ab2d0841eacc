"""How `judge test PKG` runs a package's example submissions: side by side, as many at a time as
there are cores, while a builder of their own (one more thread) builds every program ahead, the
slowest to build first (kotlinc and javac start a JVM), and the pool judges the quickest to build
first: the two meet in the middle, so that a long build overlaps the runs that do not need it
instead of holding up a worker (a program the builder has not come to is built where it is judged).

When the package's time limit is not known yet, the accepted submissions are judged first, under a
generous cap, to infer it (``judge.formats.icpc.timelimit``). Beside them, the other submissions are judged
under the least limit the accepted runs done so far allow, which is the inferred limit more often
than not (one resolution, for most packages), and each such run is kept where the inferred limit
decides it alike:

- those expected to fail otherwise than by a time-out (wrong answers, crashes) to their first
  failure (``decided_alike``, as the accepted runs are);
- those expected to time out once, under that limit raised (``judged_past_time_limit``), where
  that limit is the inferred one. Theirs are the longest runs: with as many cores as there are,
  less one, they start before the accepted runs, so that they end beside them, not after.

The others are judged once the limit is known, those expected to time out first.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from judge.errors import JudgeError
from judge.formats.icpc.expectations import Expectation
from judge.formats.icpc.programs import submission_language
from judge.formats.icpc.submission_rules import Rule
from judge.formats.icpc.timelimit import (
    accepted_judging,
    accepted_submissions,
    build_seconds,
    decided_alike,
    least_limit,
    record_inferred_limit,
    time_limit_known,
)
from judge.model.problem import Problem
from judge.model.results import CaseResult, SubmissionResult
from judge.model.verdict import Verdict, decide
from judge.runner import base_limits, failed, judge_submission, prepare, summarize
from judge.sandbox import Limits, Outcome
from judge.workers import Future, Workers

Judged = tuple[SubmissionResult, str]  # a submission's result, and a warning about it (or "")
Guessed = tuple[SubmissionResult, float]  # a run made before the limit was known, and the limit it was made under


@dataclasses.dataclass(frozen=True)
class Planned:
    """An example submission to judge, and what it must get."""

    path: Path
    folder: str
    rule: Expectation | list[Rule]


def may_stop_early(problem: Problem, rule: Expectation | list[Rule]) -> bool:
    """Whether judging may stop at the first case that fails (one case at a time): when the
    verdict is all that is checked and a failure is expected, so that a slow wrong submission
    costs one time-out; a submission expected to pass runs every case. A score, a partial
    acceptance and submissions.yaml's rules look at every case."""
    if problem.package.scoring or isinstance(rule, list) or rule.partial:
        return False
    return Verdict.AC not in rule.verdicts


def times_out_only(problem: Problem, rule: Expectation | list[Rule]) -> bool:
    """Whether a time-out is the only verdict ``rule`` allows, and judging may stop at it. (Not in
    a multi-pass problem: a case's passes each have the limit, so a run under the raised limit
    cannot tell which pass would have timed out, nor stop there.)"""
    return may_stop_early(problem, rule) and rule.verdicts == {Verdict.TLE} and "multi-pass" not in problem.package.types


class SubmissionRuns:
    """The runs of ``planned`` in ``pool``, started at once, and their builds ahead in ``builder`` (see the module's docstring)."""

    def __init__(self, problem: Problem, planned: list[Planned], pool: Workers,
                 builder: Workers) -> None:
        self.problem, self.planned, self.pool, self.builder = problem, planned, pool, builder
        self.early: dict[int, Future[SubmissionResult]] = {}  # runs made before the limit was known
        self.guessed: dict[int, Future[Guessed]] = {}  # time-outs run before it, under a limit guessed
        self.started: dict[int, Future[Judged]] = {}
        self.inference: dict[Path, Future[SubmissionResult]] | None = None  # while the limit is inferred
        self._build_ahead()
        if time_limit_known(problem.package):
            self._start_judging()
        else:
            self._start_inferring(pool.count)

    def with_time_limit(self) -> Problem:
        """The problem with its time limit, inferred (waiting for the accepted runs) if it must
        be; the submissions without a run made already are started under it."""
        if self.inference is not None:
            runs = {path: future.result() for path, future in self.inference.items()}
            self.problem = dataclasses.replace(self.problem, time_limit=record_inferred_limit(self.problem, runs))
            self.inference = None
            self._start_judging()
        return self.problem

    def result(self, index: int) -> Judged:
        """The ``index``-th planned submission's result under the limit, and a warning about it
        (or ""); ``with_time_limit`` first."""
        guessed = self.guessed.get(index)
        if guessed is not None:
            run, limit = guessed.result()
            if limit == self.problem.time_limit:
                return decided_past_time_limit(self.problem, self.planned[index].path.resolve(), run)
            self.started[index] = self.pool.submit(judge_planned, self.problem, self.planned[index])
        early = self.early.get(index)
        if early is not None:
            run = early.result()
            if decided_alike(self.problem, self.planned[index].path, run):
                return run, ""
            self.started[index] = self.pool.submit(judge_planned, self.problem, self.planned[index])
        return self.started[index].result()

    def _start_judging(self) -> None:
        """Start each submission without a run made already, those expected to time out first
        (their runs are the longest, so they overlap the others' instead of ending the command
        alone)."""
        run_already = self.early.keys() | self.guessed.keys()
        waiting = self._in_pool_order([index for index in range(len(self.planned)) if index not in run_already])
        waiting.sort(key=lambda index: not times_out_only(self.problem, self.planned[index].rule))
        for index in waiting:
            self.started[index] = self.pool.submit(judge_planned, self.problem, self.planned[index])

    def _start_inferring(self, cores: int) -> None:
        """Up to ``cores - 1`` runs of those expected to time out, then the accepted runs and the
        early runs of the others expected to fail (mixed, the quickest to build first), then the
        other time-outs' runs (the longest first); the rest wait for the limit (the builder builds
        theirs meanwhile)."""
        timing_out = [index for index, planned in enumerate(self.planned)
                      if times_out_only(self.problem, planned.rule)]
        inference: dict[Path, Future[SubmissionResult]] = {}  # filled below, read by the runs as they start
        for index in timing_out[:cores - 1]:
            self._guess(index, inference)
        accepted = accepted_submissions(self.problem)
        judged = accepted_judging(self.problem, len(accepted))
        numbered = {path.resolve(): (number, path) for number, path in enumerate(accepted, 1)}
        early = [index for index, planned in enumerate(self.planned) if planned.path.resolve() not in numbered
                 and may_stop_early(self.problem, planned.rule) and Verdict.TLE not in planned.rule.verdicts]
        runs = [*((path, None) for path in numbered), *((self.planned[index].path.resolve(), index) for index in early)]
        for path, index in self._in_pool_order(runs, key=lambda run: run[0]):
            if index is None:
                inference[path] = self.pool.submit(judged, *numbered[path])
            else:
                self.early[index] = self.pool.submit(_judged_early, self.problem, path, inference)
        self.inference = inference
        for index in timing_out[cores - 1:]:
            self._guess(index, inference)
        for index, planned in enumerate(self.planned):
            path = planned.path.resolve()
            if path in inference:
                self.early[index] = inference[path]

    def _in_pool_order(self, items: list, key=None) -> list:
        """``items`` (planned submissions' indexes, or ``key`` of each its path) in the order the
        pool takes them: the quickest to build first (the builder starts from the other end)."""
        key = key or (lambda index: self.planned[index].path)
        return sorted(items, key=lambda item: build_seconds(key(item)))

    def _build_ahead(self) -> None:
        """Every program to judge that has a build, built in the builder, the slowest first."""
        paths = dict.fromkeys([*(planned.path.resolve() for planned in self.planned),
                               *(path.resolve() for path in accepted_submissions(self.problem))])
        for path in sorted((path for path in paths if build_seconds(path) > 0), key=build_seconds, reverse=True):
            self.builder.submit(_build, self.problem, path)

    def _guess(self, index: int, inference: dict[Path, Future[SubmissionResult]]) -> None:
        self.guessed[index] = self.pool.submit(_guessed_past_time_limit, self.problem, self.planned[index], inference)


def _least_known_limit(problem: Problem, inference: dict[Path, Future[SubmissionResult]]) -> Problem:
    """``problem`` under the least limit the inference can still give, from the accepted runs
    done by now."""
    done = {path: future.result() for path, future in list(inference.items())
            if future.done() and not future.exception()}
    return dataclasses.replace(problem, time_limit=least_limit(problem, done))


def _judged_early(problem: Problem, path: Path, inference: dict[Path, Future[SubmissionResult]]) -> SubmissionResult:
    """A submission expected to fail, judged to its first failure under the least limit the
    inference can still give, from the accepted runs done when it starts: a case that ends by
    itself within that ends within the limit, and one that needs more is judged again under the
    limit, so the run costs at most that much more than none."""
    return judge_submission(_least_known_limit(problem, inference), path, stop_on_failure=True)


def _guessed_past_time_limit(problem: Problem, planned: Planned,
                             inference: dict[Path, Future[SubmissionResult]]) -> Guessed:
    """A submission expected to time out, run under the least limit the inference can still give
    raised (``run_past_time_limit``), and that limit: the run decides it alike where that is the
    inferred limit, and costs at most the run under the inferred limit raised more than none."""
    guessed = _least_known_limit(problem, inference)
    return run_past_time_limit(guessed, planned.path.resolve()), guessed.time_limit


def judge_planned(problem: Problem, planned: Planned) -> Judged:
    """Judge one example submission as its check needs it: to its first failure when only a
    failure's verdict matters, once under the raised limit when only a time-out may come."""
    # An example may be a link to another one of the package (load_package saw it stays inside);
    # the judge opens sources without following links, so it gets the file itself.
    path = planned.path.resolve()
    if times_out_only(problem, planned.rule):
        return judged_past_time_limit(problem, path)
    return judge_submission(problem, path, stop_on_failure=may_stop_early(problem, planned.rule)), ""


def judged_past_time_limit(problem: Problem, path: Path) -> Judged:
    """A submission expected only to time out, judged once, as verifyproblem judges it: under the
    raised limit time_limit * time_limit_to_tle, its cases in order until one fails or runs past
    the limit itself (``decided_past_time_limit``). Judged under the limit first, its first TLE
    case would have to run again under the raised one to see whether it ends there: a second
    time-out. The wall clock allows the raised CPU time and its overshoot (``run_past_time_limit``):
    ending after the raised limit's seconds is not ending within it."""
    return decided_past_time_limit(problem, path, run_past_time_limit(problem, path))


def run_past_time_limit(problem: Problem, path: Path) -> SubmissionResult:
    """The run ``judged_past_time_limit`` decides from: under time_limit * time_limit_to_tle, its
    cases in order until one fails or runs past the limit. The wall clock allows the raised CPU
    time with its overshoot (Limits.wall_for), so that a program computing on a quiet machine is
    stopped by its CPU time, as problemtools and BAPCtools stop it (at the raised CPU time itself,
    the wall clock came first, a little short of it). A case the wall clock stops past the
    limit's CPU time is decided: TLE under the limit, and not ending within the raised limit's
    seconds. It is not run again with a loaded machine's wall clock, as a case stopped short of
    the limit's CPU time is (``slowed_by_machine``): that would cost up to three times the
    raised limit more, and could only show a quieter moment."""
    limits = submission_language(path, follow_file_links=True).limits(base_limits(problem))
    return judge_submission(_raised(problem), path, stop_when=lambda case: failed(case) or _past(case, limits),
                            limits=lambda raised: raised.with_wall(max(limits.wall_time, Limits.wall_for(raised.cpu_time))),
                            settled=lambda case: case.cpu_time > limits.cpu_time)


def decided_past_time_limit(problem: Problem, path: Path, run: SubmissionResult) -> Judged:
    """What ``run``, made under the raised limit time_limit * time_limit_to_tle (and a wall
    clock at least the limit's), decides under ``problem``'s: up to its first case that fails or
    runs past the limit, that case TLE if it ran past it; with the safety-margin warning when
    that case ends within the raised limit (as problemtools warns)."""
    raised = _raised(problem)
    limits = submission_language(path, follow_file_links=True).limits(base_limits(problem))
    ended = next((index for index, case in enumerate(run.cases) if failed(case) or _past(case, limits)), None)
    if ended is None or run.verdict in (Verdict.CE, Verdict.IE) or not _past(run.cases[ended], limits):
        return run, ""  # decided within the limit: the same under it
    last = run.cases[ended]
    timed_out = decide(Outcome(cpu_time=last.cpu_time, wall_time=last.wall_time,
                               wall_timed_out=last.cpu_time <= limits.cpu_time), limits, None)
    warning = ""
    raised_cpu = submission_language(path, follow_file_links=True).limits(base_limits(raised)).cpu_time
    if last.verdict != Verdict.TLE and last.cpu_time <= raised_cpu and last.wall_time <= raised.time_limit:
        # Ending within the raised limit's wall-clock allowance is not ending in time: a program
        # that sleeps past time_limit * time_limit_to_tle is too slow, whatever its CPU time.
        factor = problem.package.timing.tle_name
        warning = (f" (warning: {last.name} ends within time_limit * {factor} = {raised.time_limit:g} s, "
                   f"{last.verdict} there: the limit is near its running time)")
    cases = [*run.cases[:ended], dataclasses.replace(last, verdict=timed_out.verdict, message=timed_out.message)]
    result = summarize(problem, path, run.language, cases)
    result.partial = len(cases) < len(problem.cases)
    return result, warning


def _raised(problem: Problem) -> Problem:
    return dataclasses.replace(problem, time_limit=problem.time_limit * problem.package.timing.time_limit_to_tle)


def _past(case: CaseResult, limits: Limits) -> bool:
    """Whether a case ran past ``limits`` (judged under them, it would have timed out)."""
    return case.cpu_time > limits.cpu_time or case.wall_time >= limits.wall_time


def _build(problem: Problem, path: Path) -> None:
    try:
        prepare(problem, path)
    except JudgeError:  # reported where it is judged (a failed compile is remembered: see cached_build)
        pass
