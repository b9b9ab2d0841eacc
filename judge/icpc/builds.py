"""A package's programs — its validators and example submissions — built together before
`judge test` runs any of them, as many at a time as there are cores: they are independent, and
built one after another they are most of a cold verify's time. Each build lands in the compile
cache, keyed by its content, where judging finds it. Nothing is reported here: a program that
does not build fails again where it is used (at once: see ``cached_build``), and is reported
there against its own submission or validator, as without this step.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from judge.errors import JudgeError
from judge.icpc.expectations import submissions
from judge.icpc.programs import package_program, unsupported_reason
from judge.problem import Problem
from judge.runner import prepare


def build_programs(problem: Problem, cores: int) -> None:
    """Build every program of ``problem``'s package that judge test will run, ``cores`` at a time."""
    builds = _builds(problem)
    with ThreadPoolExecutor(max_workers=max(1, cores)) as pool:
        list(pool.map(_quietly, builds))


def _builds(problem: Problem) -> list[Callable[[], object]]:
    """How to build each program, as the check that uses it builds it (so that its cache key is
    the same): the submissions, Java's first (the slowest to build, so none is left to build
    alone at the end), then the validators (one in a language the judge does not run fails to
    build, quietly)."""
    package = problem.package
    runnable = sorted((path for path, _ in submissions(package) if not unsupported_reason(path)),
                      key=lambda path: path.suffix != ".java")
    builds: list[Callable[[], object]] = [lambda path=path: prepare(problem, path.resolve()) for path in runnable]
    builds += [lambda path=path: package_program(package, path) for path in package.input_validators]
    if package.output_validator is not None:
        builds.append(problem.task.validator.program)
    return builds


def _quietly(build: Callable[[], object]) -> None:
    try:
        build()
    except JudgeError:  # reported where the program is used (see the module's docstring)
        pass
