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
from judge.runner import judge_submission
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
    if time_limit_known(problem.package):
        return problem
    return dataclasses.replace(problem, time_limit=inferred_time_limit(problem))


def inferred_time_limit(problem: Problem) -> float:
    """The inferred limit in seconds (from the cache when the package has not changed)."""
    package = problem.package
    cached = cached_time_limit(package)
    if cached is not None:
        return cached
    path = _cache_path(package)
    slowest = slowest_accepted(problem)
    timing = package.timing
    steps = max(1, math.ceil(slowest * timing.ac_to_time_limit / timing.resolution - 1e-9))
    limit = round(steps * timing.resolution, 6)
    temporary = path.with_suffix(f".{os.getpid()}.tmp")
    temporary.write_text(json.dumps({"time_limit": limit, "slowest_accepted": slowest}))
    temporary.replace(path)
    return limit


def cached_time_limit(package) -> float | None:
    """The limit inferred earlier for this package as it is now, or None: found without running anything."""
    try:
        return float(json.loads(_cache_path(package).read_text())["time_limit"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _cache_path(package):
    return cache_root() / f"icpc-timelimit-{package_hash(package.root)}.json"


def slowest_accepted(problem: Problem) -> float:
    """The slowest case of any accepted submission, in CPU seconds of the problem's own limit
    (a Java or JavaScript run's time is taken back through its language's allowance)."""
    capped = dataclasses.replace(problem, time_limit=CAP_SECONDS)
    accepted = [path for path, folder in submissions(problem.package) if folder == ACCEPTED and not unsupported_reason(path)]
    # As many programs run at once as there are cores (see verify): submissions side by side,
    # each running its cases side by side when there are fewer submissions than cores.
    cores = os.cpu_count() or 1
    at_once = max(1, min(cores, len(accepted)))

    def slowest_case(numbered: tuple[int, Path]) -> float | None:
        number, path = numbered
        # It may take minutes: say what is going on (on stderr, which reports never are).
        print(f"judge: {problem.id} gives no time limit: inferring it from its accepted submissions "
              f"({number}/{len(accepted)}: {path.relative_to(problem.package.root)}); done once, then cached",
              file=sys.stderr, flush=True)
        result = judge_submission(capped, path.resolve(), jobs=max(1, cores // at_once))
        if result.verdict != Verdict.AC or not result.cases:
            return None
        language = submission_language(path)
        return max(base_seconds(language, case.cpu_time) for case in result.cases)

    with ThreadPoolExecutor(max_workers=at_once) as pool:
        times = [seconds for seconds in pool.map(slowest_case, enumerate(accepted, 1)) if seconds is not None]
    if not times:
        raise PackageError(f"{problem.package.root}: no time limit: problem.yaml gives none (limits.time_limit), "
                           f"there is no .timelimit file, and no accepted submission runs here to infer it "
                           f"from; add one of these, or pass --time-limit")
    return max(times)


def base_seconds(language: Language, seconds: float) -> float:
    """The problem limit under which ``language`` would allow exactly ``seconds``."""
    def allowed(base: float) -> float:
        return language.limits(Limits.for_cpu(base, memory=1 << 30, output=1 << 20)).cpu_time
    factor = allowed(2.0) - allowed(1.0)
    return max(0.0, (seconds - (allowed(1.0) - factor)) / factor)
