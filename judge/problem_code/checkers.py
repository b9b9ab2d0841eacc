"""Checkers: plain functions ``check(got, expected, **options) -> CheckResult``.

Messages follow one shape: where the first difference is, what was expected, what was found.
For hidden cases the caller asks for ``reveal=False`` and the expected text is left out.
"""

from __future__ import annotations

import inspect
import json
import math
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from judge.errors import SuiteError
from judge.model.returned_value import UnreadableValue, decode_returned_value
from judge.model.verdict import CheckResult
from judge.problem_code.python_files import DidNotReturn, call_within, failure_text, kept, load_python_file

if TYPE_CHECKING:
    from judge.model.problem import Problem

SHOW = 40  # characters of a token shown in a message


def _short(text: str) -> str:
    return text if len(text) <= SHOW else text[:SHOW] + "..."


class _End(str):
    """Where a line or the output ended: said in words, never quoted as if it had been printed."""


END_OF_LINE, END_OF_OUTPUT = _End("the end of the line"), _End("the end of the output")
NO_OUTPUT = _End("no output")  # the program printed nothing at all


def _shown(text: str) -> str:
    return text if isinstance(text, _End) else repr(_short(text))


# What str.splitlines splits on; every one of them is also whitespace to str.split and \\s.
_LINE_BREAK = re.compile("\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
_TOKEN = re.compile("\\S+")
_TOKEN_OR_BREAK = re.compile("(\\S+)|\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")


def _differ(line: int, token: int | None, expected: str, got: str, reveal: bool) -> CheckResult:
    where = f"line {line}" + (f", token {token}" if token else "")
    if got is NO_OUTPUT:  # said first: "line 1: got the end of the output" hides the plain fact
        return CheckResult(False, f"no output; expected {_shown(expected)} on {where}" if reveal else "no output")
    if reveal:
        return CheckResult(False, f"{where}: expected {_shown(expected)}, got {_shown(got)}")
    if isinstance(got, _End):
        return CheckResult(False, f"{where}: got {got}, where the expected output goes on")
    return CheckResult(False, f"{where}: got {_shown(got)}, which is not the expected output")


def _compare_lines(got: str, expected: str, reveal: bool,
                   same: Callable[[str, str], bool]) -> CheckResult:
    """Line by line, token by token; trailing blank lines and trailing spaces don't count.

    Outputs may be megabytes of tokens or lines, which as lists of strings would cost many times
    their size: the submission's output is read as a stream of tokens and line breaks, the
    expected text line by line in place, and a blank line of the output is compared only once a
    later line shows that it was not trailing."""
    line = _LineCompare(got, expected, reveal, same)
    for match in _TOKEN_OR_BREAK.finditer(got):
        difference = line.token(match) if match.group(1) else line.end(match.end())
        if difference:
            return difference
    return line.end(len(got)) or line.finish()


def _line_spans(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each of ``text.splitlines()``, without copying them."""
    start = 0
    for line_break in _LINE_BREAK.finditer(text):
        yield start, line_break.start()
        start = line_break.end()
    if start < len(text):
        yield start, len(text)


def _content_lines(text: str) -> int:
    """How many lines ``text`` has, up to its last one that is not blank."""
    last = len(text)
    while last and text[last - 1].isspace():
        last -= 1
    return sum(1 for _ in _LINE_BREAK.finditer(text, 0, last)) + 1 if last else 0


def _span_text(text: str, span: tuple[int, int], strip: bool = True) -> str:
    """A line as a message shows it (no more of it than that is copied)."""
    shown = text[span[0]:min(span[1], span[0] + 4 * SHOW)]
    return shown.rstrip() if strip else shown


class _LineCompare:
    """The comparison's place: the output's line being read against its expected line, and the
    output's blank lines waiting to be compared."""

    def __init__(self, got: str, expected: str, reveal: bool, same: Callable[[str, str], bool]) -> None:
        self.got, self.expected, self.reveal, self.same = got, expected, reveal, same
        self.want_count = _content_lines(expected)
        self.want_spans = _line_spans(expected)
        self.number = 0  # lines compared (or being compared) so far
        self.start = 0  # where the output's current line starts
        self.want_tokens: Iterator[re.Match] | None = None  # the current line's expected tokens, once it has one
        self.position = 0  # tokens of the current line seen
        self.blank_run = 0

    def token(self, match: re.Match) -> CheckResult | None:
        if self.want_tokens is None:  # the line's first token: the blank lines before it count
            for _ in range(self.blank_run):
                difference = self._compare_blank_line()
                if difference:
                    return difference
            self.blank_run = 0
            self.number += 1
            if self.number > self.want_count:
                found = _LINE_BREAK.search(self.got, self.start)
                line = (self.start, found.start() if found else len(self.got))
                return _differ(self.number, None, END_OF_OUTPUT, _span_text(self.got, line), self.reveal)
            self.want_tokens = _TOKEN.finditer(self.expected, *next(self.want_spans))
        self.position += 1
        want = next(self.want_tokens, None)
        if want is None:
            return _differ(self.number, self.position, END_OF_LINE, match.group(1), self.reveal)
        if not self.same(want.group(), match.group(1)):
            return _differ(self.number, self.position, want.group(), match.group(1), self.reveal)
        return None

    def end(self, next_start: int) -> CheckResult | None:
        """The output's current line ends; the next starts at ``next_start``."""
        difference = None
        if self.want_tokens is None:
            self.blank_run += 1 if next_start > self.start else 0
        elif (missing := next(self.want_tokens, None)) is not None:
            difference = _differ(self.number, self.position + 1, missing.group(), END_OF_LINE, self.reveal)
        self.start, self.want_tokens, self.position = next_start, None, 0
        return difference

    def finish(self) -> CheckResult:
        """The output has ended (its blank lines at the end do not count)."""
        if self.number < self.want_count:
            missing = _span_text(self.expected, next(self.want_spans))
            return _differ(self.number + 1, None, missing, END_OF_OUTPUT if self.got else NO_OUTPUT, self.reveal)
        return CheckResult(True)

    def _compare_blank_line(self) -> CheckResult | None:
        self.number += 1
        if self.number > self.want_count:
            return _differ(self.number, None, END_OF_OUTPUT, "", self.reveal)
        first = _TOKEN.search(self.expected, *next(self.want_spans))
        return _differ(self.number, 1, first.group(), END_OF_LINE, self.reveal) if first else None


def check_tokens(got: str, expected: str, *, reveal: bool = True, **_: Any) -> CheckResult:
    """Compare whitespace-separated tokens line by line. Spaces at the end of a line and blank
    lines at the end of the output do not count; blank lines before other lines do."""
    return _compare_lines(got, expected, reveal, lambda a, b: a == b)


def check_exact(got: str, expected: str, *, reveal: bool = True, **_: Any) -> CheckResult:
    """Byte-for-byte equality (after decoding); the message still names the first differing line."""
    if got == expected:
        return CheckResult(True)
    if not got:
        return _differ(1, None, _span_text(expected, next(_piece_spans(expected)), False), NO_OUTPUT, reveal)
    got_pieces, want_pieces = _piece_spans(got), _piece_spans(expected)
    number = 0
    while True:  # the texts differ, so some line does
        number += 1
        want, have = next(want_pieces, None), next(got_pieces, None)
        if want is None or have is None or not _same_piece(expected, want, got, have):
            return _differ(number, None, END_OF_OUTPUT if want is None else _span_text(expected, want, False),
                           END_OF_OUTPUT if have is None else _span_text(got, have, False), reveal)


def _piece_spans(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each of ``text.split("\\n")``, without copying them."""
    start = 0
    while (end := text.find("\n", start)) >= 0:
        yield start, end
        start = end + 1
    yield start, len(text)


def _same_piece(text: str, span: tuple[int, int], other: str, other_span: tuple[int, int]) -> bool:
    length = span[1] - span[0]
    return length == other_span[1] - other_span[0] and other.startswith(text[span[0]:span[1]], other_span[0])


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
        value = decode_returned_value(got)
    except UnreadableValue as error:
        return CheckResult(False, f"{error}: {_short(got)!r}")
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


def load_custom_checker(spec: str, root: Path, option_names: tuple[str, ...] = ()) -> Callable[..., CheckResult]:
    """A problem's own checker, given as ``path/to/file.py:function`` relative to the project
    (``problem_checker`` keeps it with the problem: imported once, not once per case); SuiteError, saying how to write it, when it is missing,
    does not load, or does not take what the judge gives it."""
    file_part, _, function_name = spec.partition(":")
    path = root / file_part
    function_name = function_name or "check"
    if not file_part or not path.is_file():
        raise SuiteError(f"custom checker file {path} does not exist; name it in the suite as "
                         f"checker: {{name: custom, options: {{function: FILE.py:FUNCTION}}}}, FILE relative to {root}")
    module = load_python_file(path, f"judge_checker_{path.stem}_{abs(hash(str(path))):x}", "the checker")
    function = getattr(module, function_name, None)
    if not callable(function):
        defined = sorted(name for name, value in vars(module).items() if inspect.isfunction(value)
                         and value.__module__ == module.__name__)
        raise SuiteError(f"{path} defines no function {function_name}"
                         + (f" (it defines {', '.join(defined)})" if defined else "") + f"; {CHECKER_FORM}")
    wanted = _keywords(function)
    _check_signature(function, path, function_name, option_names)

    stuck: list[DidNotReturn] = []  # a call that never returned: the checker is not called again

    def custom(got: str, expected: Any, *, case: Any = None, **options: Any) -> CheckResult:
        if stuck:
            raise stuck[0]
        try:
            result = call_within(CHECKER_SECONDS, lambda: function(got, expected, **_offered(wanted, case, options)),
                                 f"the checker {path.name}:{function_name}")
        except DidNotReturn as error:
            stuck.append(error)
            raise
        except Exception as error:  # the checker's own mistake, said with the line it came from
            raise SuiteError(f"the checker {path.name}:{function_name} raised {failure_text(error, path)}") from error
        return _checker_result(result, path, function_name)
    custom.asks_for = wanted  # the names it takes besides the output and the answer; None: any (**options)
    return custom


CHECKER_SECONDS = 30.0  # for one call of a suite's own checker: far more than checking an answer takes


# How a suite's custom checker is written, for the errors that say it is not.
CHECKER_FORM = ("a checker is def check(got, expected, **options) -> bool | (bool, message) | CheckResult, and may "
                "ask by name for input (the case's input text), args (a function-style case's arguments), case "
                "and the suite's options")


def _check_signature(function: Callable, path: Path, name: str, option_names: tuple[str, ...]) -> None:
    """SuiteError when ``function`` cannot be called as the judge calls a checker: with the output,
    the expected answer and, by name, what it asks for of the case and the suite's options."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return  # a builtin or C function: called as it is
    offered = {"input", "args", "case", *option_names}
    takes_any = any(parameter.kind is inspect.Parameter.VAR_KEYWORD for parameter in signature.parameters.values())
    given = {key: None for key in offered if takes_any or key in signature.parameters}
    try:
        signature.bind("got", "expected", **given)
    except TypeError as error:
        raise SuiteError(f"{path}: {name}{signature} cannot be called as a checker ({error}); {CHECKER_FORM}") from None


def _checker_result(result: Any, path: Path, name: str) -> CheckResult:
    """What a custom checker returned, as a CheckResult; a value of no form a checker returns is
    the checker's mistake (an internal error), not a verdict."""
    if isinstance(result, CheckResult):
        return result
    if isinstance(result, bool):
        return CheckResult(result, "" if result else "rejected by the problem's checker")
    if isinstance(result, tuple) and len(result) == 2 and isinstance(result[0], bool):
        return CheckResult(result[0], str(result[1]))
    raise TypeError(f"{path.name}: {name}() returned {result!r:.60} ({type(result).__name__}); {CHECKER_FORM}")


def _keywords(function: Callable) -> set[str] | None:
    """The keyword arguments ``function`` takes by name, or None if it takes any (``**options``)."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(parameter.kind is inspect.Parameter.VAR_KEYWORD for parameter in parameters):
        return None
    return {parameter.name for parameter in parameters
            if parameter.kind in (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)}


def _offered(wanted: set[str] | None, case: Any, options: dict) -> dict:
    """What a custom checker is given besides the output and the expected answer: the suite's
    options, and what it asks for of the case by name: ``input`` (a stdio case's input text),
    ``args`` (a function-style case's arguments), ``case`` (the whole case). A checker that
    takes ``**options`` gets them all."""
    about_case = {} if case is None else {"input": case.input, "args": case.args, "case": case}
    offered = {**options, **about_case}
    if wanted is None:
        return offered
    return {name: value for name, value in offered.items() if name in wanted}


def problem_checker(problem: Problem) -> Callable[..., CheckResult]:
    """The checker ``problem`` names, loaded the first time and kept with the problem."""
    return kept(problem, "checker", lambda: get_checker(problem.checker, problem.checker_options, problem.project_root))


def get_checker(name: str, options: dict, root: Path) -> Callable[..., CheckResult]:
    """The checker a suite names: a built-in one, or ``custom`` with option ``function``."""
    if name in BUILTIN_CHECKERS:
        return BUILTIN_CHECKERS[name]
    if name == "custom":
        return load_custom_checker(str(options.get("function", "")), root, tuple(sorted(options)))
    raise SuiteError(f"unknown checker {name!r}; use one of {', '.join(BUILTIN_CHECKERS)} or custom")
