"""The problem package format's default output validator, as specified.

Output and answer are split into tokens at ASCII whitespace. Tokens are compared as strings,
case-insensitively unless ``case_sensitive``. With ``space_change_sensitive`` the whitespace
between tokens must be the answer's, byte for byte. Once a float tolerance is set
(``float_tolerance E`` sets both, ``float_relative_tolerance``, ``float_absolute_tolerance``), an
answer token that is a finite C floating-point number is compared numerically: the output token
must be one too, and either tolerance suffices. Everything works on bytes, as the reference
implementation (problemtools' ``default_validator.cc``) does, so both give the same verdict on
any output but one holding a NUL byte.

Every byte that is not ASCII whitespace is part of a token, NUL and the other control bytes
included: ``Hello world!\0Extra_stuff`` is one token, not ``Hello world!``. problemtools reads
tokens the same way but compares them (and reads floats) as C strings, which end at the first
NUL, so it accepts that output for ``Hello world!`` (DOMjudge's ``test-hello-nullbyte.c``, a bug
DOMjudge fixed in its own validator); here the whole token counts.
"""

from __future__ import annotations

import math
import re

from judge.model.verdict import CheckResult

# What C's strtod converts, at the start of what scanf("%lf") consumed.
_DECIMAL = re.compile(rb"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_HEXADECIMAL = re.compile(rb"[+-]?0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?\d+)?")
_HEX_DIGITS = b"0123456789abcdefABCDEF"
_SPACE = b" \t\n\v\f\r"  # C's isspace in the C locale
SHOW = 30


class FlagError(ValueError):
    """The validator's arguments are not ones it knows."""


def parse_flags(flags: list[str] | tuple[str, ...]) -> dict:
    """The options the flags set; FlagError naming an unknown flag or a bad tolerance."""
    options = {"case_sensitive": False, "space_change_sensitive": False, "absolute": -1.0, "relative": -1.0}
    items = list(flags)
    while items:
        flag = items.pop(0)
        if flag in ("case_sensitive", "space_change_sensitive"):
            options[flag] = True
        elif flag in ("float_tolerance", "float_absolute_tolerance", "float_relative_tolerance"):
            value = parse_float(items.pop(0).encode()) if items else None
            if value is None:
                raise FlagError(f"{flag} needs a number after it")
            if flag != "float_relative_tolerance":
                options["absolute"] = value
            if flag != "float_absolute_tolerance":
                options["relative"] = value
        else:
            raise FlagError(f"unknown default validator flag {flag!r}; known: case_sensitive, "
                            f"space_change_sensitive, float_tolerance E, float_relative_tolerance E, "
                            f"float_absolute_tolerance E")
    return options


def parse_float(token: bytes) -> float | None:
    """The token's value if the reference reads it as a finite float, else None.

    The reference tests ``sscanf(token, "%lf%10s", ...) == 1``: glibc's scanf consumes the
    longest run that can start a number (so "1e", "1.5E-" and "0x1p" are numbers, read as 1,
    1.5 and 1), fails on a bare sign or "0x", converts the start of the run with strtod, and
    anything left over makes the token not a number; infinities and NaN are not numbers.
    """
    hexadecimal = _consumes_all(token)
    if hexadecimal is None:
        return None
    pattern = _HEXADECIMAL if hexadecimal else _DECIMAL
    match = pattern.match(token) or _DECIMAL.match(token)
    if match is None:
        return None
    text = match.group().decode("ascii")
    try:
        value = float.fromhex(text) if match.re is _HEXADECIMAL else float(text)
    except OverflowError:
        return None
    return value if math.isfinite(value) else None


