"""Problem formats, each a module: the built-in YAML suites (``suite``) and ICPC/Kattis problem
packages (``package``); more are registered in
``FORMATS`` or, by other packages, through the ``judge.formats`` entry-point group (an object
with the ``ProblemFormat`` interface)."""

from __future__ import annotations

import functools

from judge.formats.base import ProblemFormat, ProblemSource
from judge.formats.icpc.format import PackageFormat
from judge.formats.suite.format import SuiteFormat
from judge.model.problem import Problem

__all__ = ["ProblemFormat", "ProblemSource", "builtin_formats", "format_of", "formats", "plugin_formats"]


@functools.cache
def builtin_formats() -> tuple[ProblemFormat, ...]:
    """The formats the judge itself reads (enough to find a problem asked for by name in the
    first problem folder, without looking through every installed package)."""
    return SuiteFormat(), PackageFormat()


@functools.cache
def plugin_formats() -> tuple[ProblemFormat, ...]:
    """The formats other packages register; finding them reads every installed distribution's
    metadata (70-90 ms), so it happens only when a command needs them."""
    # deferred: importlib.metadata loads the email parser too (20 ms of every start otherwise)
    from importlib.metadata import entry_points

    found = []
    for entry in entry_points(group="judge.formats"):
        loaded = entry.load()
        found.append(loaded() if isinstance(loaded, type) else loaded)
    return tuple(found)


def formats() -> tuple[ProblemFormat, ...]:
    """Every format the judge reads, built-in ones first."""
    return builtin_formats() + plugin_formats()


def format_of(problem: Problem) -> ProblemFormat:
    """The format ``problem`` was read in (the other packages' looked for only if need be)."""
    named = (found for group in (builtin_formats, plugin_formats) for found in group() if found.name == problem.format)
    return next(named)
