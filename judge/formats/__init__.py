"""Problem formats, each a module: the built-in YAML suites (``suite``) and ICPC/Kattis problem
packages (``package``); more are registered in
``FORMATS`` or, by other packages, through the ``judge.formats`` entry-point group (an object
with the ``ProblemFormat`` interface)."""

from __future__ import annotations

import functools
from importlib.metadata import entry_points

from judge.formats.base import ProblemFormat, ProblemSource
from judge.formats.package import PackageFormat
from judge.formats.suite import SuiteFormat
from judge.problem import Problem

__all__ = ["ProblemFormat", "ProblemSource", "format_of", "formats"]


@functools.cache
def formats() -> tuple[ProblemFormat, ...]:
    """Every format the judge reads, built-in ones first."""
    found: list[ProblemFormat] = [SuiteFormat(), PackageFormat()]
    for entry in entry_points(group="judge.formats"):
        loaded = entry.load()
        found.append(loaded() if isinstance(loaded, type) else loaded)
    return tuple(found)


def format_of(problem: Problem) -> ProblemFormat:
    """The format ``problem`` was read in."""
    return next(found for found in formats() if found.name == problem.format)
