"""A problem's own Python files (a suite's reference, validator, strategies and checker): loaded
in the judge's process, as their author's trusted code, and their errors said to that author as
theirs, with the line they came from, never as the judge's traceback."""

from __future__ import annotations

import importlib.util
import sys
import threading
import traceback
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeVar

from judge.errors import SuiteError

if TYPE_CHECKING:
    from judge.model.problem import Problem

T = TypeVar("T")


class DidNotReturn(SuiteError):
    """A problem's own code did not return in the time it was given (``call_within``)."""


def load_python_file(path: Path, name: str, what: str) -> ModuleType:
    """The module of a problem's own Python file; SuiteError saying where it failed if it does
    not load (a syntax error, an import that fails, any error or exit while it runs)."""
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise SuiteError(f"{path}: {what} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except (Exception, SystemExit) as error:  # noqa: BLE001 - the problem author's code: their error, said as such
        sys.modules.pop(name, None)
        raise SuiteError(f"{path}: {what} does not load: {failure_text(error, path)}") from None
    return module


def kept(problem: Problem, key: object, load: Callable[[], Any]) -> Any:
    """What ``load`` gives, the first time it is asked for under ``key``; after that, what the
    problem keeps of it (``Problem.code``, shared by the problem's copies)."""
    if key not in problem.code:
        problem.code[key] = load()
    return problem.code[key]


def failure_text(error: BaseException, path: Path) -> str:
    """An error raised by a problem's own Python file, for its author: the exception and the line
    of that file it came from (``ZeroDivisionError: division by zero (line 45)``)."""
    if isinstance(error, SyntaxError) and error.lineno is not None:
        return f"SyntaxError: {error.msg} (line {error.lineno})"
    if isinstance(error, SystemExit):
        return f"it called sys.exit({error.code!r})"
    lines = [frame.lineno for frame in traceback.extract_tb(error.__traceback__) if Path(frame.filename) == path]
    said = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__  # a bare `assert` says nothing
    return said + (f" (line {lines[-1]})" if lines else "")


def call_within(seconds: float, function: Callable[[], T], what: str) -> T:
    """``function()`` (a problem's own code), given up on after ``seconds``: DidNotReturn saying so.
    It runs in a daemon thread, since Python code cannot be stopped from outside: an endless loop
    then spins on beside the judge until it exits, but nothing waits for it (a grade, a signal's
    stop, the judge's own exit)."""
    outcome: list = []
    done = threading.Event()

    def call() -> None:
        try:
            outcome.append((True, function()))
        except BaseException as error:  # noqa: BLE001 - handed to the caller's thread as it was
            outcome.append((False, error))
        finally:
            done.set()

    threading.Thread(target=call, name=f"judge: {what}", daemon=True).start()
    if not done.wait(seconds):
        raise DidNotReturn(f"{what} did not return within {seconds:g} s: is there an endless loop?")
    ok, value = outcome[0]
    if not ok:
        raise value
    return value