def _consumes_all(token: bytes) -> bool | None:
    """Whether glibc's scanf reads the whole token as one number: None if not, else whether it
    read it as hexadecimal."""
    signed = token[:1] in (b"+", b"-")
    at = int(signed)
    if token[at:at + 1].lower() in (b"n", b"i"):
        return None  # NaN or an infinity at best: never a float here
    hexadecimal = got_digit = got_exponent = got_dot = False
    if token[at:at + 1] == b"0":
        at += 1
        if token[at:at + 1] in (b"x", b"X"):
            hexadecimal, at = True, at + 1
        else:
            got_digit = True
    exponent = b"p" if hexadecimal else b"e"
    while at < len(token):
        char = token[at:at + 1]
        if char.isdigit() or (hexadecimal and not got_exponent and char in _HEX_DIGITS):
            got_digit = True
        elif got_exponent and token[at - 1:at].lower() == exponent and char in b"+-":
            pass
        elif got_digit and not got_exponent and char.lower() == exponent:
            got_exponent = got_dot = True
        elif not got_dot and char == b".":
            got_dot = True
        else:
            return None  # left over: scanf's second conversion gets it
        at += 1
    if len(token) == signed or (hexadecimal and len(token) == 2 + signed):
        return None
    return hexadecimal


def _short(token: bytes) -> str:
    text = token.decode("utf-8", errors="replace")
    return text if len(text) <= SHOW + 5 else text[:SHOW] + "..."


class _Stream:
    """A byte stream read the way the reference reads std::cin: peek, get, read a token."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0
        self.line = 1
        self.tokens_on_line = 0  # read on the current line, the last one included

    def peek_space(self) -> bool:
        return self.at < len(self.data) and self.data[self.at] in _SPACE

    def get(self) -> int:
        if self.at >= len(self.data):
            return -1
        byte = self.data[self.at]
        self.at += 1
        if byte == 10:
            self.line += 1
            self.tokens_on_line = 0
        return byte

    def token(self) -> bytes | None:
        while self.peek_space():
            self.get()
        start = self.at
        while self.at < len(self.data) and self.data[self.at] not in _SPACE:
            self.at += 1
        if self.at == start:
            return None
        self.tokens_on_line += 1
        return self.data[start:self.at]


def validate(output: bytes, answer: bytes, flags: list[str] | tuple[str, ...] = ()) -> CheckResult:
    """Compare a submission's output with the answer file under the default validator's rules."""
    options = parse_flags(flags)
    use_floats = options["absolute"] >= 0 or options["relative"] >= 0
    team, judge = _Stream(output), _Stream(answer)

    def wrong(message: str, token: bool = False) -> CheckResult:
        # A line may hold thousands of numbers: which one differs, counted from 1 on its line.
        where = f", token {team.tokens_on_line}" if token else ""
        return CheckResult(False, f"line {team.line}{where} of the output (line {judge.line} of the answer): {message}")

    while True:
        while judge.peek_space():
            expected = judge.get()
            if options["space_change_sensitive"]:
                got = team.get()
                if got != expected:
                    return wrong(f"space change: expected byte {expected}, got {got}")
        while team.peek_space():
            if options["space_change_sensitive"]:
                return wrong(f"space change: unexpected whitespace byte {team.data[team.at]}")
            team.get()
        want = judge.token()
        if want is None:
            break
        got_token = team.token()
        if got_token is None:
            return wrong(f"output ended while the answer has more (next answer token: {_short(want)!r})")
        message = _compare_tokens(want, got_token, options, use_floats)
        if message:
            return wrong(message, token=True)
    extra = team.token()
    if extra is not None:
        return wrong(f"trailing output: {_short(extra)!r}", token=True)
    return CheckResult(True)


def _compare_tokens(want: bytes, got: bytes, options: dict, use_floats: bool) -> str:
    """Why two tokens differ under the options, or '' when they match."""
    expected = parse_float(want) if use_floats else None
    if expected is not None:
        value = parse_float(got)
        if value is None:
            return f"expected a number, got {_short(got)!r}"
        difference = abs(expected - value)
        if difference <= options["absolute"] or difference <= options["relative"] * abs(expected):
            return ""
        return f"expected {_short(want)}, got {_short(got)} (difference {difference:g})"
    if want == got or (not options["case_sensitive"] and want.lower() == got.lower()):
        return ""
    return f"expected {_short(want)!r}, got {_short(got)!r}"
