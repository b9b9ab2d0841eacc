"""Judging one submission against one problem: prepare it, run every case, decide, score."""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from judge.errors import CompileError, JudgeFault, LanguageUnavailable, SuiteError, UnsupportedSubmission
from judge.languages import LANGUAGES, Language, Program, language_for
from judge.languages.base import trim_message
from judge.model.problem import Case, Problem
from judge.model.results import CaseResult, Prepared, PrepareFailure, SubmissionResult
from judge.model.scoring import score
from judge.model.verdict import CheckResult, Decision, Verdict, decide, overall_verdict, slowed_by_machine
from judge.model.vocabulary import COLD_ENV, Visibility
from judge.problem_code.checkers import problem_checker
from judge.problem_code.reference import expected_output
from judge.sandbox import Limits, Outcome, run_sandboxed
from judge.sandbox.host import has_namespaces
from judge.sandbox.limits import STACK_LIMIT
from judge.tasks.base import Execute
from judge.workers import Workers

OUTPUT_EXCERPT_CHARS = 4096  # of a sample case's output, kept for showing the difference


def base_limits(problem: Problem) -> Limits:
    """The problem's limits before the language adjusts them; the wall clock is the time limit
    with its overshoot (Limits.wall_for), times the task's ``wall_factor``."""
    limits = Limits.for_cpu(problem.time_limit, memory=problem.memory_limit, output=problem.output_limit,
                            write_files=problem.may_write_files, stack=STACK_LIMIT if problem.stack_limited else None,
                            stop_at_output_limit=problem.task.stops_at_output_limit)
    return limits.with_wall(limits.wall_time * problem.task.wall_factor)


def prepare(problem: Problem, source: Path, language_name: str | None = None) -> Prepared | PrepareFailure:
    """Choose the language and build the program, once, for every way of judging (run, stress,
    grade, the pytest plugin). A submission that cannot be built is a PrepareFailure value;
    UnknownLanguage and UnsupportedSubmission are raised: they are the caller's usage errors."""
    own_way = problem.rules.prepare(problem, source)
    if own_way is not None:
        return own_way
    if source.is_dir():
        raise UnsupportedSubmission(f"{source} is a folder; {problem.id} takes one source file")
    language = language_for(source, language_name)
    if problem.io not in language.styles:
        usable = [name for name, lang in LANGUAGES.items() if problem.io in lang.styles]
        raise UnsupportedSubmission(f"{problem.id} is graded by calling a function; submit it in "
                                    f"{' or '.join(usable)}, not {language.name}")
    unusable = problem.task.unusable_by(problem, language)
    if unusable:
        raise UnsupportedSubmission(unusable)
    return built(problem, language, lambda: (language, language.prepare(source, problem.io,
                                                                         **_signature_for(language, problem))))


def built(problem: Problem, language: Language, build: Callable[[], tuple[Language, Program]]) -> Prepared | PrepareFailure:
    """What ``build()`` made (a language and its program) ready to judge ``problem``; its
    compile error (CE) or missing toolchain (IE) as a PrepareFailure in ``language``."""
    try:
        language, program = build()
    except CompileError as error:  # its message goes into reports: sanitised, whoever raised it
        return PrepareFailure(Verdict.CE, trim_message(str(error)), language.name)
    except LanguageUnavailable as error:
        return PrepareFailure(Verdict.IE, str(error), language.name)
    return Prepared(language, program, language.limits(base_limits(problem)))


def _signature_for(language: Language, problem: Problem) -> dict:
    """The signature, for a language that builds its function call from one; nothing for the
    others (a language from another package may take only ``source`` and ``style``)."""
    style = language.function_style
    return {"signature": problem.signature} if style is not None and style.takes_signature else {}


def cold_execute(command: list[str], stdin: bytes, limits: Limits, program_dir: Path) -> Outcome:
    """Run a program afresh in the sandbox."""
    return run_sandboxed(command, stdin=stdin, limits=limits, program_dir=program_dir)


@contextmanager
def executor(language: Language, program: Program, style: str, limits: Limits, cold: bool = False,
             workers: int = 1):
    """How cases of this program are run: through the language's warm pool if it has one (unless
    ``cold`` or $JUDGE_COLD), else afresh each time. ``workers`` warm servers start at once (they
    boot while the caller gets its first case ready); more start when needed."""
    # Warm servers fork inside the sandbox and read /proc: Linux's alone.
    warm = not (cold or os.environ.get(COLD_ENV)) and has_namespaces()
    pool = language.warm_pool(program, style, limits) if warm else None
    if pool is None:
        yield cold_execute
        return
    pool.start(workers)
    try:
        yield pool.execute
    finally:
        pool.close()


