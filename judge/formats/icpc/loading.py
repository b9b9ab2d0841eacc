"""A package as the ``Problem`` every command judges: read (judge/formats/icpc/package.py), its data
generated when generators.yaml makes them, its time limit given or inferred earlier, and its task, rules
and scoring attached. Above the modules it joins, so none of them needs to import it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from judge.formats.icpc import PROBLEM_FILE
from judge.formats.icpc.generated_data import generated_data
from judge.formats.icpc.graders import CustomGrader
from judge.formats.icpc.package import Package, package_cases, read_package, statement_text
from judge.formats.icpc.rules import PackageRules
from judge.formats.icpc.scoring import max_score as package_max_score
from judge.formats.icpc.tasks import package_task
from judge.formats.icpc.timelimit import GIVEN, PLACEHOLDER_SECONDS, cached_time_limit
from judge.model.problem import MIB, Problem, ProblemFiles


def load_package(root: Path, time_limit: float | None = None, run_generators: bool = True) -> Problem:
    """Load the package at ``root``, running no submission. ``time_limit`` (seconds) overrides
    the package's; without either, the limit inferred earlier (cached) is taken, if any. A
    package whose limit is not known yet (``time_limit_known``) is for showing until
    ``with_time_limit`` infers it; without ``run_generators``, data that generators.yaml makes
    stay to be made."""
    package = read_package(root)
    if package.data_pending:
        generated = generated_data(package, run=run_generators)  # the generators need the package's validators
        if generated is not None:
            package = read_package(root, generated)
    if time_limit is not None:  # given: nothing is left to infer
        package = dataclasses.replace(package, timing=dataclasses.replace(
            package.timing, time_limit=time_limit, source=GIVEN))
    limit = package.timing.time_limit or cached_time_limit(package)
    return as_problem(package, limit or PLACEHOLDER_SECONDS)


def _custom_grader(package: Package) -> CustomGrader | None:
    """The grader a scoring package's groups with ``grading: custom`` are graded by (a pass-fail
    problem's verdict is its first failure's: it has no use for one)."""
    return CustomGrader(package) if package.scoring and package.grader is not None else None


def as_problem(package: Package, time_limit: float) -> Problem:
    """The package as the ``Problem`` every command judges, with a time limit of ``time_limit``."""
    cases = tuple(package_cases(package))
    max_score = 100.0
    if package.scoring:
        max_score = package_max_score(package)
    task = package_task(package)
    return Problem(
        id=package.root.name, title=package.name, statement=statement_text(package.root, package.constants), task=task,
        time_limit=time_limit, memory_limit=package.memory_mib * MIB, output_limit=package.output_mib * MIB,
        files=ProblemFiles(root=package.root, suite=package.root / PROBLEM_FILE), checker="package",
        total_points=max_score, cases=cases, format="icpc", package=package,
        rules=PackageRules(_custom_grader(package)),
        may_write_files=package.allow_file_writing, stack_limited=False)
