"""A package as the ``Problem`` every command judges: read (judge/icpc/package.py), its data
generated when generators.yaml makes them, its time limit given or inferred, and its task, rules
and scoring attached. Above the modules it joins, so none of them needs to import it."""

from __future__ import annotations

from pathlib import Path

from judge.icpc import PROBLEM_FILE
from judge.icpc.generated_data import generated_data
from judge.icpc.package import Package, package_cases, read_package, statement_text
from judge.icpc.rules import PackageRules
from judge.icpc.scoring import max_score as package_max_score
from judge.icpc.tasks import package_task
from judge.icpc.timelimit import cached_time_limit, inferred_time_limit
from judge.problem import MIB, Problem, ProblemFiles


def load_package(root: Path, time_limit: float | None = None, infer: bool = True) -> Problem:
    """Load the package at ``root``. ``time_limit`` (seconds) overrides the package's; without
    either, the limit is inferred from the accepted submissions (once, cached), or with
    ``infer`` False taken from that cache only: a package loaded so, whose limit has not been
    inferred yet, is for showing, not judging (``time_limit_known`` says which)."""
    package = read_package(root)
    if package.data_pending:
        generated = generated_data(package, run=infer)  # the generators need the package's validators
        if generated is not None:
            package = read_package(root, generated)
    problem = as_problem(package, time_limit or package.timing.time_limit or 1.0)
    if time_limit is None and package.timing.time_limit is None:
        limit = inferred_time_limit(problem) if infer else cached_time_limit(package)
        if limit is not None:
            problem = as_problem(package, limit)
    return problem


def time_limit_known(package: Package) -> bool:
    """Whether the package's time limit is given, or was inferred earlier (and cached)."""
    return package.timing.time_limit is not None or cached_time_limit(package) is not None


def as_problem(package: Package, time_limit: float) -> Problem:
    """The package as the ``Problem`` every command judges, with a time limit of ``time_limit``."""
    cases = tuple(package_cases(package))
    max_score = 100.0
    if package.scoring:
        max_score = package_max_score(package)
    task = package_task(package)
    return Problem(
        id=package.root.name, title=package.name, statement=statement_text(package.root), task=task,
        time_limit=time_limit, memory_limit=package.memory_mib * MIB, output_limit=package.output_mib * MIB,
        files=ProblemFiles(root=package.root, suite=package.root / PROBLEM_FILE), checker="package",
        total_points=max_score, cases=cases, format="icpc", package=package, rules=PackageRules(),
        may_write_files=package.allow_file_writing)
