"""A package's time limit when neither ``problem.yaml`` nor ``.timelimit`` gives one: inferred from
the slowest accepted submission as problemtools does, ``max(1, ceil(T_ac * ac_to_time_limit /
resolution)) * resolution``, and cached by the package's content.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from judge.icpc.expectations import submissions
from judge.icpc.package import PackageError, package_hash
from judge.icpc.programs import submission_language, unsupported_reason
from judge.languages import Language
from judge.languages.base import cache_root
from judge.problem import Problem
from judge.results import SubmissionResult
from judge.runner import base_limits, judge_submission
from judge.sandbox import Limits
from judge.verdict import Verdict

CAP_SECONDS = 20.0  # CPU seconds an accepted submission may take while the limit is unknown
ACCEPTED = "accepted"
GIVEN = "--time-limit"  # the source of a limit the command line gave (TimeLimits.source)
PLACEHOLDER_SECONDS = 1.0  # a loaded package's limit until it is known: shown as unknown, never judged with


def time_limit_known(package) -> bool:
    """Whether the package's time limit is given, or was inferred earlier (and cached)."""
    return package.timing.time_limit is not None or cached_time_limit(package) is not None


def with_time_limit(problem: Problem) -> Problem:
    """``problem`` ready to judge: a package whose time limit is not known yet (neither given nor
    inferred before) gets it inferred now, with a progress line per accepted submission, and
    cached; any other is returned as it is, with nothing run."""
    return with_time_limit_and_runs(problem)[0]


def with_time_limit_and_runs(problem: Problem) -> tuple[Problem, dict[Path, SubmissionResult]]:
    """``with_time_limit``, and the results of the accepted submissions judged to infer the limit,
    by resolved path ({} when none was run), for judge test to keep where ``decided_alike``."""
    if time_limit_known(problem.package):
        return problem, {}
    limit, runs = _inferred(problem)
    return dataclasses.replace(problem, time_limit=limit), runs


def inferred_time_limit(problem: Problem) -> float:
    """The inferred limit in seconds (from the cache when the package has not changed)."""
    return _inferred(problem)[0]


def _inferred(problem: Problem) -> tuple[float, dict[Path, SubmissionResult]]:
    package = problem.package
    cached = cached_time_limit(package)
    if cached is not None:
        return cached, {}
    path = _cache_path(package)
    runs = accepted_runs(problem)
    slowest = slowest_accepted(runs, package)
    timing = package.timing
    steps = max(1, math.ceil(slowest * timing.ac_to_time_limit / timing.resolution - 1e-9))
    limit = round(steps * timing.resolution, 6)
    temporary = path.with_suffix(f".{os.getpid()}.tmp")
    temporary.write_text(json.dumps({"time_limit": limit, "slowest_accepted": slowest}))
    temporary.replace(path)
    return limit, runs


def cached_time_limit(package) -> float | None:
    """The limit inferred earlier for this package as it is now, or None: found without running anything."""
    try:
        return float(json.loads(_cache_path(package).read_text())["time_limit"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _cache_path(package):
    return cache_root() / f"icpc-timelimit-{package_hash(package.root)}.json"


def accepted_runs(problem: Problem) -> dict[Path, SubmissionResult]:
    """Each accepted submission judged under a generous cap (CAP_SECONDS), by resolved path."""
    capped = dataclasses.replace(problem, time_limit=CAP_SECONDS)
    accepted = [path for path, folder in submissions(problem.package) if folder == ACCEPTED and not unsupported_reason(path)]
    # As many programs run at once as there are cores (see verify): submissions side by side,
    # each running its cases side by side when there are fewer submissions than cores.
    cores = os.cpu_count() or 1
    at_once = max(1, min(cores, len(accepted)))

    def judged(numbered: tuple[int, Path]) -> SubmissionResult:
        number, path = numbered
        # It may take minutes: say what is going on (on stderr, which reports never are).
        print(f"judge: {problem.id} gives no time limit: inferring it from its accepted submissions "
              f"({number}/{len(accepted)}: {path.relative_to(problem.package.root)}); done once, then cached",
              file=sys.stderr, flush=True)
        return judge_submission(capped, path.resolve(), jobs=max(1, cores // at_once))

    with ThreadPoolExecutor(max_workers=at_once) as pool:
        return dict(zip((path.resolve() for path in accepted), pool.map(judged, enumerate(accepted, 1))))


def slowest_accepted(runs: dict[Path, SubmissionResult], package) -> float:
    """The slowest case of any accepted run, in CPU seconds of the problem's own limit (a Java
    or JavaScript run's time is taken back through its language's allowance)."""
    times = [max(base_seconds(submission_language(path), case.cpu_time) for case in result.cases)
             for path, result in runs.items() if result.verdict == Verdict.AC and result.cases]
    if not times:
        raise PackageError(f"{package.root}: no time limit: problem.yaml gives none (limits.time_limit), "
                           f"there is no .timelimit file, and no accepted submission runs here to infer it "
                           f"from; add one of these, or pass --time-limit")
    return max(times)


def decided_alike(problem: Problem, path: Path, run: SubmissionResult) -> bool:
    """Whether ``run``, an accepted submission's while the limit was inferred, is what judging it
    again under ``problem``'s limit would decide: AC on every case, each within that limit's CPU
    and wall time, so that the same run is AC under it too. (problemtools, too, judges its
    accepted submissions once to set the limit and keeps those results.)"""
    if run.verdict != Verdict.AC or not run.cases or run.partial:
        return False
    limits = submission_language(path).limits(base_limits(problem))
    return all(case.cpu_time < limits.cpu_time and case.wall_time < limits.wall_time for case in run.cases)


def base_seconds(language: Language, seconds: float) -> float:
    """The problem limit under which ``language`` would allow exactly ``seconds``."""
    def allowed(base: float) -> float:
        return language.limits(Limits.for_cpu(base, memory=1 << 30, output=1 << 20)).cpu_time
    factor = allowed(2.0) - allowed(1.0)
    return max(0.0, (seconds - (allowed(1.0) - factor)) / factor)
