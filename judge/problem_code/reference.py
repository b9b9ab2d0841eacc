"""A problem's trusted Python parts (reference solver, validator, strategies), each loaded once and
kept with the problem (``Problem.code``), and the expected outputs the reference gives."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

from judge.errors import SuiteError
from judge.model.problem import Case, Problem
from judge.problem_code.python_files import call_within, failure_text, kept, load_python_file


def _load_module(path: Path, kind: str) -> ModuleType:
    if not path.is_file():
        raise SuiteError(f"{path} is missing: this problem needs a {kind} there")
    return load_python_file(path, f"judge_{kind}_{path.stem}_{abs(hash(str(path))):x}", f"the {kind}")


def _part(problem: Problem, path: Path | None, kind: str) -> ModuleType:
    if path is None:
        raise SuiteError(f"problem {problem.id} has no {kind}")
    return kept(problem, (kind, path), lambda: _load_module(path, kind))


def reference_module(problem: Problem) -> ModuleType:
    """The problem's reference solver, imported once."""
    return _part(problem, problem.files.reference, "reference")


def strategy_module(problem: Problem) -> ModuleType:
    """The problem's Hypothesis strategies, imported once."""
    return _part(problem, problem.files.strategies, "strategy")


def strategy_module_at(path: Path) -> ModuleType:
    """The strategies at ``path``, loaded for a problem not loaded yet (`judge stress`'s example
    generator starts before it)."""
    return _load_module(path, "strategy")


def validator_module(problem: Problem) -> ModuleType:
    """The problem's input validator, imported once."""
    return _part(problem, problem.files.validator, "validator")


VALIDATOR_SECONDS = 30.0  # for one input: far more than reading one takes


def rejection(problem: Problem, value: Any) -> str | None:
    """Why the problem's validator rejects ``value`` (its ValueError's message), or None when it
    accepts it. A validator that fails otherwise (another error, sys.exit, no answer within
    VALIDATOR_SECONDS) is the problem's fault: SuiteError, saying what it did and how a validator
    answers."""
    validator = validator_module(problem)
    try:
        call_within(VALIDATOR_SECONDS, lambda: validator.validate(value), f"the validator {problem.files.validator.name}")
    except ValueError as error:
        return str(error)
    except SuiteError:
        raise
    except (Exception, SystemExit) as error:  # noqa: BLE001 - the problem author's code: their error, said as such
        raise SuiteError(f"{problem.files.validator}: validate() failed: {failure_text(error, problem.files.validator)}; "
                         f"a validator raises ValueError to reject an input and returns to accept it") from None
    return None


def reference_answer(problem: Problem, value: Any) -> Any:
    """What the reference solver gives for a case's value (input text, or call arguments)."""
    return problem.task.reference_answer(reference_module(problem), value)


def expected_output(problem: Problem, case: Case) -> Any:
    """The case's stored expected output, else the reference solver's."""
    if case.expected is not None:
        return case.expected
    # Keyed by the input itself: stress testing judges many made-up cases with one name.
    return kept(problem, ("answer", case.stdin_bytes()), lambda: reference_answer(problem, problem.task.value(case)))
