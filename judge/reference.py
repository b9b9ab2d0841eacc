"""Reference solvers (trusted code in ``reference/<id>.py``) and the expected outputs they give."""

from __future__ import annotations

import functools
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from judge.problem import Case, Problem, SuiteError


@functools.cache
def _load_module(path: Path, kind: str) -> ModuleType:
    if not path.is_file():
        raise SuiteError(f"{path} is missing: every problem needs a {kind} there")
    name = f"judge_{kind}_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules[name] = module
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def reference_module(problem: Problem) -> ModuleType:
    """The problem's reference solver, imported once."""
    return _load_module(problem.reference_path, "reference")


def strategy_path(root: Path, problem_id: str) -> Path:
    """Where a problem's Hypothesis strategies are (``strategies/<id>.py``, with ``inputs()``)."""
    return root / "strategies" / f"{problem_id}.py"


def strategy_module(problem: Problem) -> ModuleType:
    """The problem's Hypothesis strategies, imported once."""
    return strategy_module_at(strategy_path(problem.project_root, problem.id))


def strategy_module_at(path: Path) -> ModuleType:
    return _load_module(path, "strategy")


def validator_module(problem: Problem) -> ModuleType:
    """The problem's input validator (``validators/<id>.py``), imported once."""
    return _load_module(problem.project_root / "validators" / f"{problem.id}.py", "validator")


def reference_answer(problem: Problem, stdin_text: str | None = None, args: tuple | list | None = None) -> Any:
    """What the reference solver gives for an input (stdio) or a call's arguments (function)."""
    module = reference_module(problem)
    if problem.io == "function":
        return module.solution(*[_copy(arg) for arg in args or ()])
    return module.solve(stdin_text or "")


def expected_output(problem: Problem, case: Case) -> Any:
    """The case's stored expected output, else the reference solver's."""
    if case.expected is not None:
        return case.expected
    # Keyed by the input itself: stress testing judges many made-up cases with one name.
    key = (str(problem.suite_path), problem.id, case.stdin_bytes())
    if key not in _answers:
        _answers[key] = reference_answer(problem, case.input, case.args)
    return _answers[key]


_answers: dict[tuple[str, str, bytes], Any] = {}


def _copy(value: Any) -> Any:
    """Arguments are deep-copied so a solver that mutates them cannot change the case."""
    if isinstance(value, list):
        return [_copy(item) for item in value]
    return value
