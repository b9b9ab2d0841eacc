"""Checkers: plain functions ``check(got, expected, **options) -> CheckResult``.

Messages follow one shape: where the first difference is, what was expected, what was found.
For hidden cases the caller asks for ``reveal=False`` and the expected text is left out.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SHOW = 40  # characters of a token shown in a message


@dataclass(frozen=True)
class CheckResult:
    """A checker's answer: accepted or not, and the first difference in words."""

    ok: bool
    message: str = ""


def _short(text: str) -> str:
    return text if len(text) <= SHOW else text[:SHOW] + "..."


def _lines(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return lines


class _End(str):
    """Where a line or the output ended: said in words, never quoted as if it had been printed."""


END_OF_LINE, END_OF_OUTPUT = _End("the end of the line"), _End("the end of the output")


def _shown(text: str) -> str:
    return text if isinstance(text, _End) else repr(_short(text))


def _differ(line: int, token: int | None, expected: str, got: str, reveal: bool) -> CheckResult:
    where = f"line {line}" + (f", token {token}" if token else "")
    if reveal:
        return CheckResult(False, f"{where}: expected {_shown(expected)}, got {_shown(got)}")
    if isinstance(got, _End):
        return CheckResult(False, f"{where}: got {got}, where the expected output goes on")
    return CheckResult(False, f"{where}: got {_shown(got)}, which is not the expected output")


def _compare_lines(got: str, expected: str, reveal: bool,
                   same: Callable[[str, str], bool]) -> CheckResult:
    got_lines, want_lines = _lines(got), _lines(expected)
    for number, (want, have) in enumerate(zip(want_lines, got_lines), 1):
        want_tokens, got_tokens = want.split(), have.split()
        for position, (a, b) in enumerate(zip(want_tokens, got_tokens), 1):
            if not same(a, b):
                return _differ(number, position, a, b, reveal)
        if len(want_tokens) != len(got_tokens):
            position = min(len(want_tokens), len(got_tokens)) + 1
            missing = len(got_tokens) < len(want_tokens)
            a = want_tokens[position - 1] if missing else END_OF_LINE
            b = END_OF_LINE if missing else got_tokens[position - 1]
            return _differ(number, position, a, b, reveal)
    if len(got_lines) < len(want_lines):
        number = len(got_lines) + 1
        return _differ(number, None, want_lines[number - 1], END_OF_OUTPUT, reveal)
    if len(got_lines) > len(want_lines):
        number = len(want_lines) + 1
        return _differ(number, None, END_OF_OUTPUT, got_lines[number - 1], reveal)
    return CheckResult(True)


def check_tokens(got: str, expected: str, *, reveal: bool = True, **_: Any) -> CheckResult:
    """Compare whitespace-separated tokens line by line. Spaces at the end of a line and blank
    lines at the end of the output do not count; blank lines before other lines do."""
    return _compare_lines(got, expected, reveal, lambda a, b: a == b)


def check_exact(got: str, expected: str, *, reveal: bool = True, **_: Any) -> CheckResult:
    """Byte-for-byte equality (after decoding); the message still names the first differing line."""
    if got == expected:
        return CheckResult(True)
    got_lines, want_lines = got.split("\n"), expected.split("\n")
    for number, (want, have) in enumerate(zip(want_lines, got_lines), 1):
        if want != have:
            return _differ(number, None, want, have, reveal)
    number = min(len(got_lines), len(want_lines)) + 1
    if len(got_lines) < len(want_lines):
        return _differ(number, None, want_lines[number - 1], END_OF_OUTPUT, reveal)
    return _differ(number, None, END_OF_OUTPUT, got_lines[number - 1], reveal)


def check_float(got: str, expected: str, *, reveal: bool = True, abs_tol: float = 1e-6,
                rel_tol: float = 1e-6, **_: Any) -> CheckResult:
    """Tokens equal, except numbers, which may differ by ``abs_tol`` or ``rel_tol``."""
    def same(a: str, b: str) -> bool:
        try:
            x, y = float(a), float(b)
        except ValueError:
            return a == b
        return math.isclose(x, y, rel_tol=rel_tol, abs_tol=abs_tol) and math.isfinite(y) == math.isfinite(x)
    return _compare_lines(got, expected, reveal, same)


def check_data(got: str, expected: Any, *, reveal: bool = True, **_: Any) -> CheckResult:
    """Function-style problems: the returned value (JSON) must equal the expected value."""
    try:
        value = json.loads(got)
    except ValueError:
        return CheckResult(False, f"the returned value could not be read: {_short(got)!r}")
    if same_data(value, expected):
        return CheckResult(True)
    if reveal:
        return CheckResult(False, f"returned {_short(json.dumps(value))}, expected {_short(json.dumps(expected))}")
    return CheckResult(False, f"returned {_short(json.dumps(value))}, which is not the expected value")


def same_data(value: Any, expected: Any) -> bool:
    """Equal JSON values, lists element by element. A number equals a number of the other kind
    when they are the same double (5.0 for 5; JavaScript has one number type and writes 1e16 as
    10000000000000000); a boolean equals only a boolean."""
    if isinstance(expected, list):
        return isinstance(value, list) and len(value) == len(expected) and all(map(same_data, value, expected))
    if isinstance(expected, dict):
        return value == expected and type(value) is type(expected)
    if _is_number(value) and _is_number(expected) and type(value) is not type(expected):
        try:
            return float(value) == float(expected)
        except OverflowError:
            return False
    return value == expected and type(value) is type(expected)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


BUILTIN_CHECKERS: dict[str, Callable[..., CheckResult]] = {
    "tokens": check_tokens,
    "exact": check_exact,
    "float": check_float,
    "data": check_data,
}


@functools.cache
def load_custom_checker(spec: str, root: Path) -> Callable[..., CheckResult]:
    """A problem's own checker, given as ``path/to/file.py:function`` relative to the project
    (imported once, not once per case)."""
    file_part, _, function_name = spec.partition(":")
    path = root / file_part
    module_spec = importlib.util.spec_from_file_location(f"judge_checker_{path.stem}", path)
    if module_spec is None or not path.is_file():
        raise ValueError(f"custom checker file {path} does not exist")
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)  # type: ignore[union-attr]
    function = getattr(module, function_name or "check", None)
    if not callable(function):
        raise ValueError(f"{path} defines no function {function_name or 'check'}")

    def custom(got: str, expected: Any, **options: Any) -> CheckResult:
        result = function(got, expected, **options)
        if isinstance(result, CheckResult):
            return result
        if isinstance(result, tuple):
            return CheckResult(bool(result[0]), str(result[1]))
        return CheckResult(bool(result), "" if result else "rejected by the problem's checker")
    return custom


def get_checker(name: str, options: dict, root: Path) -> Callable[..., CheckResult]:
    """The checker a suite names: a built-in one, or ``custom`` with option ``function``."""
    if name in BUILTIN_CHECKERS:
        return BUILTIN_CHECKERS[name]
    if name == "custom":
        return load_custom_checker(str(options.get("function", "")), root)
    raise ValueError(f"unknown checker {name!r}; use one of {', '.join(BUILTIN_CHECKERS)} or custom")
