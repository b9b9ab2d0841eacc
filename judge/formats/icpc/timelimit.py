"""A package's time limit when neither ``problem.yaml`` nor ``.timelimit`` gives one: inferred from
the slowest accepted submission as problemtools does, ``max(1, ceil(T_ac * ac_to_time_limit /
resolution)) * resolution``, and cached by the package's content. Where no accepted submission
passes to infer it from, the limit is the format's default, one ``time_resolution`` (1 s unless the
package says otherwise), as BAPCtools takes it, with a warning.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path

from judge.formats.icpc.expectations import submissions
from judge.formats.icpc.package import package_hash
from judge.formats.icpc.programs import submission_language, unsupported_reason
from judge.languages import Language
from judge.languages.base import cache_root
from judge.model.problem import Problem
from judge.model.results import SubmissionResult
from judge.model.verdict import Verdict
from judge.runner import base_limits, judge_submission
from judge.sandbox import Limits
from judge.workers import Future, Workers, usable_cores

CAP_SECONDS = 20.0  # CPU seconds an accepted submission may take while the limit is unknown
ACCEPTED = "accepted"
GIVEN = "--time-limit"  # the source of a limit the command line gave (TimeLimits.source)
PLACEHOLDER_SECONDS = 1.0  # a loaded package's limit until it is known: shown as unknown, never judged with
CPU_NOISE = 0.1  # how much the CPU time of one run varies between runs on a shared machine


def time_limit_known(package) -> bool:
    """Whether the package's time limit is given, or was inferred earlier (and cached)."""
    return package.timing.time_limit is not None or cached_time_limit(package) is not None


def with_time_limit(problem: Problem) -> Problem:
    """``problem`` ready to judge: a package whose time limit is not known yet (neither given nor
    inferred before) gets it inferred now, with a progress line per accepted submission, and
    cached; any other is returned as it is, with nothing run. A limit that is the format's
    default for want of an accepted run is said so, on stderr."""
    if not time_limit_known(problem.package):
        problem = dataclasses.replace(problem, time_limit=inferred_time_limit(problem))
    warning = default_limit_warning(problem.package)
    if warning:
        print(f"judge: {problem.id}: {warning} ({problem.time_limit:g} s)", file=sys.stderr, flush=True)
    return problem


def inferred_time_limit(problem: Problem) -> float:
    """The inferred limit in seconds (from the cache when the package has not changed)."""
    cached = cached_time_limit(problem.package)
    if cached is not None:
        return cached
    # As many programs run at once as there are cores (see verify): submissions side by side,
    # each running its cases side by side when there are fewer submissions than cores.
    with Workers(min(usable_cores(), len(accepted_submissions(problem)))) as pool:
        runs = {path: future.result() for path, future in judge_accepted(problem, pool).items()}
    return record_inferred_limit(problem, runs)


def record_inferred_limit(problem: Problem, runs: dict[Path, SubmissionResult]) -> float:
    """The limit ``runs`` (the accepted submissions' under the cap) give, or the format's default
    when none of them passed, cached for the package as it is now."""
    package = problem.package
    slowest = slowest_accepted(runs)
    limit = limit_for(slowest, package.timing) if slowest is not None else default_time_limit(package.timing)
    path = _cache_path(package)
    temporary = path.with_suffix(f".{os.getpid()}.tmp")
    temporary.write_text(json.dumps({"time_limit": limit, "slowest_accepted": slowest}))
    temporary.replace(path)
    return limit


def limit_for(slowest: float, timing) -> float:
    """problemtools' limit for the slowest accepted case's CPU seconds: a whole number of
    resolutions, at least one."""
    steps = max(1, math.ceil(slowest * timing.ac_to_time_limit / timing.resolution - 1e-9))
    return round(steps * timing.resolution, 6)


def unsteady_limit_warning(slowest: float, timing) -> str:
    """A warning when the limit inferred from ``slowest`` (CPU seconds) sits at a rounding step:
    the same run measured CPU_NOISE less or more would give another limit, so another machine, or
    this one at another moment, may infer another, and judge the submissions near it otherwise."""
    low, high = limit_for(slowest * (1 - CPU_NOISE), timing), limit_for(slowest * (1 + CPU_NOISE), timing)
    if low == high:
        return ""
    return (f"warning: the slowest accepted run took {slowest:.2f} s of CPU, and {CPU_NOISE:.0%} less or more "
            f"would infer {low:g} s or {high:g} s: give the limit (problem.yaml's limits.time_limit, or a "
            f".timelimit file) to keep it")


def default_time_limit(timing) -> float:
    """The limit of a package that gives none and has no accepted run to infer it from: one
    ``time_resolution``, BAPCtools' default for ``limits.time_limit`` (and the least limit the
    inference gives)."""
    return timing.resolution