def judge_submission(problem: Problem, source: Path, language_name: str | None = None,
                     cases: list[Case] | None = None, jobs: int = 1,
                     on_case: Callable[[CaseResult], None] | None = None,
                     stop_on_failure: bool = False, cold: bool = False,
                     keep_output: bool = True,
                     stop_when: Callable[[CaseResult], bool] | None = None,
                     limits: Callable[[Limits], Limits] | None = None,
                     settled: Callable[[CaseResult], bool] | None = None) -> SubmissionResult:
    """Judge ``source`` on ``cases`` (default: all of the problem's) and score it.

    With ``stop_on_failure`` the cases run in order and stop at the first that is not AC: the
    overall verdict is the same, and a slow wrong solution costs one time-out, not dozens.
    ``stop_when`` does the same with another test of a case's result (``stop_on_failure`` is
    ``stop_when=failed``). ``limits`` changes the limits the cases run under from the problem's
    (as the language adjusts them). A case ``settled`` says is decided keeps its run even where a
    loaded machine's wall clock stopped it (``_judge_case`` would run it again with more wall time).
    Without ``keep_output`` the results hold no whole outputs (a class of submissions printing
    megabytes each would otherwise be held in memory until the report), only excerpts.
    """
    cases = list(problem.cases if cases is None else cases)
    prepared = prepare(problem, source, language_name)
    if isinstance(prepared, PrepareFailure):
        return failed_preparation(problem, source, cases, prepared)
    if limits is not None:
        prepared = dataclasses.replace(prepared, limits=limits(prepared.limits))
    stop_when = failed if stop_on_failure else stop_when
    workers = 1 if stop_when else min(jobs, len(cases))
    cold = cold or not problem.task.runs_warm
    with executor(prepared.language, prepared.program, problem.io, prepared.limits, cold, workers) as execute:
        results = _run_cases(problem, prepared, cases, execute, jobs, on_case, stop_when, keep_output, settled)
    result = summarize(problem, source, prepared.language.name, results)
    result.partial = len(results) < len(problem.cases)
    return result


def _run_cases(problem: Problem, prepared: Prepared, cases: list[Case], execute: Execute, jobs: int,
               on_case: Callable[[CaseResult], None] | None, stop_when: Callable[[CaseResult], bool] | None,
               keep_output: bool, settled: Callable[[CaseResult], bool] | None = None) -> list[CaseResult]:
    def run_one(case: Case) -> CaseResult:
        result = run_case(problem, prepared, case, execute, keep_output, settled)
        if on_case:
            on_case(result)
        return result

    if stop_when:
        results = []
        for case in cases:
            results.append(run_one(case))
            if stop_when(results[-1]):
                break
    elif jobs > 1:
        with Workers(jobs) as workers:
            results = list(workers.in_order(run_one, cases))
    else:
        results = [run_one(case) for case in cases]
    return results


def failed(result: CaseResult) -> bool:
    """Whether a case's result is a failure (judge_submission's ``stop_on_failure`` stops there)."""
    return result.verdict != Verdict.AC


def summarize(problem: Problem, source: Path, language: str, results: list[CaseResult],
              compile_message: str = "") -> SubmissionResult:
    """The submission's result from its case results: overall verdict and score."""
    verdicts = {result.name: result.verdict for result in results}
    verdict, points = problem.rules.aggregate(problem, results) or \
        (overall_verdict([result.verdict for result in results]), score(problem, verdicts))
    return SubmissionResult(
        problem=problem.id, submission=str(source), language=language, verdict=verdict,
        score=points, max_score=problem.total_points, cases=results, compile_message=compile_message)


def failed_preparation(problem: Problem, source: Path, cases: list[Case], failure: PrepareFailure) -> SubmissionResult:
    """Every case gets the failure's verdict (CE or IE), and the result keeps its whole message."""
    results = [CaseResult(case.name, case.group, failure.verdict, message=failure.headline, visibility=case.visibility)
               for case in cases]
    return summarize(problem, source, failure.language, results, compile_message=failure.message)


def run_case(problem: Problem, prepared: Prepared, case: Case, execute: Execute | None = None,
             keep_output: bool = True, settled: Callable[[CaseResult], bool] | None = None) -> CaseResult:
    """Run one case in the sandbox (as the problem's task type runs it) and decide its verdict.
    The result keeps the whole output only with ``keep_output``; an excerpt of a sample case's
    output always. ``settled``: as judge_submission's."""
    result = _judge_case(problem, prepared, case, execute, settled)
    result.output_excerpt = result.output[:OUTPUT_EXCERPT_CHARS] if case.visibility == Visibility.SAMPLE else ""
    if result.verdict != Verdict.AC:
        result.hint, result.description = case.hint, case.description
    if not keep_output:
        result.output = ""
    return result


