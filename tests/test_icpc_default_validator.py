"""The default output validator: its rules, and the same verdict as problemtools' compiled
default_validator on Hypothesis-generated outputs."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from problemtools_files import default_validator_binary, run_default_validator

from judge.icpc.default_validator import FlagError, parse_float, validate


def ok(output: str, answer: str, *flags: str) -> bool:
    return validate(output.encode(), answer.encode(), list(flags)).ok


def test_tokens_ignore_amounts_of_whitespace_and_case_by_default():
    assert ok("Hello   World\n\n", "hello world\n")
    assert ok("1\n2", "1 2\n")
    assert not ok("hello", "hello world")
    assert not ok("hello world again", "hello world")


def test_case_sensitive_and_space_change_sensitive():
    assert not ok("Hello", "hello", "case_sensitive")
    assert ok("hello", "hello", "case_sensitive")
    assert not ok("1  2\n", "1 2\n", "space_change_sensitive")
    assert not ok("1 2", "1 2\n", "space_change_sensitive")
    assert ok("1 2\n", "1 2\n", "space_change_sensitive")


def test_float_tolerances_either_suffices_once_set():
    assert not ok("0.30000001", "0.3")  # no tolerance: tokens compare as strings
    assert ok("0.30000001", "0.3", "float_tolerance", "1e-6")
    assert ok("3.14e-2", "0.0314", "float_absolute_tolerance", "1e-9")
    assert ok("1000001", "1000000", "float_relative_tolerance", "1e-6")
    assert not ok("1000001", "1000000", "float_absolute_tolerance", "1e-6")
    assert ok("1000001", "1000000", "float_absolute_tolerance", "1e-6", "float_relative_tolerance", "1e-6")
    assert not ok("abc", "1.5", "float_tolerance", "1")  # a number was expected
    assert ok("ABC", "abc", "float_tolerance", "1")  # answer tokens that are not numbers compare as strings


def test_what_counts_as_a_float_follows_c():
    assert parse_float(b"1e5") == 1e5 and parse_float(b"0x1p3") == 8.0 and parse_float(b"-.5") == -0.5
    assert parse_float(b"1e") == 1.0  # scanf reads an exponent marker without digits
    for token in (b"inf", b"nan", b"1e400", b"0x", b"1,5", b"1_000", b".", b"1e5x"):
        assert parse_float(token) is None, token


def test_unknown_flags_are_refused():
    with pytest.raises(FlagError, match="unknown default validator flag 'float_tol'"):
        validate(b"1", b"1", ["float_tol", "1"])
    with pytest.raises(FlagError, match="needs a number"):
        validate(b"1", b"1", ["float_tolerance"])


def test_messages_say_where_and_what():
    result = validate(b"1 2\n3 5\n", b"1 2\n3 4\n")
    assert result.message.startswith("line 2 of the output (line 2 of the answer): expected '4', got '5'")


# ---------------------------------------------------------------------------------------------
# Against the reference implementation

NUMBERISH = "0123456789.eE+-xXpPaAfFinIN"
token = st.one_of(
    st.text(alphabet=NUMBERISH, min_size=1, max_size=8),
    st.text(alphabet="abcABC", min_size=1, max_size=4),
    st.floats(allow_nan=False, allow_infinity=False, width=32).map(repr),
    st.integers(-10**6, 10**6).map(str),
)
space = st.sampled_from([" ", "  ", "\n", "\t", " \n", "\r\n", "\x0b", "\x0c"])


@st.composite
def texts(draw) -> bytes:
    tokens = draw(st.lists(token, max_size=6))
    parts = [draw(st.sampled_from(["", " ", "\n"]))]
    for item in tokens:
        parts += [item, draw(space)]
    return "".join(parts).encode()


@st.composite
def answer_and_output(draw) -> tuple[bytes, bytes]:
    answer = draw(texts())
    if draw(st.booleans()):  # an output near the answer: mostly the same tokens, some changed
        pieces = answer.split(b" ")
        changed = [draw(token).encode() if draw(st.integers(0, 4)) == 0 else piece for piece in pieces]
        return answer, b" ".join(changed) + draw(st.sampled_from([b"", b"\n", b" ", b"\n\n"]))
    return answer, draw(texts())


flags = st.lists(st.sampled_from([["case_sensitive"], ["space_change_sensitive"],
                                  ["float_tolerance", "1e-6"], ["float_absolute_tolerance", "0.5"],
                                  ["float_relative_tolerance", "0.01"]]), max_size=3).map(
    lambda groups: [flag for group in groups for flag in group])


@pytest.fixture(scope="module")
def reference():
    return default_validator_binary()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pair=answer_and_output(), options=flags)
def test_same_verdict_as_problemtools_default_validator(reference, pair, options):
    answer, output = pair
    with tempfile.TemporaryDirectory() as work:
        expected = run_default_validator(reference, output, answer, options, Path(work))
    assert expected in (42, 43)
    assert validate(output, answer, options).ok == (expected == 42), (output, answer, options)