def default_limit_warning(package) -> str:
    """A warning when the package's limit is the format's default for want of an accepted run to
    infer it from (or "")."""
    if package.timing.source != "inferred" or cached_time_limit(package) is None \
            or cached_slowest_accepted(package) is not None:
        return ""
    return ("warning: no accepted submission passed to infer the limit from: it is the format's default, one "
            "time_resolution, as BAPCtools takes it; give it (problem.yaml's limits.time_limit), or pass "
            "--time-limit SECONDS")


def cached_slowest_accepted(package) -> float | None:
    """The slowest accepted run's CPU seconds the cached inferred limit came from, or None (none
    was cached, or no accepted run passed)."""
    return _cached(package, "slowest_accepted")


def least_limit(problem: Problem, runs: dict[Path, SubmissionResult]) -> float:
    """The least limit the inference can still give, knowing some of the accepted runs (``runs``):
    the limit they give, or one resolution when none was accepted yet. More runs can only raise it."""
    timing = problem.package.timing
    slowest = slowest_accepted(runs)
    return limit_for(slowest, timing) if slowest is not None else default_time_limit(timing)


def cached_time_limit(package) -> float | None:
    """The limit inferred earlier for this package as it is now, or None: found without running anything."""
    return _cached(package, "time_limit")


def _cached(package, key: str) -> float | None:
    """One number ``record_inferred_limit`` kept for the package as it is now, or None."""
    try:
        return float(json.loads(_cache_path(package).read_text())[key])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _cache_path(package):
    return cache_root() / f"icpc-timelimit-{package_hash(package.root)}.json"


def accepted_submissions(problem: Problem) -> list[Path]:
    """The accepted submissions the limit is inferred from, the slowest to build first."""
    return sorted((path for path, folder in submissions(problem.package) if folder == ACCEPTED and not unsupported_reason(path, follow_file_links=True)),
                  key=lambda path: -build_seconds(path))


def build_seconds(path: Path) -> float:
    """About how long the submission at ``path`` takes to build (its language's estimate)."""
    return submission_language(path, follow_file_links=True).build_seconds


def judge_accepted(problem: Problem, pool: Workers) -> dict[Path, Future[SubmissionResult]]:
    """Each accepted submission judged in ``pool`` under a generous cap (CAP_SECONDS), by
    resolved path, each saying so as it starts."""
    accepted = accepted_submissions(problem)
    judged = accepted_judging(problem, len(accepted))
    return {path.resolve(): pool.submit(judged, number, path) for number, path in enumerate(accepted, 1)}


def accepted_judging(problem: Problem, count: int) -> Callable[[int, Path], SubmissionResult]:
    """How the ``number``-th of the ``count`` accepted submissions at ``path`` is judged to infer
    the limit: under a generous cap (CAP_SECONDS), saying so as it starts."""
    capped = dataclasses.replace(problem, time_limit=CAP_SECONDS)
    cores = usable_cores()
    jobs = max(1, cores // max(1, min(cores, count)))  # the cores a submission has to itself

    def judged(number: int, path: Path) -> SubmissionResult:
        # It may take minutes: say what is going on (on stderr, which reports never are).
        print(f"judge: {problem.id} gives no time limit: inferring it from its accepted submissions "
              f"({number}/{count}: {path.relative_to(problem.package.root)}); done once, then cached",
              file=sys.stderr, flush=True)
        return judge_submission(capped, path.resolve(), jobs=jobs)

    return judged


def slowest_accepted(runs: dict[Path, SubmissionResult]) -> float | None:
    """The slowest case of any accepted run, in CPU seconds of the problem's own limit (a Java
    or JavaScript run's time is taken back through its language's allowance); None when no run
    was accepted."""
    times = [max(base_seconds(submission_language(path, follow_file_links=True), case.cpu_time) for case in result.cases)
             for path, result in runs.items() if result.verdict == Verdict.AC and result.cases]
    return max(times, default=None)


def decided_alike(problem: Problem, path: Path, run: SubmissionResult) -> bool:
    """Whether ``run``, made under a cap while the limit was inferred, is what judging the
    submission again under ``problem``'s limit would decide: every case it ran ended by itself
    (a time-out under the cap's limits says nothing of the limit's) within that limit's CPU and
    wall time, so that the same runs are decided the same under it (it must have been made
    stopping where judging stops: at its first failure, or never). A compile error is the same
    under any limit; a judge's fault may not be. (problemtools, too, judges its accepted
    submissions once to set the limit and keeps those results.)"""
    if not run.cases or run.verdict == Verdict.IE:
        return False
    limits = submission_language(path, follow_file_links=True).limits(base_limits(problem))
    return all(case.verdict != Verdict.TLE and case.cpu_time < limits.cpu_time and case.wall_time < limits.wall_time
               for case in run.cases)


def base_seconds(language: Language, seconds: float) -> float:
    """The problem limit under which ``language`` would allow exactly ``seconds``."""
    def allowed(base: float) -> float:
        return language.limits(Limits.for_cpu(base, memory=1 << 30, output=1 << 20)).cpu_time
    factor = allowed(2.0) - allowed(1.0)
    return max(0.0, (seconds - (allowed(1.0) - factor)) / factor)