def _judge_case(problem: Problem, prepared: Prepared, case: Case, execute: Execute | None,
                settled: Callable[[CaseResult], bool] | None = None) -> CaseResult:
    """The case's result. A run whose allocation failed because the machine was short of memory
    is not the program's doing, so it runs once more, and is IE if that happens again; nor is a
    run the wall clock stopped while it was computing short of its CPU limit (a loaded machine):
    it runs once more with the wall clock at Limits.loaded_wall, and that run decides, unless
    ``settled`` says the first run decides the case already."""
    result = _judge_case_once(problem, prepared, case, execute)
    limits = prepared.limits
    if result.machine_short_of_memory:
        result = _judge_case_once(problem, prepared, case, execute)
    elif slowed_by_machine(result.verdict, result.cpu_time, result.wall_time, limits) \
            and not (settled and settled(result)):
        loaded = dataclasses.replace(prepared, limits=limits.with_wall(max(limits.wall_time,
                                                                          Limits.loaded_wall(limits.cpu_time))))
        result = _judge_case_once(problem, loaded, case, execute)
    return result


def _judge_case_once(problem: Problem, prepared: Prepared, case: Case, execute: Execute | None) -> CaseResult:
    judged = problem.task.judge_case(problem, prepared, case, execute or cold_execute)
    if judged is not None:
        return judged
    limits = prepared.limits
    outcome = problem.task.run(execute or cold_execute, prepared.program.argv(limits), case, limits,
                               prepared.program.directory)
    got = outcome.stdout.decode("utf-8", errors="replace")
    check = None
    if not outcome.internal_error and outcome.exit_code == 0 and outcome.signal is None:
        try:
            check = check_output(problem, case, got)
        except JudgeFault as fault:
            outcome.internal_error = str(fault)
    decision = decide_run(outcome, limits, check, prepared.language,
                          shown_error(outcome.stderr, case.visibility, prepared.language))
    return CaseResult(
        name=case.name, group=case.group, verdict=decision.verdict, cpu_time=round(outcome.cpu_time, 4),
        wall_time=round(outcome.wall_time, 4), memory_kb=outcome.memory_kb, exit_code=outcome.exit_code,
        signal=outcome.signal, message=decision.message, visibility=case.visibility, output=got,
        machine_short_of_memory=decision.machine_short_of_memory)


def decide_run(outcome: Outcome, limits: Limits, check: CheckResult | None, language: Language,
               shown_error: str) -> Decision:
    """``decide`` on a run that has just ended, with what only this moment tells: whether its
    runtime said it ran out of memory and, if so, how much memory the machine has left."""
    out_of_memory = language.ran_out_of_memory(outcome.stderr)
    return decide(outcome, limits, check, out_of_memory=out_of_memory, error_line=shown_error,
                  available_memory_kb=available_memory_kb() if out_of_memory else None)


def available_memory_kb(meminfo: Path = Path("/proc/meminfo")) -> int | None:
    """The machine's MemAvailable in KiB (what it can give without swapping); None if unknown."""
    try:
        for line in meminfo.read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return None


def check_output(problem: Problem, case: Case, got: str) -> CheckResult:
    """Compare a submission's output with the expected one using the problem's checker."""
    try:
        expected: Any = expected_output(problem, case)
        checker = problem_checker(problem)
        return checker(got, expected, reveal=case.visibility == Visibility.SAMPLE, case=case, **problem.checker_options)
    except SuiteError as error:  # the problem's checker or reference does not work, said as such
        raise JudgeFault(f"checking case {case.name} failed: {error}") from error
    except Exception as error:  # a broken reference or checker is the judge's fault, never the student's
        raise JudgeFault(f"checking case {case.name} failed: {type(error).__name__}: {error}") from error


# An uncaught exception's class at the start of the runtime's report line: Python's
# `RecursionError: ...`, node's `TypeError: ...`, Java's `Exception in thread "main" java.lang.X: ...`.
EXCEPTION_CLASS = re.compile(r'^(?:Exception in thread "[^"]*" )?((?:[A-Za-z_$][\w$]*\.)*[A-Za-z_$][\w$]*(?:Error|Exception))(?::|$)')


def shown_error(stderr: bytes, visibility: str, language: Language | None = None) -> str:
    """What of a program's stderr a case's message may carry: a sample case's error line
    (``error_line``); of a hidden case only the exception's class, never its message or any
    other text, since a program can print its input there."""
    if visibility == Visibility.SAMPLE:
        return error_line(stderr, language)
    return exception_class(stderr)


def exception_class(stderr: bytes) -> str:
    """The class of the uncaught exception a runtime reported (``RecursionError``,
    ``java.lang.ArrayIndexOutOfBoundsException``), or "" when stderr names none."""
    text = stderr.decode("utf-8", errors="replace")
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for line in reversed(lines):
        found = EXCEPTION_CLASS.match(line)
        if found:
            return found.group(1)
    return ""


def error_line(stderr: bytes, language: Language | None = None) -> str:
    """The line of a program's stderr that says what went wrong: the last one naming an error or
    exception (Python's last traceback line, Java's and node's exception line), else the last;
    with the line of the submission where it happened, when its ``language`` finds it in the
    runtime's report."""
    text = stderr.decode("utf-8", errors="replace")
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    named = [line for line in lines if ("Error" in line or "Exception" in line) and not line.startswith("at ")]
    line = (named or lines or [""])[-1][:200]
    where = language.failing_line(text) if language is not None else None
    return f"{line} ({where})" if line and where else line
