"""Problem formats, each a folder: the built-in YAML suites (``suite/``) and ICPC/Kattis problem
packages (``icpc/``); other packages add theirs through the ``judge.formats`` entry-point group
(an object providing what ``judge.extension_points.ProblemFormat`` declares). ``catalog`` finds
problems of every format."""

from __future__ import annotations

import functools

from judge import extension_points
from judge.formats.base import ProblemFormat, ProblemSource
from judge.formats.icpc.format import PackageFormat
from judge.formats.suite.format import SuiteFormat
from judge.model.problem import Problem
from judge.plugins import registered

__all__ = ["ProblemFormat", "ProblemSource", "builtin_formats", "format_of", "formats", "plugin_formats"]


@functools.cache
def builtin_formats() -> tuple[extension_points.ProblemFormat, ...]:
    """The formats the judge itself reads (enough to find a problem asked for by name in the
    first problem folder, without looking through every installed package)."""
    return SuiteFormat(), PackageFormat()


@functools.cache
def plugin_formats() -> tuple[extension_points.ProblemFormat, ...]:
    """The formats other packages register (looked for only when a command needs them: see
    judge/plugins.py)."""
    return tuple(registered("judge.formats"))


def formats() -> tuple[extension_points.ProblemFormat, ...]:
    """Every format the judge reads, built-in ones first."""
    return builtin_formats() + plugin_formats()


def format_of(problem: Problem) -> extension_points.ProblemFormat:
    """The format ``problem`` was read in (the other packages' looked for only if need be)."""
    named = (found for group in (builtin_formats, plugin_formats) for found in group() if found.name == problem.format)
    return next(named)
