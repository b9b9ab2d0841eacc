"""A problem's trusted Python parts (reference solver, validator, strategies), loaded once, and
the expected outputs the reference gives."""

from __future__ import annotations

import functools
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from judge.errors import SuiteError
from judge.problem import Case, Problem


@functools.cache
def _load_module(path: Path, kind: str) -> ModuleType:
    if not path.is_file():
        raise SuiteError(f"{path} is missing: this problem needs a {kind} there")
    name = f"judge_{kind}_{path.stem}_{abs(hash(str(path))):x}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules[name] = module
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def _part(problem: Problem, path: Path | None, kind: str) -> ModuleType:
    if path is None:
        raise SuiteError(f"problem {problem.id} has no {kind}")
    return _load_module(path, kind)


def reference_module(problem: Problem) -> ModuleType:
    """The problem's reference solver, imported once."""
    return _part(problem, problem.files.reference, "reference")


def strategy_module(problem: Problem) -> ModuleType:
    """The problem's Hypothesis strategies, imported once."""
    return _part(problem, problem.files.strategies, "strategy")


def strategy_module_at(path: Path) -> ModuleType:
    return _load_module(path, "strategy")


def validator_module(problem: Problem) -> ModuleType:
    """The problem's input validator, imported once."""
    return _part(problem, problem.files.validator, "validator")


def reference_answer(problem: Problem, value: Any) -> Any:
    """What the reference solver gives for a case's value (input text, or call arguments)."""
    return problem.task.reference_answer(reference_module(problem), value)


def expected_output(problem: Problem, case: Case) -> Any:
    """The case's stored expected output, else the reference solver's."""
    if case.expected is not None:
        return case.expected
    # Keyed by the input itself: stress testing judges many made-up cases with one name.
    key = (str(problem.suite_path), problem.id, case.stdin_bytes())
    if key not in _answers:
        _answers[key] = reference_answer(problem, problem.task.value(case))
    return _answers[key]


_answers: dict[tuple[str, str, bytes], Any] = {}
